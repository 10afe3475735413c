import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActiveTag } from '../../../shared/students.ts';
import type { TagLikeState } from '../../../shared/student-area.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { toastError } from '../../lib/toast.ts';

type Toggle = { tagId: string; like: boolean };

function patchTag(tags: ActiveTag[] | undefined, tagId: string, change: (tag: ActiveTag) => ActiveTag): ActiveTag[] | undefined {
  return tags?.map((tag) => (tag.id === tagId ? change(tag) : tag));
}

/**
 * Likes or unlikes a weekly tag on the server. The heart changes at once; the server's
 * answer then sets the real count, and a failure puts the previous state back.
 */
export function useToggleTagLike() {
  const client = useQueryClient();
  return useMutation<TagLikeState, ApiError, Toggle, { previous: ActiveTag[] | undefined }>({
    mutationFn: ({ tagId, like }) =>
      like
        ? api.put<TagLikeState>(`/tags/${tagId}/like`)
        : api.delete<TagLikeState>(`/tags/${tagId}/like`),
    onMutate: async ({ tagId, like }) => {
      await client.cancelQueries({ queryKey: queryKeys.tags });
      const previous = client.getQueryData<ActiveTag[]>(queryKeys.tags);
      client.setQueryData<ActiveTag[]>(queryKeys.tags, (tags) =>
        patchTag(tags, tagId, (tag) => (tag.likedByMe === like ? tag : { ...tag, likedByMe: like, likes: Math.max(0, tag.likes + (like ? 1 : -1)) })),
      );
      return { previous };
    },
    onSuccess: (state) => {
      client.setQueryData<ActiveTag[]>(queryKeys.tags, (tags) => patchTag(tags, state.tagId, (tag) => ({ ...tag, likes: state.likes, likedByMe: state.likedByMe })));
    },
    onError: (error, _toggle, context) => {
      client.setQueryData(queryKeys.tags, context?.previous);
      toastError(error);
      if (error.code === 'tag_not_found') void client.invalidateQueries({ queryKey: queryKeys.tags });
    },
  });
}
