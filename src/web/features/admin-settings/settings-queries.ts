import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type ApiError } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';
import {
  adminAccount,
  adminTurma,
  adminWriteResult,
  schoolSettings,
  turma,
  type AdminWriteResult,
  type SchoolInfoInput,
  type SchoolRules,
  type SchoolSettings,
} from '../../../shared/settings.ts';

const turmasKey = [...queryKeys.settings, 'turmas'] as const;
const adminsKey = [...queryKeys.settings, 'admins'] as const;
const turmaWriteResult = z.object({ message: z.string(), turma });
const messageResult = z.object({ message: z.string() });

export function useAdminTurmas() {
  return useQuery({ queryKey: turmasKey, queryFn: () => api.get('/admin/turmas', { schema: z.array(adminTurma) }) });
}

export function useAdminAccounts() {
  return useQuery({ queryKey: adminsKey, queryFn: () => api.get('/admin/admins', { schema: z.array(adminAccount) }) });
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
  useSettingsMutation((input: SchoolInfoInput) => api.put<SchoolSettings>('/admin/settings/school', input, { schema: schoolSettings }), () => 'Dados da escola salvos');

export const useSaveRules = () =>
  useSettingsMutation((input: SchoolRules) => api.put<SchoolSettings>('/admin/settings/rules', input, { schema: schoolSettings }), () => 'Regras salvas');

export const useUploadLogo = () =>
  useSettingsMutation(
    (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.post<SchoolSettings>('/admin/settings/logo', form, { schema: schoolSettings });
    },
    () => 'Logo atualizado',
  );

export const useRemoveLogo = () => useSettingsMutation(() => api.delete<SchoolSettings>('/admin/settings/logo', { schema: schoolSettings }), () => 'Logo removido');

export const useCreateTurma = () =>
  useSettingsMutation((name: string) => api.post('/admin/turmas', { name }, { schema: turmaWriteResult }), (result) => result.message);

export const useUpdateTurma = () =>
  useSettingsMutation(
    ({ id, ...change }: { id: string; name?: string; retired?: boolean }) => api.patch(`/admin/turmas/${id}`, change, { schema: turmaWriteResult }),
    (result) => result.message,
  );

export const useCreateAdmin = () =>
  useSettingsMutation(
    (input: { name: string; email: string; password?: string }) => api.post<AdminWriteResult>('/admin/admins', input, { schema: adminWriteResult }),
    (result) => result.message,
  );

export const useResetAdminPassword = () =>
  useSettingsMutation(
    ({ id, password }: { id: string; password?: string }) =>
      api.post<AdminWriteResult>(`/admin/admins/${id}/password`, password ? { password } : {}, { schema: adminWriteResult }),
    (result) => result.message,
  );

export const useRemoveAdmin = () => useSettingsMutation((id: string) => api.delete(`/admin/admins/${id}`, { schema: messageResult }), (result) => result.message);
