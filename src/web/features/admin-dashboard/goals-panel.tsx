import { useState, type FormEvent } from 'react';
import { Pencil, Target } from 'lucide-react';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import type { GoalView } from '../../../shared/dashboard.ts';
import { GOAL_DEFINITIONS } from '../../../shared/dashboard-definitions.ts';
import { formatMeritus, formatNumber } from '../../lib/format.ts';
import { Card } from '../../ui/card.tsx';
import { IconButton } from '../../ui/icon-button.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { TextField } from '../../ui/text-field.tsx';
import type { Tone } from '../../ui/tone.ts';
import { useUpdateGoal } from './dashboard-queries.ts';

const decimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

function formatGoalValue(goal: Pick<GoalView, 'unit'>, value: number): string {
  if (goal.unit === 'percent') return `${decimal.format(value)}%`;
  if (goal.unit === 'meritus') return formatMeritus(value);
  return formatNumber(value);
}

const tones: Tone[] = ['indigo', 'emerald', 'amber'];

function GoalEditor({ goal, onClose }: { goal: GoalView; onClose: () => void }) {
  const [value, setValue] = useState(String(goal.target));
  const [error, setError] = useState<string>();
  const update = useUpdateGoal(onClose);
  const definition = GOAL_DEFINITIONS[goal.id];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = Number(value);
    if (value.trim() === '' || !Number.isInteger(target) || target < 1) return setError(ERROR_MESSAGES.goal_invalid_target);
    if (target > definition.max) {
      return setError(goal.unit === 'percent' ? ERROR_MESSAGES.goal_percent_range : ERROR_MESSAGES.goal_invalid_target);
    }
    setError(undefined);
    update.mutate({ id: goal.id, target }, { onError: (failure) => setError(failure.message) });
  };

  return (
    <FormModal
      onClose={onClose}
      title={`Meta: ${goal.label}`}
      description={goal.description}
      size="sm"
      formId="goal-form"
      pending={update.isPending}
      submitLabel="Salvar meta"
    >
      <form id="goal-form" onSubmit={submit} noValidate>
        <TextField
          label={goal.unit === 'percent' ? 'Meta (%)' : goal.unit === 'meritus' ? 'Meta (M$)' : 'Meta (operações)'}
          type="number"
          inputMode="numeric"
          min={1}
          max={definition.max}
          step={1}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={error}
          hint={`Hoje: ${formatGoalValue(goal, goal.current)}`}
        />
      </form>
    </FormModal>
  );
}

/** Progress toward the targets the coordination keeps, from real figures; `editable` for those who may change them. */
export function GoalsPanel({ goals, editable }: { goals: readonly GoalView[]; editable: boolean }) {
  const [editing, setEditing] = useState<GoalView | null>(null);
  return (
    <Card title="Metas" action={<Target aria-hidden="true" className="size-5 text-slate-500" />}>
      <ul className="flex flex-col gap-5">
        {goals.map((goal, index) => (
          <li key={goal.id}>
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="text-sm font-semibold text-slate-900">{goal.label}</p>
                <p className="text-xs text-slate-600">{goal.description}</p>
              </div>
              <div className="flex shrink-0 items-center gap-1">
                {/* Of the goal, not the figure itself: a participation of 92,3% against a 95% goal is 97,2% of the way. */}
                <span className="text-sm font-bold text-slate-900 tabular-nums">
                  {decimal.format(goal.progress)}% <span className="font-medium text-slate-600">da meta</span>
                </span>
                {editable && (
                  <IconButton
                    size="sm"
                    label={`Editar meta ${goal.label}`}
                    icon={<Pencil aria-hidden="true" className="size-4" />}
                    onClick={() => setEditing(goal)}
                  />
                )}
              </div>
            </div>
            <ProgressBar
              value={goal.current}
              max={goal.target}
              label={`Progresso da meta ${goal.label}`}
              tone={tones[index % tones.length]}
              className="mt-2"
            />
            <p className="mt-1 text-xs text-slate-600 tabular-nums">
              {formatGoalValue(goal, goal.current)} de {formatGoalValue(goal, goal.target)}
            </p>
          </li>
        ))}
      </ul>
      {editing && <GoalEditor goal={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}
