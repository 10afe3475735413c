import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../shared/contract/routes.ts';
import type { SchoolYearInput } from '../../../shared/school-year.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';
import { toast } from 'react-hot-toast';
import { toastError } from '../../lib/toast.ts';

const { schoolYear } = routes;

export function useSchoolYears() {
  return useQuery(readOf(schoolYear.list));
}

/** A year created or changed: the list read again; a refusal is shown beside the form and in a toast. */
export function useSaveSchoolYear() {
  const client = useQueryClient();
  return useMutation<unknown, ApiError, SchoolYearInput & { id?: string }>({
    mutationFn: ({ id, ...body }) => (id ? call(schoolYear.update, { params: { id }, body }) : call(schoolYear.create, { body })),
    onSuccess: () => {
      toast.success('Ano letivo salvo');
      return invalidateReads(client, [schoolYear.list]);
    },
    onError: (error) => toastError(error),
  });
}
