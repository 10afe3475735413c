import { keepPreviousData, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type {
  AdminStudent,
  AdminStudentsPage,
  CreateStudentInput,
  ImportPreview,
  ImportResult,
  ImportTurmaChoice,
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
import { useFallbackInterval } from '../../lib/live-query.ts';
import { invalidateReads, readOf, routeKey } from '../../lib/query-keys.ts';
import { PAGE_SIZE } from './students-filter.ts';

const { adminStudents } = routes;

/**
 * A page of the search (the search and the turma go to the server, a page of PAGE_SIZE at a time); the last page stays
 * on screen until the next arrives. Pushed 'students', 'tags' and 'ranking' events refresh it.
 */
export function useAdminStudents(query: { q: string; turma: string; page: number }) {
  const read = readOf(adminStudents.list, {
    query: { q: query.q || undefined, turma: query.turma || undefined, page: query.page, size: PAGE_SIZE },
  });
  return useQuery({ ...read, placeholderData: keepPreviousData, refetchInterval: useFallbackInterval(POLL_MS.dashboard) });
}

type Listed = AdminStudentsPage | InfiniteData<AdminStudentsPage>;

/** Changes the students of a cached answer of the list: a page of the screen, or the pages of a picker's search. */
function changeListed(listed: Listed, change: (items: AdminStudent[]) => AdminStudent[]): Listed {
  if ('pages' in listed) return { ...listed, pages: listed.pages.map((page) => ({ ...page, items: change(page.items) })) };
  return { ...listed, items: change(listed.items) };
}

/**
 * After a write: every cached page of the list gets the answer at once; a refetch is asked for only while the event
 * stream is down (otherwise the server's pushed event triggers it, once), and it places a new student where the
 * search and order put them.
 */
function useAfterWrite() {
  const client = useQueryClient();
  const live = useLiveStatus();
  return (change: (items: AdminStudent[]) => AdminStudent[], alsoStale: readonly Route[] = []) => {
    client.setQueriesData<Listed>({ queryKey: routeKey(adminStudents.list) }, (listed) => (listed ? changeListed(listed, change) : listed));
    if (live) return;
    invalidateReads(client, [adminStudents.list, ...alsoStale]);
  };
}

/** Puts a changed student into the cached pages at once, so the screen does not wait for the refetch. */
function useReplaceInList() {
  const afterWrite = useAfterWrite();
  return (student: AdminStudent) =>
    afterWrite((items) => items.map((item) => (item.id === student.id ? student : item)), [routes.students.ranking]);
}

export function useCreateStudent() {
  const afterWrite = useAfterWrite();
  return useMutation<StudentWriteResult, ApiError, CreateStudentInput>({
    mutationFn: (input) => call(adminStudents.create, { body: input }),
    // Where the new student falls depends on the search and the order: the refetch places them.
    onSuccess: () => afterWrite((items) => items, [routes.students.ranking]),
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

/** What the import sends: the file, and before it the turma suggestions the coordinator confirmed (the server reads fields sent first). */
export type ImportUpload = { file: File; turmas: ImportTurmaChoice[] };

function importForm({ file, turmas }: ImportUpload): FormData {
  const form = new FormData();
  if (turmas.length > 0) form.append('turmas', JSON.stringify(turmas));
  form.append('file', file);
  return form;
}

export function useImportPreview() {
  return useMutation<ImportPreview, ApiError, ImportUpload>({
    mutationFn: (upload) => call(adminStudents.importPreview, { body: importForm(upload) }),
  });
}

export function useImportStudents() {
  const client = useQueryClient();
  const live = useLiveStatus();
  return useMutation<ImportResult, ApiError, ImportUpload>({
    mutationFn: (upload) => call(adminStudents.import, { body: importForm(upload) }),
    onSuccess: () => {
      if (live) return;
      invalidateReads(client, [adminStudents.list, routes.students.ranking]);
    },
  });
}
