import { formatAmount, formatDate, plural } from './format.ts';
import { ERROR_MESSAGES } from './errors.ts';
import { type AdminOperationType, type Currency, isCredit } from './ledger-types.ts';

/** The ledger's pt-BR words that are not errors: currencies' names and administrators' success messages. */

export const CURRENCY_LABELS: Record<Currency, string> = { meritus: 'Méritus', estelecas: 'Estelecas' };

/**
 * What each of the staff's four operations means, one line each (the award forms): Adição and Recompensa raise a balance
 * alike, Remoção and Penalidade lower it alike; the student reads the type in their history, so it says why.
 */
export const ADMIN_OPERATION_HINTS: Record<AdminOperationType, string> = {
  admin_add: 'Ajuste: soma ao saldo sem ser prêmio (saldo inicial, correção de um erro).',
  reward: 'Prêmio por mérito: participação, conquista, bom comportamento.',
  admin_remove: 'Ajuste: tira do saldo sem ser castigo (correção de um lançamento errado).',
  penalty: 'Castigo por uma falta: regra descumprida, indisciplina.',
};

/** An administrator's operation on one student: "1 M$ adicionado a Ana", "3 Estelecas removidas de Ana". */
export function adminOperationMessage(currency: Currency, type: AdminOperationType, amount: number, name: string): string {
  // Méritus (M$) agree in the masculine, Estelecas in the feminine.
  const [added, removed] = currency === 'meritus' ? ['adicionado', 'removido'] : ['adicionada', 'removida'];
  const verb = isCredit(type) ? `${plural(amount, added, `${added}s`)} a` : `${plural(amount, removed, `${removed}s`)} de`;
  return `${formatAmount(currency, amount)} ${verb} ${name}`;
}

/** One operation for many students: "10 M$ concedidos a 25 estudantes", "1 Esteleca descontada de 1 estudante". */
export function bulkOperationMessage(currency: Currency, type: AdminOperationType, amount: number, count: number): string {
  // M$ (Méritus) is masculine, Esteleca feminine: "concedidos" / "concedida(s)".
  const ending = currency === 'meritus' ? 'os' : amount === 1 ? 'a' : 'as';
  const verb = isCredit(type) ? `concedid${ending} a` : `descontad${ending} de`;
  return `${formatAmount(currency, amount)} ${verb} ${count} ${count === 1 ? 'estudante' : 'estudantes'}`;
}

/** A reversal's own line: "Estorno: Participação em aula". */
export function reversalDescription(reversedDescription: string): string {
  return `Estorno: ${reversedDescription}`;
}

export const REVERSAL_DONE = 'Operação estornada';

/** What a reversed row shows wherever it is listed: "Estornada em 28/11/2026 por Carla Dias: Aluno errado". */
export function reversedNote(reversal: { at: string; by: string; reason: string }, timeZone?: string): string {
  return `Estornada em ${formatDate(reversal.at, timeZone)} por ${reversal.by}: ${reversal.reason}`;
}

/** What a teacher may still award this week (their weekly budget): "Você ainda pode conceder 340 M$ esta semana". */
export function budgetLeftText(currency: Currency, remaining: number): string {
  return remaining > 0
    ? `Você ainda pode conceder ${formatAmount(currency, remaining)} esta semana`
    : `Você não pode conceder mais ${currency === 'meritus' ? 'M$' : 'Estelecas'} esta semana`;
}

/** 'award_budget_exceeded' with what is left of the teacher's weekly budget in the operation's currency. */
export function budgetExceededMessage(currency: Currency, remaining: number): string {
  return `${ERROR_MESSAGES.award_budget_exceeded}. ${budgetLeftText(currency, remaining)}.`;
}
