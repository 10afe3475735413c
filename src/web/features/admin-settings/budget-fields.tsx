import { budgetOf, weeklyBudget, type WeeklyBudget } from '../../../shared/settings.ts';
import { issueFields, parseAmountText } from '../../../shared/validation.ts';
import { formatEstelecas, formatMeritus } from '../../lib/format.ts';
import { TextField } from '../../ui/text-field.tsx';

/** A weekly budget as its two fields hold it: blank for no limit. */
export type BudgetText = { meritus: string; estelecas: string };

export function budgetText(budget: WeeklyBudget): BudgetText {
  return { meritus: budget?.meritus?.toString() ?? '', estelecas: budget?.estelecas?.toString() ?? '' };
}

/** The fields read with the shared schema: the budget, or each field's message. */
export function parseBudget(text: BudgetText): { budget: WeeklyBudget } | { errors: Partial<Record<keyof BudgetText, string>> } {
  const amount = (value: string) => parseAmountText(value) ?? null;
  const parsed = weeklyBudget.safeParse({ meritus: amount(text.meritus), estelecas: amount(text.estelecas) });
  if (!parsed.success) return { errors: issueFields(parsed.error.issues) };
  return { budget: parsed.data && budgetOf(parsed.data.meritus, parsed.data.estelecas) };
}

/** A budget in words, as the staff list shows it. */
export function budgetSummary(budget: WeeklyBudget): string {
  if (!budget) return 'Sem limite semanal';
  const part = (limit: number | null, format: (value: number) => string, currency: string) =>
    limit === null ? `${currency} sem limite` : `até ${format(limit)}`;
  return `Por semana: ${part(budget.meritus, formatMeritus, 'M$')} · ${part(budget.estelecas, formatEstelecas, 'Estelecas')}`;
}

export function BudgetFields({
  value,
  onChange,
  errors,
  labelPrefix,
}: {
  value: BudgetText;
  onChange: (value: BudgetText) => void;
  errors: Partial<Record<keyof BudgetText, string>>;
  /** 'Limite semanal' or 'Limite semanal padrão': the fields' labels start with it. */
  labelPrefix: string;
}) {
  return (
    <>
      <TextField
        label={`${labelPrefix} de M$`}
        hint="Vazio: sem limite"
        inputMode="numeric"
        value={value.meritus}
        onChange={(event) => onChange({ ...value, meritus: event.target.value })}
        error={errors.meritus}
      />
      <TextField
        label={`${labelPrefix} de Estelecas`}
        hint="Vazio: sem limite"
        inputMode="numeric"
        value={value.estelecas}
        onChange={(event) => onChange({ ...value, estelecas: event.target.value })}
        error={errors.estelecas}
      />
    </>
  );
}
