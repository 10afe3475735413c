import { z } from 'zod';
import { ERROR_MESSAGES, isErrorCode, type ErrorCode } from './errors.ts';
import { MAX_OPERATION_AMOUNT } from './constants.ts';

/**
 * Schemas in src/shared use error codes as their issue messages, so the server
 * answers with a stable code and both sides show the same pt-BR text.
 */
export function issueCode(issue: { message?: string | undefined }): ErrorCode {
  return isErrorCode(issue.message) ? issue.message : 'validation';
}

export function issueMessage(issue: { message?: string | undefined }): string {
  return ERROR_MESSAGES[issueCode(issue)];
}

/**
 * An amount as typed in a form: blank is missing (undefined), a decimal comma reads as a
 * point, anything else becomes a number for a schema or rule to judge (NaN included).
 */
export function parseAmountText(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed.replace(',', '.'));
}

/** A required non-empty text; missing or blank → the given code. */
export function requiredText(code: ErrorCode, max = 200) {
  return z
    .string({ error: code })
    .trim()
    .min(1, { error: code })
    .max(max, { error: 'validation' });
}

/**
 * A whole amount of points: strings, fractions, negatives and huge values are refused
 * with their own message instead of being coerced.
 */
export function amountSchema(codes: { missing: ErrorCode; notPositive: ErrorCode; notInteger?: ErrorCode }) {
  return z
    .number({ error: (issue) => (issue.input === undefined || issue.input === null ? codes.missing : codes.notInteger ?? 'amount_not_integer') })
    .int({ error: codes.notInteger ?? 'amount_not_integer' })
    .positive({ error: codes.notPositive })
    .max(MAX_OPERATION_AMOUNT, { error: 'amount_too_large' });
}
