import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { isApiError } from '../../lib/api.ts';
import {
  ARCHIVE_TEXTS,
  ARCHIVE_UPLOAD_FILE_FIELD,
  type ArchiveAccessLevel,
  type ArchiveBulkInput,
  type ArchiveCategory,
  type ArchiveEditInput,
  type ArchiveItem,
  type ArchiveListQuery,
  type ArchivePage,
  type ArchiveSort,
  type ArchiveUploadResult,
  type SortOrder,
} from '../../../shared/archive.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { invalidateReads, queryKeyOf, readOf, routeKey } from '../../lib/query-keys.ts';
import { sendForm, type UploadProgress } from './upload-request.ts';

/** What the screen filters and sorts by; every field goes to the server as the list's query. */
export type ArchiveFilters = {
  q: string;
  featured: boolean;
  publicOnly: boolean;
  category: ArchiveCategory | '';
  uploader: string;
  accessLevel: ArchiveAccessLevel | '';
  sort: ArchiveSort;
  order: SortOrder;
};

/** The {reason} of the archive's 'Erro ao atualizar: {reason}' and 'Erro ao excluir: {reason}': the server's own words, 'Erro desconhecido' without any. */
export function failureReason(error: unknown): string {
  return isApiError(error) ? error.message : ARCHIVE_TEXTS.unknownError;
}

export const NO_FILTERS: ArchiveFilters = {
  q: '',
  featured: false,
  publicOnly: false,
  category: '',
  uploader: '',
  accessLevel: '',
  sort: 'date',
  order: 'desc',
};

const { archive } = routes;
const imagesKey = routeKey(archive.list);
const summaryKey = routeKey(archive.summary);

/** The list's query for the screen's filters; an empty or unset filter is not sent. */
function listQuery(filters: ArchiveFilters): ArchiveListQuery {
  return {
    q: filters.q.trim(),
    featured: filters.featured ? 'true' : undefined,
    public: filters.publicOnly ? 'true' : undefined,
    category: filters.category || undefined,
    uploader: filters.uploader,
    accessLevel: filters.accessLevel || undefined,
    sort: filters.sort,
    order: filters.order,
  };
}

/** The matching images, a page at a time (the server filters, sorts and pages). */
export function useArchiveImages(filters: ArchiveFilters) {
  const query = listQuery(filters);
  return useInfiniteQuery({
    queryKey: queryKeyOf(archive.list, { query }),
    queryFn: ({ pageParam, signal }) => call(archive.list, { query: { ...query, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  });
}

/** The seven tiles and the filter counts, over the whole archive. */
export function useArchiveSummary() {
  return useQuery(readOf(archive.summary));
}

/** Re-reads the list and the tiles after a change. */
export function useRefreshArchive() {
  const client = useQueryClient();
  return () => invalidateReads(client, [archive.list, archive.summary]);
}

/**
 * Changes one record in every cached page at once (the spec: "the local list updates immediately"). A read of the
 * list already under way (a live event's refetch, say) may have been answered before the change and would put the
 * old record back when it lands: it is dropped and sent again.
 */
function usePatchCached() {
  const client = useQueryClient();
  return (id: string, patch: Partial<ArchiveItem>) => {
    client.setQueriesData<InfiniteData<ArchivePage>>({ queryKey: imagesKey }, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.map((item) => (item.id === id ? { ...item, ...patch } : item)),
            })),
          }
        : data,
    );
    if (client.isFetching({ queryKey: imagesKey }) > 0) void client.invalidateQueries({ queryKey: imagesKey });
  };
}

export function useEditImage() {
  const refresh = useRefreshArchive();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ArchiveEditInput }) => call(archive.edit, { params: { id }, body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteImage() {
  const refresh = useRefreshArchive();
  return useMutation({
    mutationFn: (item: ArchiveItem) => call(archive.remove, { params: { id: item.id } }),
    onSuccess: refresh,
  });
}

export function useBulkAction() {
  const refresh = useRefreshArchive();
  return useMutation({
    mutationFn: (input: ArchiveBulkInput) => call(archive.bulk, { body: input }),
    onSuccess: refresh,
  });
}

export function useFavourite() {
  const patch = usePatchCached();
  return useMutation({
    mutationFn: (item: ArchiveItem) => call(archive.favourite, { params: { id: item.id }, body: { favourite: !item.isFavourite } }),
    onSuccess: (result, item) => patch(item.id, { isFavourite: result.favourite }),
  });
}

/** Counts a use of the image (copy link); the card shows the new count at once. */
export function useCopyLink() {
  const patch = usePatchCached();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (item: ArchiveItem) => call(archive.copyLink, { params: { id: item.id } }),
    onSuccess: (counters, item) => {
      patch(item.id, counters);
      void client.invalidateQueries({ queryKey: summaryKey });
    },
  });
}

export function useShareLink() {
  const patch = usePatchCached();
  return useMutation<{ shareUrl: string | null; message: string }, ApiError, { item: ArchiveItem; revoke: boolean }>({
    mutationFn: async ({ item, revoke }) =>
      revoke
        ? { shareUrl: null, ...(await call(archive.unshare, { params: { id: item.id } })) }
        : call(archive.share, { params: { id: item.id } }),
    onSuccess: ({ shareUrl }, { item }) => patch(item.id, { shareUrl }),
  });
}

/** The form's fields as the upload sends them (the same for every file). */
export type UploadFields = {
  description: string;
  tags: string;
  category: ArchiveCategory;
  accessLevel: ArchiveAccessLevel;
  isFeatured: boolean;
  albumName: string;
};

/** One file in one request, so each file has its own progress from the real transfer. */
export function uploadOne(file: File, fields: UploadFields, onProgress: (progress: UploadProgress) => void): Promise<ArchiveUploadResult> {
  const form = new FormData();
  form.append('description', fields.description);
  form.append('tags', fields.tags);
  form.append('category', fields.category);
  form.append('accessLevel', fields.accessLevel);
  form.append('isFeatured', String(fields.isFeatured));
  form.append('albumName', fields.albumName);
  form.append(ARCHIVE_UPLOAD_FILE_FIELD, file, file.name);
  return sendForm(archive.upload, form, onProgress);
}

/**
 * Starts the browser's download from the file's download address (the server counts it and
 * names the file); the card's count rises at once.
 */
export function useDownload() {
  const patch = usePatchCached();
  const client = useQueryClient();
  return (item: ArchiveItem) => {
    const link = document.createElement('a');
    link.href = item.downloadUrl;
    link.download = item.fileName;
    document.body.append(link);
    link.click();
    link.remove();
    patch(item.id, { downloadCount: item.downloadCount + 1 });
    void client.invalidateQueries({ queryKey: summaryKey });
  };
}
