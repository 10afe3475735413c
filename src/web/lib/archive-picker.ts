import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { ARCHIVE_PAGE_SIZE, ARCHIVE_PICKER_LIMIT, type ArchiveListQuery, type ArchiveSelectResult } from '../../shared/archive.ts';
import { routes } from '../../shared/contract/routes.ts';
import { call, type ApiError } from './api.ts';
import { invalidateReads, queryKeyOf } from './query-keys.ts';

/** The tabs of 'Selecionar Imagem para Cadastro' (spec: profile = category perfil or any image; banner; any). */
export type PickerTab = 'profile' | 'banner' | 'all';

const TAB_QUERY: Record<PickerTab, Partial<ArchiveListQuery>> = {
  profile: { kind: 'image' },
  banner: { category: 'banner' },
  all: {},
};

/**
 * The images a tab offers, newest first, a page at a time up to the spec's 1,000; only active
 * ones, since an inactive image cannot be anyone's photo.
 */
export function usePickerImages(tab: PickerTab, search: string) {
  const query: ArchiveListQuery = {
    ...TAB_QUERY[tab],
    q: search.trim(),
    active: 'true',
    sort: 'date',
    order: 'desc',
    limit: ARCHIVE_PAGE_SIZE.max,
  };
  return useInfiniteQuery({
    queryKey: queryKeyOf(routes.archive.list, { query }),
    queryFn: ({ pageParam, signal }) => call(routes.archive.list, { query: { ...query, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return last.nextCursor && loaded < ARCHIVE_PICKER_LIMIT ? last.nextCursor : undefined;
    },
  });
}

/**
 * 'Selecionar Imagem para Cadastro': counts a use of the image and answers the address to store
 * as a photo; with `studentId` the server sets that student's photo at once.
 */
export function useSelectArchiveImage() {
  const client = useQueryClient();
  return useMutation<ArchiveSelectResult, ApiError, { imageId: string; studentId?: string }>({
    mutationFn: ({ imageId, studentId }) => call(routes.archive.select, { params: { id: imageId }, body: studentId ? { studentId } : {} }),
    onSuccess: (_, { studentId }) => {
      invalidateReads(client, [routes.archive.list, routes.archive.summary]);
      if (studentId) invalidateReads(client, [routes.adminStudents.list]);
    },
  });
}
