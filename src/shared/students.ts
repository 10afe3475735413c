import { z } from 'zod';
import { RANKING_PAGE, STUDENT_PAGE_SIZE, TAG_KINDS } from './constants.ts';
import { rowId, textInput } from './validation.ts';
import { RANKING_NAME_MODES } from './ranking-privacy.ts';
import type { ErrorCode } from './errors.ts';
import { schoolPeriodFilter, schoolYearFilter } from './school-year.ts';

/** A whole number in a query string, refused with `error` (a code of the catalogue) outside min…max. */
const wholeNumber = (error: ErrorCode, min: number, max: number) =>
  z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });

/** What the ranking places students by: their balance today, or what they earned in a school year or period. */
export const RANKING_BY = ['balance', 'earned'] as const;
export type RankingBy = (typeof RANKING_BY)[number];

/**
 * GET /api/ranking: a page of the ranking (`page` from 0, `size` rows), or with `around=me` the page that holds the
 * asking student's row. Leaving both out is page 0.
 */
export const rankingQuery = z
  .object({
    page: wholeNumber('ranking_page_invalid', 0, RANKING_PAGE.maxPage).optional(),
    size: wholeNumber('ranking_size_invalid', 1, RANKING_PAGE.maxSize).default(RANKING_PAGE.size),
    around: z.literal('me', { error: 'ranking_around_invalid' }).optional(),
    /** A turma's id: its students only, placed among themselves (a student: their own turma; a teacher: one of theirs). */
    turma: rowId({ error: 'turma_not_found' }).optional(),
    /** 'balance': Méritus held today; 'earned': Méritus earned in `year=`/`period=` (this bimestre when neither is given). */
    by: z.enum(RANKING_BY, { error: 'ranking_by_invalid' }).default('balance'),
    year: schoolYearFilter.optional(),
    period: schoolPeriodFilter.optional(),
  })
  .refine((query) => query.page === undefined || query.around === undefined, { error: 'ranking_around_invalid', path: ['around'] })
  .refine((query) => query.by === 'earned' || (query.year === undefined && query.period === undefined), {
    error: 'ranking_balance_now',
    path: ['by'],
  });
export type RankingQuery = z.input<typeof rankingQuery>;

/**
 * A student as another student may see them (decision 029): the school's mode for names decides what is left. Outside
 * 'Nome completo' and 'Só vizinhos', another student's row has no id, matrícula or photo (nothing that links it to
 * other views), a name of the mode ('Ana S.', 'Estudante 12'), and in 'Anônimo' no turma. Staff and the student
 * themself always see the whole row.
 */
export const shownStudent = z.object({
  id: z.uuid().nullable(),
  studentId: z.string().nullable(),
  name: z.string(),
  grade: z.string().nullable(),
  photo: z.string().nullable(),
});
export type ShownStudent = z.infer<typeof shownStudent>;

/**
 * A row of the ranking: what the screen shows of a student, and their competition position (ties share it). Another
 * student's Estelecas are left out with their identity (null) outside full names; `hidden` (staff only) marks a student
 * who chose 'Não aparecer no ranking' while the school allows it.
 */
export const rankingEntry = shownStudent.extend({
  meritus: z.number().int(),
  estelecas: z.number().int().nullable(),
  position: z.number().int(),
  hidden: z.boolean().optional(),
});
export type RankingEntry = z.infer<typeof rankingEntry>;

export const rankingResponse = z.object({
  /** How the rows show other students: 'full' for staff, the school's mode for a student. */
  mode: z.enum(RANKING_NAME_MODES),
  /** Rows of this ranking (in 'Só vizinhos', the podium and the rows around the student's own). */
  total: z.number().int(),
  /** Students placed in it (the student's own position is among these). */
  ranked: z.number().int(),
  /** The first RANKING_PODIUM rows (fewer in a smaller school). */
  podium: z.array(rankingEntry),
  /** The asking student's row and its index (from 0) in the whole ranking; null for staff. */
  me: rankingEntry.extend({ index: z.number().int() }).nullable(),
  page: z.number().int(),
  size: z.number().int(),
  /** Rows page × size … page × size + size − 1; fewer on the last page, none past it. */
  entries: z.array(rankingEntry),
  /** by=earned: the span whose Méritus earned place the rows ('3º bimestre de 2026'); `meritus` of each row is what they earned. */
  span: z.object({ from: z.string(), to: z.string(), label: z.string() }).optional(),
  /** 'Só vizinhos': the row before which rows were left out (null: none), and whether rows below the last were. */
  neighbours: z.object({ gapAt: z.number().int().nullable(), moreBelow: z.boolean() }).optional(),
});
export type RankingAnswer = z.infer<typeof rankingResponse>;

/**
 * A search among the current students, answered a page at a time (GET /api/students/directory and
 * /api/admin/students): `q` is the app's one student search (shared/student-match), applied by the server;
 * pages count from 1 in a stable order (name, then matrícula).
 */
export const studentSearchQuery = z.object({
  q: textInput({ max: 100, maxError: 'search_too_long' }).optional(),
  page: wholeNumber('invalid_page', 1, 100_000).default(1),
  size: wholeNumber('invalid_page', 1, STUDENT_PAGE_SIZE.max).default(STUDENT_PAGE_SIZE.default),
});
export type StudentSearchQuery = z.input<typeof studentSearchQuery>;

/** A page of a student search: `total` counts every match, so a screen can say how many there are. */
export function studentPage<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });
}

/**
 * A student's search for someone to send to: classmates as the school's mode shows them (with their id, which the
 * transfer names), never their own row nor anyone's balances.
 */
export const recipient = shownStudent.extend({ id: z.uuid(), studentId: z.string() });
export type Recipient = z.infer<typeof recipient>;
export const directoryResponse = studentPage(recipient);
export type DirectoryPage = z.infer<typeof directoryResponse>;

/** One active weekly tag with its holder, as the dashboards list them. */
export const activeTag = z.object({
  id: z.uuid(),
  kind: z.enum(TAG_KINDS),
  assignedAt: z.string(),
  expiresAt: z.string(),
  /** The holder, as the school's mode shows them to the asker (shownStudent). */
  student: shownStudent,
  likes: z.number().int(),
  likedByMe: z.boolean(),
});
export type ActiveTag = z.infer<typeof activeTag>;
export const activeTagsResponse = z.array(activeTag);

/** PUT /api/me/ranking-visibility: 'Não aparecer no ranking' (Meu Perfil). */
export const rankingVisibilityInput = z.object({ hidden: z.boolean({ error: 'validation' }) });
export type RankingVisibilityInput = z.input<typeof rankingVisibilityInput>;
export const rankingVisibilityResult = z.object({ hidden: z.boolean(), message: z.string() });
export type RankingVisibilityResult = z.infer<typeof rankingVisibilityResult>;
