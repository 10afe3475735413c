import { z } from 'zod';
import { publicStudent } from './auth.ts';
import { TAG_KINDS } from './constants.ts';

export const rankingResponse = z.array(publicStudent);
export const directoryResponse = z.array(publicStudent);

/** One active weekly tag with its holder, as the dashboards list them. */
export const activeTag = z.object({
  id: z.uuid(),
  kind: z.enum(TAG_KINDS),
  assignedAt: z.string(),
  expiresAt: z.string(),
  student: z.object({ id: z.uuid(), studentId: z.string(), name: z.string(), grade: z.string(), photo: z.string().nullable() }),
  likes: z.number().int(),
  likedByMe: z.boolean(),
});
export type ActiveTag = z.infer<typeof activeTag>;
export const activeTagsResponse = z.array(activeTag);
