import { z } from 'zod';
import { CURRENCIES } from './ledger-types.ts';
import { rowId } from './validation.ts';

const int = () => z.number().int();

/**
 * The Loja's item a student chose as their goal (issue 35): the dashboard's goal card follows it ('Meta: Fone de ouvido —
 * 62%') in place of the school's Méritus goal. Null when none is chosen, or the item was deactivated since.
 */
export const studentStoreGoal = z.object({ itemId: z.uuid(), name: z.string(), price: int(), currency: z.enum(CURRENCIES) }).nullable();
export type StudentStoreGoal = z.infer<typeof studentStoreGoal>;

/** PUT /api/me/store-goal: an item of the Loja with a price, or null to go back to the school's goal. */
export const storeGoalInput = z.object({ itemId: rowId({ error: 'store_item_not_found' }).nullable() }, { error: 'validation' });
export type StoreGoalInput = z.input<typeof storeGoalInput>;
export const storeGoalAnswer = z.object({ storeGoal: studentStoreGoal });

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
  storeGoal: studentStoreGoal,
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
