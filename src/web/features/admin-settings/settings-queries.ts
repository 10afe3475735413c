import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';
import type { MessageResult } from '../../../shared/responses.ts';
import type { AdminAccount, AdminTurma, AdminWriteResult, SchoolInfoInput, SchoolRules, SchoolSettings, TurmaWriteResult } from '../../../shared/settings.ts';

const turmasKey = [...queryKeys.settings, 'turmas'] as const;
const adminsKey = [...queryKeys.settings, 'admins'] as const;

export function useAdminTurmas() {
  return useQuery({ queryKey: turmasKey, queryFn: () => api.get<AdminTurma[]>('/admin/turmas') });
}

export function useAdminAccounts() {
  return useQuery({ queryKey: adminsKey, queryFn: () => api.get<AdminAccount[]>('/admin/admins') });
}

/** A change of the settings: the toast, then everything under the settings key read again (the other screens hear the server's event). */
function useSettingsMutation<I, R>(mutationFn: (input: I) => Promise<R>, success: (result: R) => string | null) {
  const client = useQueryClient();
  return useMutation<R, ApiError, I>({
    mutationFn,
    onSuccess: (result) => {
      const message = success(result);
      if (message) toast.success(message);
      void client.invalidateQueries({ queryKey: queryKeys.settings });
    },
    onError: (error) => toastError(error),
  });
}

export const useSaveSchool = () =>
  useSettingsMutation((input: SchoolInfoInput) => api.put<SchoolSettings>('/admin/settings/school', input), () => 'Dados da escola salvos');

export const useSaveRules = () =>
  useSettingsMutation((input: SchoolRules) => api.put<SchoolSettings>('/admin/settings/rules', input), () => 'Regras salvas');

export const useUploadLogo = () =>
  useSettingsMutation(
    (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.post<SchoolSettings>('/admin/settings/logo', form);
    },
    () => 'Logo atualizado',
  );

export const useRemoveLogo = () => useSettingsMutation(() => api.delete<SchoolSettings>('/admin/settings/logo'), () => 'Logo removido');

export const useCreateTurma = () =>
  useSettingsMutation((name: string) => api.post<TurmaWriteResult>('/admin/turmas', { name }), (result) => result.message);

export const useUpdateTurma = () =>
  useSettingsMutation(
    ({ id, ...change }: { id: string; name?: string; retired?: boolean }) => api.patch<TurmaWriteResult>(`/admin/turmas/${id}`, change),
    (result) => result.message,
  );

export const useCreateAdmin = () =>
  useSettingsMutation(
    (input: { name: string; email: string; password?: string }) => api.post<AdminWriteResult>('/admin/admins', input),
    (result) => result.message,
  );

export const useResetAdminPassword = () =>
  useSettingsMutation(
    ({ id, password }: { id: string; password?: string }) =>
      api.post<AdminWriteResult>(`/admin/admins/${id}/password`, password ? { password } : {}),
    (result) => result.message,
  );

export const useRemoveAdmin = () => useSettingsMutation((id: string) => api.delete<MessageResult>(`/admin/admins/${id}`), (result) => result.message);
