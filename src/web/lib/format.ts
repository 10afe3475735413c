export {
  daysRemaining,
  firstName,
  formatDate,
  formatDateTime,
  formatMeritus,
  formatNumber,
  formatReais,
  formatRelativeTime,
  formatSignedMeritus,
  formatSize,
  progressPercent,
} from '../../shared/format.ts';
