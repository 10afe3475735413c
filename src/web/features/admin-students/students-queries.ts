import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  adminStudentsResponse,
  importPreview,
  importResult,
  messageResult,
  passwordResetResult,
  studentWriteResult,
  tagChangeResult,
  type AdminStudent,
  type CreateStudentInput,
  type ImportPreview,
  type ImportResult,
  type PasswordResetResult,
  type StudentWriteResult,
  type TagChangeResult,
  type UpdateStudentInput,
} from '../../../shared/admin-students.ts';
import { POLL_MS, type TagKind } from '../../../shared/constants.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { useLiveStatus } from '../../lib/live-events.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const studentsListKey = [...queryKeys.adminStudents, 'list'] as const;

/** Every current student; pushed 'students', 'tags' and 'ranking' events refresh it. */
export function useAdminStudents() {
  return useLiveQuery(studentsListKey, () => api.get('/admin/students', { schema: adminStudentsResponse }), POLL_MS.dashboard);
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
    mutationFn: (input) => api.post('/admin/students', input, { schema: studentWriteResult }),
    onSuccess: (result) => replace(result.student),
  });
}

export function useUpdateStudent() {
  const replace = useReplaceInList();
  return useMutation<StudentWriteResult, ApiError, { id: string; input: UpdateStudentInput }>({
    mutationFn: ({ id, input }) => api.patch(`/admin/students/${id}`, input, { schema: studentWriteResult }),
    onSuccess: (result) => replace(result.student),
  });
}

export function useDeleteStudent() {
  const afterWrite = useAfterWrite();
  return useMutation<{ message: string }, ApiError, AdminStudent>({
    mutationFn: (student) => api.delete(`/admin/students/${student.id}`, { schema: messageResult }),
    onSuccess: (_, student) => afterWrite((list) => list.filter((item) => item.id !== student.id), [queryKeys.ranking]),
  });
}

export function useResetPassword() {
  return useMutation<PasswordResetResult, ApiError, AdminStudent>({
    mutationFn: (student) => api.post(`/admin/students/${student.id}/password`, undefined, { schema: passwordResetResult }),
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
        return api.post(`/admin/students/${id}/photo`, form, { schema: studentWriteResult });
      }
      if (change.kind === 'url') return api.put(`/admin/students/${id}/photo`, { url: change.url }, { schema: studentWriteResult });
      return api.delete(`/admin/students/${id}/photo`, { schema: studentWriteResult });
    },
    onSuccess: (result) => replace(result.student),
  });
}

export function useTagToggle() {
  const afterWrite = useAfterWrite();
  return useMutation<TagChangeResult, ApiError, { student: AdminStudent; kind: TagKind; add: boolean; days: number }>({
    mutationFn: ({ student, kind, add, days }) =>
      add
        ? api.put(`/admin/students/${student.id}/tags/${kind}`, { days }, { schema: tagChangeResult })
        : api.delete(`/admin/students/${student.id}/tags/${kind}`, { schema: tagChangeResult }),
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
    mutationFn: (file) => api.post('/admin/students/import/preview', csvForm(file), { schema: importPreview }),
  });
}

export function useImportStudents() {
  const client = useQueryClient();
  const live = useLiveStatus();
  return useMutation<ImportResult, ApiError, File>({
    mutationFn: (file) => api.post('/admin/students/import', csvForm(file), { schema: importResult }),
    onSuccess: () => {
      if (live) return;
      void client.invalidateQueries({ queryKey: queryKeys.adminStudents });
      void client.invalidateQueries({ queryKey: queryKeys.ranking });
    },
  });
}
