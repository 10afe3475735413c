/**
 * A transfer's short code (its Comprovante's 'Código'): the first 12 hex digits of the ledger row's id, in three groups
 * of four ('3F9A-0C12-7B4E'). Derived, not stored: the student's receipt, their history and the staff's live feed write
 * the same code for the same row. 48 random bits (the ids are random UUIDs): a school would need millions of transfers
 * before two shared one, and a lookup is scoped to the student's own transfers. Free of zod: screens import it.
 */
const CODE_DIGITS = 12;

export function receiptCode(entryId: string): string {
  const digits = entryId.replaceAll('-', '').slice(0, CODE_DIGITS).toUpperCase();
  return digits.match(/.{4}/g)!.join('-');
}

/**
 * The ids a typed code stands for, as the bounds of a range of UUIDs (PostgreSQL orders them by their bytes, so the
 * primary key's index answers it), or null for text that is no code. Case, spaces and dashes are forgiven.
 */
export function receiptIdRange(code: string): { first: string; last: string } | null {
  const digits = code.replace(/[\s-]/g, '').toLowerCase();
  if (!new RegExp(`^[0-9a-f]{${CODE_DIGITS}}$`).test(digits)) return null;
  const prefix = `${digits.slice(0, 8)}-${digits.slice(8, 12)}`;
  return { first: `${prefix}-0000-0000-000000000000`, last: `${prefix}-ffff-ffff-ffffffffffff` };
}
