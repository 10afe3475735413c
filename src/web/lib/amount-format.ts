import type { Currency } from '../../shared/ledger.ts';
import { formatMeritus, formatNumber } from '../../shared/format.ts';

/** 1 → "1 Esteleca", 1234 → "1.234 Estelecas" */
export function formatEstelecas(value: number): string {
  return `${formatNumber(value)} ${Math.abs(value) === 1 ? 'Esteleca' : 'Estelecas'}`;
}

export function formatAmount(currency: Currency, value: number): string {
  return currency === 'meritus' ? formatMeritus(value) : formatEstelecas(value);
}

/** "+50 M$", "-1.200 M$", "+3 Estelecas"; zero has no sign. */
export function formatSignedAmount(currency: Currency, value: number): string {
  const sign = value > 0 ? '+' : value < 0 ? '-' : '';
  return `${sign}${formatAmount(currency, Math.abs(value))}`;
}

