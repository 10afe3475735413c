/** Number formats of the backend panel, in pt-BR. */

const oneDecimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/** A rate per second: '3,5/s'. */
export function formatRate(perSecond: number): string {
  return `${twoDecimals.format(perSecond)}/s`;
}

/** A share from 0 to 1 as a percentage: '0,5%'. */
export function formatShare(share: number): string {
  return `${twoDecimals.format(share * 100)}%`;
}

/** A percentage already from 0 to 100: '12,5%'. */
export function formatPercent(percent: number): string {
  return `${oneDecimal.format(percent)}%`;
}

/** Bytes as megabytes for charts, where one unit keeps the axis readable: '148 MB'. */
export function formatMegabytes(bytes: number): string {
  return `${oneDecimal.format(bytes / (1024 * 1024))} MB`;
}

/** Seconds as '3 d 4 h 5 min', '4 h 5 min 6 s' or '5 min 6 s'. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days} d ${hours} h ${minutes} min`;
  if (hours > 0) return `${hours} h ${minutes} min ${rest} s`;
  return `${minutes} min ${rest} s`;
}
