import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledgerEntries, students, turmas } from '../../db/schema.ts';
import type { BusEvent, DeliveredEvent, EventBus } from '../../realtime/event-bus.ts';
import { nameSortKey, photoAddress } from '../../views/student-views.ts';
import { CHANGE_WINDOW_DAYS } from '../../../shared/constants.ts';
import { competitionPositions } from '../../../shared/student-figures.ts';

/** A current student in the kept ranking: what its rows show, their position, and their 'Não aparecer no ranking'. */
export type RankedStudent = {
  id: string;
  studentId: string;
  name: string;
  grade: string;
  photo: string | null;
  meritus: number;
  estelecas: number;
  position: number;
  rankingHidden: boolean;
};

/** The ranking at one moment: rows by Méritus (highest first, ties by name), each student's index in them and turma. */
export type RankingSnapshot = {
  readonly rows: readonly RankedStudent[];
  indexOf(studentUuid: string): number | undefined;
  turmaOf(studentUuid: string): string | undefined;
  /** Whether other students may see the student's photo (the school recorded the image consent; decision 030). */
  photoShared(studentUuid: string): boolean;
  /** Where two students' names sort (the database's collation, as the rows' ties are broken). */
  compareNames(a: string, b: string): number;
  /** Something worked out from this moment's rows once for every reader of it (a filtered view), by key. */
  memo<T>(key: string, compute: () => T): T;
};

/**
 * The ranking of current students, kept by each server instance instead of read per request (issue 33). It is built
 * once, then follows the changes the instance hears: an operation's students are read again by their keys and moved to
 * their new place; a change of students (added, removed, renamed, moved to another turma, a new photo), an operation on
 * too many to name, or a resync after a lost connection rebuild it. The work is done on the next read, once for every
 * reader waiting, and a read waits for every change heard before it: a screen told of a change never reads the ranking
 * from before it.
 */
export type RankingStore = {
  current(): Promise<RankingSnapshot>;
  /**
   * Every student's Méritus balance as it stood CHANGE_WINDOW_DAYS before `now` (absent: 0, they did not exist yet).
   * An operation never changes a balance of the past, only time does: the figures are read again once they are
   * PAST_REFRESH_MS old, by one reader for all.
   */
  balancesBefore(now: Date): Promise<ReadonlyMap<string, number>>;
  /** A change committed (heard through the event bus) or being committed by this instance (see `hearingOwnChanges`). */
  hear(event: DeliveredEvent): void;
};

/** How long the balances of CHANGE_WINDOW_DAYS ago serve: the window slides by this much at most before they are read again. */
export const PAST_REFRESH_MS = 60_000;

/** More changed students than this in one go: reading the whole school once is cheaper than reading them by key. */
const PATCH_LIMIT = 200;
const DAY_MS = 86_400_000;

