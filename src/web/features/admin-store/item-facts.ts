import { LIMIT_PERIOD_LABELS, type AdminStoreItem, type StoreItem, type StoreLimit } from '../../../shared/store.ts';
import { formatAmount, formatDate, formatNumber } from '../../lib/format.ts';

/** 'Máx. 1 por semana'; 'Sem limite por aluno'. */
export function limitText(limit: StoreLimit | null): string {
  return limit ? `Máx. ${formatNumber(limit.count)} por ${LIMIT_PERIOD_LABELS[limit.period].per}` : 'Sem limite por aluno';
}

/** What an item costs, or a goal's amount: '150 M$', 'Meta: 3.000 M$'. */
export function priceText(item: Pick<StoreItem, 'price' | 'goal' | 'currency'>): string {
  if (item.goal !== null) return `Meta: ${formatAmount(item.currency, item.goal)}`;
  return item.price === null ? '' : formatAmount(item.currency, item.price);
}

/** 'Ilimitado', '3 de 10 em estoque', 'Esgotado'. */
export function stockText(item: Pick<AdminStoreItem, 'stock' | 'stockLeft'>): string {
  if (item.stock === null || item.stockLeft === null) return 'Estoque ilimitado';
  if (item.stockLeft === 0) return 'Esgotado';
  return `${formatNumber(item.stockLeft)} de ${formatNumber(item.stock)} em estoque`;
}

/** 'Disponível de 01/12/2026 a 20/12/2026', 'Disponível até …', or null when always. */
export function availabilityText(item: Pick<StoreItem, 'availableFrom' | 'availableUntil'>): string | null {
  const { availableFrom: from, availableUntil: until } = item;
  if (from && until) return `Disponível de ${formatDate(from)} a ${formatDate(until)}`;
  if (from) return `Disponível a partir de ${formatDate(from)}`;
  if (until) return `Disponível até ${formatDate(until)}`;
  return null;
}

/** 'Todas as turmas', or the turmas' names in the school's order. */
export function turmasText(turmaIds: readonly string[] | null, turmas: readonly { id: string; name: string }[]): string {
  if (turmaIds === null) return 'Todas as turmas';
  const names = turmas.filter((turma) => turmaIds.includes(turma.id)).map((turma) => turma.name);
  return names.length > 0 ? names.join(', ') : 'Nenhuma turma';
}
