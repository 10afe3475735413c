import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminStudent,
  CreateStudentInput,
  ImportPreview,
  ImportResult,
  PasswordResetResult,
  StudentWriteResult,
  TagChangeResult,
  UpdateStudentInput,
} from '../../../shared/admin-students.ts';
import type { MessageResult } from '../../../shared/responses.ts';
import { POLL_MS, type TagKind } from '../../../shared/constants.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { useLiveStatus } from '../../lib/live-events.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const studentsListKey = [...queryKeys.adminStudents, 'list'] as const;

/** Every current student; pushed 'students', 'tags' and 'ranking' events refresh it. */
export function useAdminStudents() {
  return useLiveQuery(studentsListKey, () => api.get<AdminStudent[]>('/admin/students'), POLL_MS.dashboard);
}

/**
 * After a write: the cache gets the answer at once; a refetch is asked for only while the
 * event stream is down (otherwise the server's pushed event triggers it, once).
 */
function useAfterWrite() {
  const client = useQueryClient();
  const live = useLiveStatus();
  return (change: (list: AdminStudent[]) => AdminStudent[], alsoStale: readonly (readonly string[])[] = []) => {
    client.setQueryData<AdminStudent[]>(studentsListKey, (list) => (list ? change(list) : list));
    if (live) return;
    for (const queryKey of [queryKeys.adminStudents, ...alsoStale]) void client.invalidateQueries({ queryKey });
  };
}

/** Puts a changed student into the cached list at once, so the screen does not wait for the refetch. */
function useReplaceInList() {
  const afterWrite = useAfterWrite();
  return (student: AdminStudent) =>
    afterWrite(
      (list) => (list.some((item) => item.id === student.id) ? list.map((item) => (item.id === student.id ? student : item)) : [...list, student]),
      [queryKeys.ranking],
    );
}

export function useCreateStudent() {
  const replace = useReplaceInList();
  return useMutation<StudentWriteResult, ApiError, CreateStudentInput>({
    mutationFn: (input) => api.post<StudentWriteResult>('/admin/students', input),
    onSuccess: (result) => replace(result.student),
  });
}

export function useUpdateStudent() {
  const replace = useReplaceInList();
  return useMutation<StudentWriteResult, ApiError, { id: string; input: UpdateStudentInput }>({
    mutationFn: ({ id, input }) => api.patch<StudentWriteResult>(`/admin/students/${id}`, input),
    onSuccess: (result) => replace(result.student),
  });
}

export function useDeleteStudent() {
  const afterWrite = useAfterWrite();
  return useMutation<MessageResult, ApiError, AdminStudent>({
    mutationFn: (student) => api.delete<MessageResult>(`/admin/students/${student.id}`),
    onSuccess: (_, student) => afterWrite((list) => list.filter((item) => item.id !== student.id), [queryKeys.ranking]),
  });
}

export function useResetPassword() {
  return useMutation<PasswordResetResult, ApiError, AdminStudent>({
    mutationFn: (student) => api.post<PasswordResetResult>(`/admin/students/${student.id}/password`),
  });
}

export type PhotoChange = { kind: 'upload'; file: File } | { kind: 'url'; url: string } | { kind: 'remove' };

/** Uploads a file, points to a URL, or removes the photo. */
export function usePhotoChange() {
  const replace = useReplaceInList();
  return useMutation<StudentWriteResult, ApiError, { id: string; change: PhotoChange }>({
    mutationFn: ({ id, change }) => {
      if (change.kind === 'upload') {
        const form = new FormData();
        form.append('file', change.file);
        return api.post<StudentWriteResult>(`/admin/students/${id}/photo`, form);
      }
      if (change.kind === 'url') return api.put<StudentWriteResult>(`/admin/students/${id}/photo`, { url: change.url });
      return api.delete<StudentWriteResult>(`/admin/students/${id}/photo`);
    },
    onSuccess: (result) => replace(result.student),
  });
}

export function useTagToggle() {
  const afterWrite = useAfterWrite();
  return useMutation<TagChangeResult, ApiError, { student: AdminStudent; kind: TagKind; add: boolean; days: number }>({
    mutationFn: ({ student, kind, add, days }) =>
      add
        ? api.put<TagChangeResult>(`/admin/students/${student.id}/tags/${kind}`, { days })
        : api.delete<TagChangeResult>(`/admin/students/${student.id}/tags/${kind}`),
    onSuccess: (result, { student }) =>
      afterWrite((list) => list.map((item) => (item.id === student.id ? { ...item, tags: result.tags } : item)), [queryKeys.tags]),
  });
}

function csvForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file);
  return form;
}

export function useImportPreview() {
  return useMutation<ImportPreview, ApiError, File>({
    mutationFn: (file) => api.post<ImportPreview>('/admin/students/import/preview', csvForm(file)),
  });
}

export function useImportStudents() {
  const client = useQueryClient();
  const live = useLiveStatus();
  return useMutation<ImportResult, ApiError, File>({
    mutationFn: (file) => api.post<ImportResult>('/admin/students/import', csvForm(file)),
    onSuccess: () => {
      if (live) return;
      void client.invalidateQueries({ queryKey: queryKeys.adminStudents });
      void client.invalidateQueries({ queryKey: queryKeys.ranking });
    },
  });
}
