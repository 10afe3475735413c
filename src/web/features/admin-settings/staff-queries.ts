import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../shared/contract/routes.ts';
import type { CreateStaffInput, UpdateStaffInput } from '../../../shared/staff.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';
import { toastError } from '../../lib/toast.ts';

const { staff } = routes;

export function useStaff() {
  return useQuery(readOf(staff.list));
}

/** A change of the staff: the list read again; a refusal is shown beside the form that made it and in a toast. */
function useStaffMutation<I, R>(mutationFn: (input: I) => Promise<R>) {
  const client = useQueryClient();
  return useMutation<R, ApiError, I>({
    mutationFn,
    onSuccess: () => invalidateReads(client, [staff.list]),
    onError: (error) => toastError(error),
  });
}

export const useCreateStaff = () => useStaffMutation((input: CreateStaffInput) => call(staff.create, { body: input }));

export const useUpdateStaff = () =>
  useStaffMutation(({ id, ...change }: UpdateStaffInput & { id: string }) => call(staff.update, { params: { id }, body: change }));

export const useResetStaffPassword = () => useStaffMutation((id: string) => call(staff.resetPassword, { params: { id }, body: {} }));
