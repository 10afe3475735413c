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
import type { Route } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { useLiveStatus } from '../../lib/live-events.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { invalidateReads, queryKeyOf, readOf } from '../../lib/query-keys.ts';

const { adminStudents } = routes;
const studentsListKey = queryKeyOf(adminStudents.list);

/** Every current student; pushed 'students', 'tags' and 'ranking' events refresh it. */
export function useAdminStudents() {
  return useLiveQuery(readOf(adminStudents.list), POLL_MS.dashboard);
}

/**
 * After a write: the cache gets the answer at once; a refetch is asked for only while the
 * event stream is down (otherwise the server's pushed event triggers it, once).
 */
function useAfterWrite() {
  const client = useQueryClient();
  const live = useLiveStatus();
  return (change: (list: AdminStudent[]) => AdminStudent[], alsoStale: readonly Route[] = []) => {
    client.setQueryData<AdminStudent[]>(studentsListKey, (list) => (list ? change(list) : list));
    if (live) return;
    invalidateReads(client, [adminStudents.list, ...alsoStale]);
  };
}

/** Puts a changed student into the cached list at once, so the screen does not wait for the refetch. */
function useReplaceInList() {
  const afterWrite = useAfterWrite();
  return (student: AdminStudent) =>
    afterWrite(
      (list) =>
        list.some((item) => item.id === student.id) ? list.map((item) => (item.id === student.id ? student : item)) : [...list, student],
      [routes.students.ranking],
    );
}

export function useCreateStudent() {
  const replace = useReplaceInList();
  return useMutation<StudentWriteResult, ApiError, CreateStudentInput>({
    mutationFn: (input) => call(adminStudents.create, { body: input }),
    onSuccess: (result) => replace(result.student),
  });
}

export function useUpdateStudent() {
  const replace = useReplaceInList();
  return useMutation<StudentWriteResult, ApiError, { id: string; input: UpdateStudentInput }>({
    mutationFn: ({ id, input }) => call(adminStudents.update, { params: { id }, body: input }),
    onSuccess: (result) => replace(result.student),
  });
}

export function useDeleteStudent() {
  const afterWrite = useAfterWrite();
  return useMutation<MessageResult, ApiError, AdminStudent>({
    mutationFn: (student) => call(adminStudents.remove, { params: { id: student.id } }),
    onSuccess: (_, student) => afterWrite((list) => list.filter((item) => item.id !== student.id), [routes.students.ranking]),
  });
}

export function useResetPassword() {
  return useMutation<PasswordResetResult, ApiError, AdminStudent>({
    mutationFn: (student) => call(adminStudents.resetPassword, { params: { id: student.id } }),
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
        return call(adminStudents.uploadPhoto, { params: { id }, body: form });
      }
      if (change.kind === 'url') return call(adminStudents.setPhotoUrl, { params: { id }, body: { url: change.url } });
      return call(adminStudents.removePhoto, { params: { id } });
    },
    onSuccess: (result) => replace(result.student),
  });
}

export function useTagToggle() {
  const afterWrite = useAfterWrite();
  return useMutation<TagChangeResult, ApiError, { student: AdminStudent; kind: TagKind; add: boolean; days: number }>({
    mutationFn: ({ student, kind, add, days }) =>
      add
        ? call(routes.tags.give, { params: { id: student.id, kind }, body: { days } })
        : call(routes.tags.take, { params: { id: student.id, kind } }),
    onSuccess: (result, { student }) =>
      afterWrite((list) => list.map((item) => (item.id === student.id ? { ...item, tags: result.tags } : item)), [routes.tags.active]),
  });
}

function csvForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file);
  return form;
}

export function useImportPreview() {
  return useMutation<ImportPreview, ApiError, File>({
    mutationFn: (file) => call(adminStudents.importPreview, { body: csvForm(file) }),
  });
}

export function useImportStudents() {
  const client = useQueryClient();
  const live = useLiveStatus();
  return useMutation<ImportResult, ApiError, File>({
    mutationFn: (file) => call(adminStudents.import, { body: csvForm(file) }),
    onSuccess: () => {
      if (live) return;
      invalidateReads(client, [adminStudents.list, routes.students.ranking]);
    },
  });
}
