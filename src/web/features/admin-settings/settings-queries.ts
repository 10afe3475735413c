import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../shared/contract/routes.ts';
import type { SchoolInfoInput, SchoolRules } from '../../../shared/settings.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';

const { settings } = routes;

export function useAdminTurmas() {
  return useQuery(readOf(settings.turmas));
}

/** A change of the settings: the toast, then the settings and the screen's lists read again (the other screens hear the server's event). */
function useSettingsMutation<I, R>(mutationFn: (input: I) => Promise<R>, success: (result: R) => string | null) {
  const client = useQueryClient();
  return useMutation<R, ApiError, I>({
    mutationFn,
    onSuccess: (result) => {
      const message = success(result);
      if (message) toast.success(message);
      invalidateReads(client, [settings.read, settings.turmas]);
    },
    onError: (error) => toastError(error),
  });
}

export const useSaveSchool = () =>
  useSettingsMutation(
    (input: SchoolInfoInput) => call(settings.saveSchool, { body: input }),
    () => 'Dados da escola salvos',
  );

export const useSaveRules = () =>
  useSettingsMutation(
    (input: SchoolRules) => call(settings.saveRules, { body: input }),
    () => 'Regras salvas',
  );

export const useUploadLogo = () =>
  useSettingsMutation(
    (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return call(settings.uploadLogo, { body: form });
    },
    () => 'Logo atualizado',
  );

export const useRemoveLogo = () =>
  useSettingsMutation(
    () => call(settings.removeLogo),
    () => 'Logo removido',
  );

export const useCreateTurma = () =>
  useSettingsMutation(
    (name: string) => call(settings.createTurma, { body: { name } }),
    (result) => result.message,
  );

export const useUpdateTurma = () =>
  useSettingsMutation(
    ({ id, ...change }: { id: string; name?: string; retired?: boolean }) => call(settings.updateTurma, { params: { id }, body: change }),
    (result) => result.message,
  );

export const useDeleteTurma = () =>
  useSettingsMutation(
    (turma: { id: string; name: string }) => call(settings.deleteTurma, { params: { id: turma.id } }),
    (result) => result.message,
  );
