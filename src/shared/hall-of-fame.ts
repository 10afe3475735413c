import { z } from 'zod';
import { HONOUR_CATEGORIES } from './hall-of-fame-texts.ts';
import { shownStudent } from './students.ts';
import { rowId } from './validation.ts';

/** GET /api/hall-of-fame?year=: a closed year's id; without it, the most recent closed year. */
export const hallOfFameQuery = z.object({ year: rowId({ error: 'hall_of_fame_year_not_found' }).optional() });

/** GET /api/hall-of-fame/honours/:id/certificate.pdf */
export const honourParams = z.object({ id: rowId({ error: 'honour_not_found' }) });

/**
 * One honour as the viewer may see it: its shared place and figure; the student as the school's privacy rules show them
 * (null for a turma's honour), `self` when it is the viewer's own; `turma` is the turma honoured ('Destaque de cada
 * turma', 'Turma que mais atingiu metas'), as it was named at the closing; `certificate`: the viewer may download it.
 */
export const honour = z.object({
  id: z.uuid(),
  place: z.number().int(),
  amount: z.number().int(),
  turma: z.string().nullable(),
  student: shownStudent.nullable(),
  self: z.boolean(),
  erased: z.boolean(),
  certificate: z.boolean(),
});
export type Honour = z.infer<typeof honour>;

export const closedYear = z.object({ id: z.uuid(), name: z.string(), closedAt: z.string() });

export const hallOfFame = z.object({
  /** Every closed year, newest first. */
  years: z.array(closedYear),
  /** The year shown; null when no year has closed yet. */
  year: closedYear.extend({ startDate: z.string(), endDate: z.string() }).nullable(),
  categories: z.array(z.object({ category: z.enum(HONOUR_CATEGORIES), honours: z.array(honour) })),
});
export type HallOfFame = z.infer<typeof hallOfFame>;
