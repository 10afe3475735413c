import type { PublicStudent } from '../../../shared/auth.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { parseAmountText } from '../../../shared/validation.ts';
import type { EstelecasRequest } from './estelecas-queries.ts';

export type EstelecasMode = 'add' | 'remove';

export type EstelecasDraft = Pick<EstelecasRequest['input'], 'type'> & { quantity: string; description: string };

/**
 * The add/remove dialog's checks: a student, a whole quantity of at least 1 and a reason
 * ('Preencha todos os campos'); a removal no larger than the student's Estelecas.
 */
export function validateEstelecasOperation(
  mode: EstelecasMode,
  draft: EstelecasDraft,
  student: Pick<PublicStudent, 'id' | 'estelecas'> | undefined,
): { ok: true; request: EstelecasRequest } | { ok: false; message: string } {
  const amount = parseAmountText(draft.quantity);
  const description = draft.description.trim();
  if (!student || amount === undefined || !Number.isInteger(amount) || amount < 1 || description === '') {
    return { ok: false, message: ERROR_MESSAGES.missing_fields_short };
  }
  if (mode === 'remove' && amount > student.estelecas) return { ok: false, message: ERROR_MESSAGES.remove_exceeds_estelecas };
  return { ok: true, request: { studentId: student.id, input: { type: draft.type, amount, description } } };
}