export function createRankingStore(db: Db, events: EventBus): RankingStore & { close(): void } {
  let rows: RankedStudent[] = [];
  let indexById = new Map<string, number>();
  /** Where each name sorts among all names (nameSortKey; names change only with a rebuild). */
  let nameOrder = new Map<string, number>();
  /** Each student's turma id (turmas change only with a rebuild, like names). */
  let turmaById = new Map<string, string>();
  /** The students with image consent (a change of it publishes 'students', which rebuilds, like names). */
  let consented = new Set<string>();
  const byMeritusThenName = (a: RankedStudent, b: RankedStudent) => b.meritus - a.meritus || nameOrder.get(a.id)! - nameOrder.get(b.id)!;
  let rebuild = true;
  let changed = new Set<string>();
  /** Changes heard and changes applied, counted: a read waits until what it found heard is applied. */
  let heard = 1;
  let applied = 0;
  let running: Promise<void> | null = null;

  let memos = new Map<string, unknown>();
  const settle = (next: RankedStudent[]) => {
    next.sort(byMeritusThenName);
    const positions = competitionPositions(next.map((row) => row.meritus));
    rows = next.map((row, index) => ({ ...row, position: positions[index]! }));
    indexById = new Map(rows.map((row, index) => [row.id, index]));
    memos = new Map();
  };

  const loadAll = async () => {
    const loaded = await db
      .select({
        id: students.id,
        studentId: students.studentId,
        name: students.name,
        grade: turmas.name,
        turmaId: students.turmaId,
        photoUrl: students.photoUrl,
        photoVersion: students.photoVersion,
        imageConsent: students.imageConsent,
        meritus: students.meritus,
        estelecas: students.estelecas,
        rankingHidden: students.rankingHidden,
        nameOrder: sql<number>`row_number() OVER (ORDER BY ${nameSortKey}, ${students.id})`.mapWith(Number),
      })
      .from(students)
      .innerJoin(turmas, eq(turmas.id, students.turmaId))
      .where(isNull(students.deletedAt));
    nameOrder = new Map(loaded.map((row) => [row.id, row.nameOrder]));
    turmaById = new Map(loaded.map((row) => [row.id, row.turmaId]));
    consented = new Set(loaded.filter((row) => row.imageConsent).map((row) => row.id));
    settle(
      loaded.map(({ photoUrl, photoVersion, imageConsent: _consent, nameOrder: _, turmaId: __, ...row }) => ({
        ...row,
        photo: photoAddress({ photoUrl, photoVersion }),
        position: 0,
      })),
    );
  };

  /** New balances of a few students; false when one of them is not in the ranking yet (or left it): rebuild then. */
  const patch = async (ids: string[]): Promise<boolean> => {
    const balances = await db
      .select({ id: students.id, meritus: students.meritus, estelecas: students.estelecas, rankingHidden: students.rankingHidden })
      .from(students)
      .where(and(inArray(students.id, ids), isNull(students.deletedAt)));
    if (balances.length !== ids.length || balances.some(({ id }) => !indexById.has(id))) return false;
    const next = [...rows];
    for (const { id, meritus, estelecas, rankingHidden } of balances) {
      const index = indexById.get(id)!;
      next[index] = { ...next[index]!, meritus, estelecas, rankingHidden };
    }
    settle(next);
    return true;
  };

  /** Applies what was heard until now; a read runs as many as it needs (at most two: one may be under way as it comes). */
  const step = async () => {
    try {
      const generation = heard;
      const ids = [...changed];
      const whole = rebuild || ids.length > PATCH_LIMIT;
      rebuild = false;
      changed = new Set();
      try {
        if (whole || !(ids.length === 0 || (await patch(ids)))) await loadAll();
      } catch (error) {
        // Nothing was applied: the next read tries again from the whole school.
        rebuild = true;
        throw error;
      }
      applied = generation;
    } finally {
      running = null;
    }
  };

  const hear = (event: DeliveredEvent) => {
    if (event.type === 'ledger' || event.type === 'ranking_visibility') {
      if (event.type === 'ledger' && event.status !== 'completed') return;
      if (event.studentUuids === 'all') rebuild = true;
      else for (const id of event.studentUuids) changed.add(id);
    } else if (event.type === 'students' || event.type === 'resync') rebuild = true;
    else return;
    heard += 1;
  };

  let past: { at: number; balances: Map<string, number> } | null = null;
  let pastLoading: Promise<Map<string, number>> | null = null;

  const unsubscribe = events.subscribe(hear);
  return {
    async balancesBefore(now) {
      const at = now.getTime();
      if (past && at >= past.at && at - past.at < PAST_REFRESH_MS) return past.balances;
      pastLoading ??= meritusBefore(db, new Date(at - CHANGE_WINDOW_DAYS * DAY_MS))
        .then((balances) => {
          past = { at, balances };
          return balances;
        })
        .finally(() => {
          pastLoading = null;
        });
      return pastLoading;
    },
    async current() {
      const target = heard;
      while (applied < target) {
        running ??= step();
        await running;
      }
      // Changes replace the rows and the index rather than edit them: the caller's answer is of one moment.
      const index = indexById;
      const turmaOf = turmaById;
      const kept = memos;
      const shared = consented;
      const names = nameOrder;
      return {
        rows,
        indexOf: (studentUuid) => index.get(studentUuid),
        turmaOf: (studentUuid) => turmaOf.get(studentUuid),
        photoShared: (studentUuid) => shared.has(studentUuid),
        compareNames: (a, b) => names.get(a)! - names.get(b)!,
        memo<T>(key: string, compute: () => T): T {
          if (!kept.has(key)) kept.set(key, compute());
          return kept.get(key) as T;
        },
      };
    },
    hear,
    close: unsubscribe,
  };
}

/**
 * Every student's Méritus balance as it stood at `since`: the stored balance minus the net of the ledger rows written
 * after it (stored balance = sum of its rows). A student whose rows all came later had 0.
 */
async function meritusBefore(db: Db, since: Date): Promise<Map<string, number>> {
  const delta = db
    .select({
      studentUuid: sql<string>`s.student`.as('student'),
      net: sql<number>`SUM(s.delta)`.as('net'),
    })
    .from(
      sql`(
        SELECT ${ledgerEntries.toStudentId} AS student, ${ledgerEntries.amount} AS delta FROM ${ledgerEntries}
         WHERE ${ledgerEntries.currency} = 'meritus'
           AND ${ledgerEntries.toStudentId} IS NOT NULL AND ${ledgerEntries.createdAt} >= ${since}
        UNION ALL
        SELECT ${ledgerEntries.fromStudentId}, -${ledgerEntries.amount} FROM ${ledgerEntries}
         WHERE ${ledgerEntries.currency} = 'meritus'
           AND ${ledgerEntries.fromStudentId} IS NOT NULL AND ${ledgerEntries.createdAt} >= ${since}
      ) AS s`,
    )
    .groupBy(sql`s.student`)
    .as('delta');
  const rows = await db
    .select({ id: students.id, before: sql`${students.meritus} - COALESCE(${delta.net}, 0)`.mapWith(Number) })
    .from(students)
    .leftJoin(delta, eq(delta.studentUuid, students.id))
    .where(isNull(students.deletedAt));
  return new Map(rows.map((row) => [row.id, row.before]));
}

/**
 * The event bus as this instance's modules publish to it, telling the ranking of each change as it is published:
 * before the request that made it is answered, where the bus's own delivery comes a moment later (an operation's event
 * is sent 20 ms after its commit). An event published inside a transaction is heard before that commits, which at
 * worst makes the ranking read the school once more: the bus delivers it again once committed.
 */
export function hearingOwnChanges(bus: EventBus, ranking: Pick<RankingStore, 'hear'>): EventBus {
  return {
    ...bus,
    async publish(db, event: BusEvent) {
      await bus.publish(db, event);
      ranking.hear(event);
    },
    publishAfterCommit(event: BusEvent) {
      ranking.hear(event);
      bus.publishAfterCommit(event);
    },
  };
}
