import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActiveTag } from '../../../shared/students.ts';
import type { TagLikeState } from '../../../shared/student-area.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { queryKeyOf } from '../../lib/query-keys.ts';
import { toastError } from '../../lib/toast.ts';

type Toggle = { tagId: string; like: boolean };

const tagsKey = queryKeyOf(routes.tags.active);

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
    mutationFn: ({ tagId, like }) => call(like ? routes.tags.like : routes.tags.unlike, { params: { tagId } }),
    onMutate: async ({ tagId, like }) => {
      await client.cancelQueries({ queryKey: tagsKey });
      const previous = client.getQueryData<ActiveTag[]>(tagsKey);
      client.setQueryData<ActiveTag[]>(tagsKey, (tags) =>
        patchTag(tags, tagId, (tag) =>
          tag.likedByMe === like ? tag : { ...tag, likedByMe: like, likes: Math.max(0, tag.likes + (like ? 1 : -1)) },
        ),
      );
      return { previous };
    },
    onSuccess: (state) => {
      client.setQueryData<ActiveTag[]>(tagsKey, (tags) =>
        patchTag(tags, state.tagId, (tag) => ({ ...tag, likes: state.likes, likedByMe: state.likedByMe })),
      );
    },
    onError: (error, _toggle, context) => {
      client.setQueryData(tagsKey, context?.previous);
      toastError(error);
      if (error.code === 'tag_not_found') void client.invalidateQueries({ queryKey: tagsKey });
    },
  });
}
