import type { Currency } from './ledger-types.ts';

const integerFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const currencyFormat = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/**
 * The school's time zone (its settings, decision 009): every date and time a screen shows is
 * written in it, whatever the device's clock says. The web sets it once the settings arrive;
 * the server passes the zone to each call instead, since one process may serve several
 * databases (tests) and must not keep one school's zone in a module.
 */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';
let schoolTimeZone = DEFAULT_TIME_ZONE;

export function setSchoolTimeZone(timeZone: string): void {
  schoolTimeZone = timeZone;
}

export function currentSchoolTimeZone(): string {
  return schoolTimeZone;
}

/** Building a DateTimeFormat costs far more than using one: one per zone and options, kept. */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormatOf(options: Intl.DateTimeFormatOptions, timeZone: string, locale = 'pt-BR'): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** An instant written with any of Intl's date options, in the school's time zone (or `timeZone`). */
export function formatInstant(value: string | Date, options: Intl.DateTimeFormatOptions, timeZone: string = schoolTimeZone): string {
  return dateTimeFormatOf(options, timeZone).format(new Date(value));
}

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
export function dayIn(timeZone: string, at: Date): string {
  return dateTimeFormatOf({ year: 'numeric', month: '2-digit', day: '2-digit' }, timeZone, 'en-CA').format(at);
}

/** The instant a day of the time zone begins, for the day `at` falls in: a school's 'today' begins at its midnight. */
export function startOfDayIn(timeZone: string, at: Date): Date {
  const [year, month, day] = dayIn(timeZone, at).split('-').map(Number) as [number, number, number];
  return midnightIn(timeZone, Date.UTC(year, month - 1, day));
}

/**
 * The instant the school's week begins, for the week `at` falls in: Monday at midnight in the
 * school's time zone. A teacher's weekly award budget counts from it.
 */
export function startOfWeekIn(timeZone: string, at: Date): Date {
  const [year, month, day] = dayIn(timeZone, at).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const daysSinceMonday = (date.getUTCDay() + 6) % 7;
  return midnightIn(timeZone, date.getTime() - daysSinceMonday * 86_400_000);
}

/** The instant a calendar day (given as its UTC midnight) begins in a time zone. */
export function midnightIn(timeZone: string, midnightUtc: number): Date {
  // The zone's offset at that midnight (read twice: a change of offset on the day itself moves it once more).
  let start = midnightUtc - offsetMs(timeZone, new Date(midnightUtc));
  start = midnightUtc - offsetMs(timeZone, new Date(start));
  return new Date(start);
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetMs(timeZone: string, at: Date): number {
  const parts = dateTimeFormatOf(
    { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
    timeZone,
    'en-US',
  ).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

const oneDecimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const upToOneDecimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const upToTwoDecimals = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/** 1234 → "1.234" */
export function formatNumber(value: number): string {
  return integerFormat.format(value);
}

/**
 * The form that agrees with a count: pt-BR takes the singular for one (and minus one) only, so "Falta 1 dia",
 * "Faltam 0 dias". Every count text goes through here or countOf.
 */
export function plural(count: number, one: string, many: string): string {
  return Math.abs(count) === 1 ? one : many;
}

/** 1 → "1 aluno", 1234 → "1.234 alunos" */
export function countOf(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${plural(count, one, many)}`;
}

/** 1234 → "1.234 M$" */
export function formatMeritus(value: number): string {
  return `${integerFormat.format(value)} M$`;
}

/** Signed amount for history rows: "+50 M$", "-20 M$". */
export function formatSignedMeritus(value: number): string {
  const sign = value > 0 ? '+' : value < 0 ? '-' : '';
  return `${sign}${formatMeritus(Math.abs(value))}`;
}

/** 1 → "1 Esteleca", 1234 → "1.234 Estelecas" */
export function formatEstelecas(value: number): string {
  return countOf(value, 'Esteleca', 'Estelecas');
}

export function formatAmount(currency: Currency, value: number): string {
  return currency === 'meritus' ? formatMeritus(value) : formatEstelecas(value);
}

/** "+50 M$", "-1.200 M$", "+3 Estelecas"; zero has no sign. */
export function formatSignedAmount(currency: Currency, value: number): string {
  const sign = value > 0 ? '+' : value < 0 ? '-' : '';
  return `${sign}${formatAmount(currency, Math.abs(value))}`;
}

/** 1 → "R$ 1,00" */
export function formatReais(value: number): string {
  return currencyFormat.format(value).replace(/\u00a0/g, ' ');
}

/** ISO date or Date → "22/11/2026". Plain dates (YYYY-MM-DD) are taken as calendar days, not instants. */
export function formatDate(value: string | Date, timeZone: string = schoolTimeZone): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [year, month, day] = value.split('-');
    return `${day}/${month}/${year}`;
  }
  return formatInstant(value, {}, timeZone);
}

/** → "22/11/2026, 14:05" */
export function formatDateTime(value: string | Date, timeZone: string = schoolTimeZone): string {
  return formatInstant(value, { dateStyle: 'short', timeStyle: 'short' }, timeZone);
}

/** → "14:05" ('Atualizado às 14:05'); with seconds, "14:05:09". */
export function formatTime(
  value: string | Date,
  { seconds = false }: { seconds?: boolean } = {},
  timeZone: string = schoolTimeZone,
): string {
  return formatInstant(value, { timeStyle: seconds ? 'medium' : 'short' }, timeZone);
}

/** Relative time as the live operations screen shows it. */
export function formatRelativeTime(value: string | Date, now: Date = new Date()): string {
  const seconds = Math.max(0, (now.getTime() - new Date(value).getTime()) / 1000);
  if (seconds < 60) return 'Agora mesmo';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min atrás`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h atrás`;
  const days = Math.floor(hours / 24);
  return `${countOf(days, 'dia', 'dias')} atrás`;
}

/** Milliseconds: '0,42 ms' under 10, '12,3 ms' above. */
export function formatMs(ms: number): string {
  return `${(ms < 10 ? upToTwoDecimals : upToOneDecimal).format(ms)} ms`;
}

/** Bytes in base 1024, one decimal except for bytes: "512 B", "1,5 MB". */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${oneDecimal.format(value)} ${units[unit]}`;
}

/** Share of the goal, 0–100, for progress bars. */
export function progressPercent(value: number, goal: number): number {
  if (goal <= 0) return 0;
  return Math.min(100, Math.max(0, (value / goal) * 100));
}

/** Titles a name may begin with ('Profª Conceição Araújo'); a greeting skips them. */
const TITLES = /^(prof|profa|profª|professor|professora|dr|dra|drª|sr|sra|srª|coord|coordenador|coordenadora)\.?$/i;

/** The first name, for a greeting: 'Profª Conceição Araújo' is greeted 'Conceição'. */
export function firstName(fullName: string): string {
  const words = fullName.trim().split(/\s+/);
  return words.find((word) => !TITLES.test(word)) ?? words[0] ?? fullName;
}

/** Whole days left until `expiresAt`, rounded up; 0 once expired. */
export function daysRemaining(expiresAt: string | Date, now: Date = new Date()): number {
  const ms = new Date(expiresAt).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / 86_400_000);
}
