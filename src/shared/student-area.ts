import { z } from 'zod';
import { rowId } from './validation.ts';

const int = () => z.number().int();

/**
 * GET /api/me/summary: the signed-in student's figures for the dashboard, profile
 * and Estelecas screens, all computed from the ledger and the current balances.
 */
export const studentSummary = z.object({
  meritus: int(),
  totalEarned: int(),
  estelecas: int(),
  rank: z.object({
    /** Competition ranking among current students by Méritus: ties share a position. */
    position: int(),
    total: int(),
    /** The position the student held with the balances as they stood CHANGE_WINDOW_DAYS ago. */
    positionBefore: int(),
  }),
  goal: z.object({ target: int(), percent: int(), remaining: int() }),
  /** What changed in the last CHANGE_WINDOW_DAYS days. */
  recent: z.object({
    /** Méritus in minus Méritus out (transfers and administrator operations). */
    meritusNet: int(),
    /** Méritus credited by teachers (add and reward): what raises the total earned. */
    earned: int(),
    estelecasNet: int(),
  }),
  estelecasStats: z.object({
    /** Everything that ever raised the balance: teachers' additions, rewards, transfers in. */
    received: int(),
    receivedRecent: int(),
    /** Sent to classmates. */
    sent: int(),
    /** Removed by teachers (removals and penalties). */
    deducted: int(),
    /** The highest balance ever held; achievements follow it. */
    peak: int(),
  }),
});
export type StudentSummary = z.infer<typeof studentSummary>;

/** PUT and DELETE /api/tags/:tagId/like */
export const tagLikeParams = z.object({ tagId: rowId({ error: 'tag_not_found' }) });
export const tagLikeState = z.object({ tagId: z.uuid(), likes: int(), likedByMe: z.boolean() });
export type TagLikeState = z.infer<typeof tagLikeState>;
