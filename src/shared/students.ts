import { z } from 'zod';
import { publicStudent } from './auth.ts';
import { STUDENT_PAGE_SIZE, TAG_KINDS } from './constants.ts';
import { textInput } from './validation.ts';

export const rankingResponse = z.array(publicStudent);

/**
 * A search among the current students, answered a page at a time (GET /api/students/directory and
 * /api/admin/students): `q` is the app's one student search (shared/student-match), applied by the server;
 * pages count from 1 in a stable order (name, then matrícula).
 */
export const studentSearchQuery = z.object({
  q: textInput({ max: 100, maxError: 'search_too_long' }).optional(),
  page: z.coerce
    .number({ error: 'invalid_page' })
    .int({ error: 'invalid_page' })
    .min(1, { error: 'invalid_page' })
    .max(100_000, {
      error: 'invalid_page',
    })
    .default(1),
  size: z.coerce
    .number({ error: 'invalid_page' })
    .int({ error: 'invalid_page' })
    .min(1, { error: 'invalid_page' })
    .max(STUDENT_PAGE_SIZE.max, { error: 'invalid_page' })
    .default(STUDENT_PAGE_SIZE.default),
});
export type StudentSearchQuery = z.input<typeof studentSearchQuery>;

/** A page of a student search: `total` counts every match, so a screen can say how many there are. */
export function studentPage<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });
}

/** A student's search for someone to send to: classmates' public fields, never their own row. */
export const directoryResponse = studentPage(publicStudent);
export type DirectoryPage = z.infer<typeof directoryResponse>;

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
