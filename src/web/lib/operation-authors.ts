import { useQuery } from '@tanstack/react-query';
import { routes } from '../../shared/contract/routes.ts';
import { readOf } from './query-keys.ts';

/** The members of the staff who wrote operations, by name: the live feed's and the reports' author filter. */
export function useOperationAuthors() {
  return useQuery(readOf(routes.ledger.operationAuthors)).data ?? [];
}

/** The author filter's choices: the whole staff, then each author. */
export function authorOptions(authors: readonly { id: string; name: string }[]) {
  return [{ value: '', label: 'Toda a equipe' }, ...authors.map((author) => ({ value: author.id, label: author.name }))];
}
