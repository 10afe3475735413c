import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import { turmaScopeOf, type Principal } from '../modules/auth/actor.ts';
import { liveOperationLines } from '../modules/ledger/ledger-queries.service.ts';
import { currentBalances, turmasOf } from '../modules/students/standings.service.ts';
import { goalRefundNotices } from '../modules/store/store-goals.service.ts';
import { inScope, type TurmaScope } from '../views/turma-scope.ts';
import type { LiveOperation } from '../../shared/ledger.ts';
import type { RankingStore } from '../modules/students/ranking-store.ts';
import { LIVE_TICK_MS, MAX_PUSHED_OPERATIONS, type ClientEvent, type RankingEvent } from '../../shared/live-events.ts';
import type { BusEvent, DeliveredEvent, EventBus } from './event-bus.ts';
import { rankingPrivacyOf, type RankingPrivacy } from '../views/student-privacy.ts';
import { DEFAULT_RULES } from '../../shared/settings.ts';
import { changeSeenBy, changesBetween, nothingChanged, positionsOf, type Positions, type RankingChanges } from './ranking-changes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's live hub: tests tick it instead of waiting for its timer. */
    liveHub: LiveHub;
  }
}

/** An open event stream, as the hub sees it: who is watching, and how to tell them. */
/** A stream: whose, and how to send it an event. A guardian's names their children (read as the stream opens, decision 037). */
export type LiveClient = { principal: Principal; children?: ReadonlySet<string>; send(event: ClientEvent): void };

export type LiveHub = {
  /** Starts telling a stream; the returned function stops. */
  join(client: LiveClient): () => void;
  /** Whether a bus event is one this user is told of, at once or at the next tick (the stream's ready message). */
  tells(principal: Principal, event: DeliveredEvent): boolean;
  /** Works out the coalesced events now and sends them to every stream at once, instead of at their turns (tests). */
  tick(): Promise<void>;
  close(): void;
};

const isStaff = (principal: Principal) => principal.role === 'admin';

/** The students a feed line names (either side). */
const studentsOfLine = (line: LiveOperation) => [line.from?.id, line.to?.id].filter((id) => id !== undefined);

/**
 * The lines each staff scope sees, worked out once per distinct scope (teachers of the same turmas share it), from
 * the turma of every student the lines name, read once for all streams. The coordination sees every line.
 */
function linesByScope(operations: LiveOperation[], turmaOf: ReadonlyMap<string, string>): (scope: TurmaScope) => LiveOperation[] {
  const seen = new Map<string, LiveOperation[]>();
  return (scope) => {
    if (scope === null) return operations;
    const key = [...scope].sort().join(',');
    let lines = seen.get(key);
    if (!lines) {
      lines = operations.filter((line) => studentsOfLine(line).some((id) => turmaOf.has(id) && inScope(scope, turmaOf.get(id)!)));
      seen.set(key, lines);
    }
    return lines;
  };
}

/** How many turns a tick is cut into (100 ms each at 3 s): the streams are spread over them (see turnOf). */
const TURNS = 30;

/** The coalesced events a stream is owed at its next turn. */
/**
 * A 'students' event has every screen read the Méritus ranking and the summary again: a ranking event of the same turn
 * then names only the other boards, or goes unsent, so a screen does not read the same board twice for one tick.
 */
export function boardsNotReadAgain(event: RankingEvent | undefined): RankingEvent | undefined {
  const boards = event?.boards.filter((board) => board !== 'meritus');
  return event && boards && boards.length > 0 ? { ...event, boards } : undefined;
}

export type Owed = {
  ranking?: RankingEvent | undefined;
  figures: boolean;
  tags?: { mine: boolean } | undefined;
  students: boolean;
  /** The Loja's order queue (staff) or catalogue (students) changed. */
  store?: boolean | undefined;
  /** A guardian: one of their children's ranking position moved (others' operations move it too). */
  family?: boolean | undefined;
};

/**
 * Two ticks' worth owed at once: the boards of both, the latest own position (one not moved since still stands),
 * and a tag of one's own if either was.
 */
export function mergeOwed(before: Owed | undefined, after: Owed): Owed {
  if (!before) return after;
  const ranking =
    before.ranking && after.ranking
      ? {
          ...after.ranking,
          boards: [...new Set([...before.ranking.boards, ...after.ranking.boards])],
          own: after.ranking.own ?? before.ranking.own,
        }
      : (after.ranking ?? before.ranking);
  const tags = before.tags || after.tags ? { mine: Boolean(before.tags?.mine || after.tags?.mine) } : undefined;
  return {
    ranking,
    figures: before.figures || after.figures,
    tags,
    students: before.students || after.students,
    store: before.store || after.store,
    family: before.family || after.family,
  };
}

/**
 * Fans the bus's events out to this instance's open streams (decision 019). What an event needs from the database is
 * read once here, whatever the number of streams: the live feed's new lines, and once a tick the students' standings
 * to find who sees the ranking move. Each stream is then told only what changes its screens:
 * - an operation: its students at once with their balances ('balance'), staff at once with the feed's lines ('operations');
 * - the ranking, the staff's figures, tags and student lists: at most once a tick, and the ranking only to a student
 *   who sees a position that moved (changeSeenBy), with their own new position when it moved;
 * - a refused attempt: staff only.
 */
export function createLiveHub(
  database: Database,
  bus: EventBus,
  ranking: Pick<RankingStore, 'current'>,
  log: FastifyBaseLogger,
  tickMs = LIVE_TICK_MS,
  /** The school's rules on who appears to other students (decision 029); the defaults when not given (tests). */
  privacy: () => Promise<RankingPrivacy> = async () => rankingPrivacyOf(DEFAULT_RULES),
): LiveHub {
  const clients = new Set<LiveClient>();
  let standings: Positions | undefined;
  let standingsStale = true;
  /** Whose figures changed since the last tick: the students of the operations ('all': anyone's, or the list itself). */
  let figuresChanged: Set<string> | 'all' | undefined;
  let studentsChanged = false;
  /** The turmas whose staff's order queues changed since the last tick ('all': any); undefined when no order changed. */
  let ordersChanged: Set<string> | 'all' | undefined;
  /** The turmas whose students' store catalogue changed since the last tick ('all': every turma's). */
  let catalogueChanged: Set<string> | 'all' | undefined;
  /** Whose own tags changed since the last tick ('all': anyone's); undefined when no tag or like changed. */
  let tagsChanged: Set<string> | 'all' | undefined;
  let ticking: Promise<void> | undefined;

  const toStaff = (event: ClientEvent) => {
    for (const client of clients) if (isStaff(client.principal)) client.send(event);
  };

  /**
   * Pushes the feed's new lines to the staff: the coordination all of them, a teacher those naming a student of their
   * turmas (nothing when none does). Past MAX_PUSHED_OPERATIONS, everyone reads their feed again.
   */
  const pushLines = async (lines: Extract<BusEvent, { type: 'ledger' }>['lines']) => {
    if (lines === 'all') return toStaff({ type: 'operations', operations: null });
    const staff = [...clients].filter((client) => isStaff(client.principal));
    if (staff.length === 0) return;
    const operations = await liveOperationLines(database.db, lines);
    if (operations.length >= MAX_PUSHED_OPERATIONS) return toStaff({ type: 'operations', operations: null });
    const teaching = staff.some((client) => turmaScopeOf(client.principal) !== null);
    const turmaOf = teaching ? await turmasOf(database.db, [...new Set(operations.flatMap(studentsOfLine))]) : new Map<string, string>();
    const seenBy = linesByScope(operations, turmaOf);
    for (const client of staff) {
      if (!clients.has(client)) continue;
      const scope = turmaScopeOf(client.principal);
      const seen = seenBy(scope);
      if (scope === null || seen.length > 0) client.send({ type: 'operations', operations: seen });
    }
  };

  /**
   * Tells the students of an operation their balances as they are now, read once for all their streams. One read at a
   * time, in the order the events came: a later read never reaches a screen before an earlier one, so the last balance
   * shown is the latest, whichever instance made the operations.
   */
  let balanceReads = Promise.resolve();
  const tellBalances = (studentUuids: string[] | 'all') => {
    const watching = [...clients].filter(
      (client) => client.principal.role === 'student' && (studentUuids === 'all' || studentUuids.includes(client.principal.id)),
    );
    if (watching.length === 0) return;
    const ids = [...new Set(watching.map((client) => client.principal.id))];
    balanceReads = balanceReads
      .then(async () => {
        const balances = new Map((await currentBalances(database.db, ids)).map(({ id, ...rest }) => [id, rest]));
        for (const client of watching) {
          const own = balances.get(client.principal.id);
          if (own) client.send({ type: 'balance', balances: own });
        }
      })
      .catch((error: unknown) => {
        log.warn({ err: error }, 'falha ao ler os saldos para os eventos ao vivo');
        for (const client of watching) client.send({ type: 'refetch' });
      });
  };

  /** Tells the guardians watching that one of their children changed (their screens read the child again). */
  const tellFamilies = (studentUuids: readonly string[] | 'all') => {
    for (const client of clients) {
      if (client.principal.role !== 'guardian' || !client.children?.size) continue;
      if (studentUuids === 'all' || studentUuids.some((id) => client.children!.has(id))) client.send({ type: 'family' });
    }
  };

  /** Tells each contributor watching what a turma goal's refund gave them back, read once for all their streams. */
  const tellGoalRefund = (event: Extract<BusEvent, { type: 'goal_refunded' }>) => {
    const watching = [...clients].filter(
      (client) => client.principal.role === 'student' && (event.studentUuids === 'all' || event.studentUuids.includes(client.principal.id)),
    );
    if (watching.length === 0) return;
    goalRefundNotices(database.db, event.itemId, [...new Set(watching.map((client) => client.principal.id))])
      .then((notices) => {
        for (const client of watching) {
          const message = notices.get(client.principal.id);
          if (message) client.send({ type: 'notice', message });
        }
      })
      .catch((error: unknown) => log.warn({ err: error }, 'falha ao ler as devoluções de uma meta da turma para os eventos ao vivo'));
  };

  const hear = (event: DeliveredEvent) => {
    switch (event.type) {
      case 'ledger': {
        void pushLines(event.lines).catch((error: unknown) => {
          log.warn({ err: error }, 'falha ao ler as linhas do feed ao vivo');
          toStaff({ type: 'operations', operations: null });
        });
        if (event.status !== 'completed') return;
        tellBalances(event.studentUuids);
        tellFamilies(event.studentUuids);
        standingsStale = true;
        figuresChanged =
          figuresChanged === 'all' || event.studentUuids === 'all' ? 'all' : new Set([...(figuresChanged ?? []), ...event.studentUuids]);
        return;
      }
      case 'ranking_visibility':
        // Read by key like an operation's students: the tick tells those whose rows moved, nobody else.
        standingsStale = true;
        return;
      case 'students':
        studentsChanged = true;
        standingsStale = true;
        figuresChanged = 'all';
        return;
      case 'tags':
        tellFamilies(event.studentUuids);
        tagsChanged =
          tagsChanged === 'all' || event.studentUuids === 'all' ? 'all' : new Set([...(tagsChanged ?? []), ...event.studentUuids]);
        return;
      case 'goal_refunded':
        tellGoalRefund(event);
        return;
      case 'store': {
        // The students whose own orders changed hear it at once; the staff's queues and the catalogue once a tick.
        for (const client of clients) {
          const { principal } = client;
          if (principal.role === 'student' && (event.studentUuids === 'all' || event.studentUuids.includes(principal.id)))
            client.send({ type: 'store' });
        }
        tellFamilies(event.studentUuids);
        const turmas = event.turmaIds;
        ordersChanged = ordersChanged === 'all' || turmas === 'all' ? 'all' : new Set([...(ordersChanged ?? []), ...turmas]);
        if (event.catalogue)
          catalogueChanged = catalogueChanged === 'all' || turmas === 'all' ? 'all' : new Set([...(catalogueChanged ?? []), ...turmas]);
        return;
      }
      case 'settings':
        // Every screen reads again; the standings too, since whether hidden students count may have changed.
        for (const client of clients) client.send({ type: 'settings' });
        standings = undefined;
        standingsStale = true;
        return;
      case 'resync':
        // Anything may have been missed: the streams refetch everything (events.routes.ts), and the standings are read anew.
        standings = undefined;
        standingsStale = true;
        return;
      case 'sessions_ended':
      case 'staff_changed':
      case 'family_changed':
        return;
    }
  };

  /** The ranking's changes since the last tick, or undefined when nothing moved (or the first reading has nothing to compare with). */
  const rankingChanges = async () => {
    if (![...clients].some((client) => !isStaff(client.principal))) {
      // Nobody to tell: no reading; the next student's stream starts a new one.
      standings = undefined;
      return undefined;
    }
    if (!standingsStale) return undefined;
    standingsStale = false;
    const [snapshot, { hidingAllowed }] = await Promise.all([ranking.current(), privacy()]);
    const after = positionsOf(snapshot.rows.map((row) => ({ ...row, hidden: hidingAllowed && row.rankingHidden })));
    const before = standings;
    standings = after;
    if (!before) return undefined;
    const changes = changesBetween(before, after);
    return nothingChanged(changes) ? undefined : { changes, after };
  };

  /**
   * The turmas whose figures changed ('all': any), for the teachers' screens: from the kept ranking's turma of each
   * student, in memory. A student it does not know (removed) counts as any turma.
   */
  const turmasChanged = async (changed: Set<string> | 'all'): Promise<Set<string> | 'all'> => {
    if (changed === 'all' || ![...clients].some((client) => turmaScopeOf(client.principal) !== null)) return 'all';
    const snapshot = await ranking.current();
    const turmas = new Set<string>();
    for (const id of changed) {
      const turma = snapshot.turmaOf(id);
      if (turma === undefined) return 'all';
      turmas.add(turma);
    }
    return turmas;
  };

  /** Whether a staff member's figures (the dashboard, reports, lists of their scope) changed. */
  const figuresSeenBy = (principal: Principal, changed: Set<string> | 'all' | undefined): boolean => {
    const scope = turmaScopeOf(principal);
    if (changed === undefined || scope === null || changed === 'all') return changed !== undefined;
    return scope.some((turma) => changed.has(turma));
  };

  /** Whether a staff member's order queue changed: an order of a turma they see. */
  const turmasSeenBy = (principal: Principal, changed: Set<string> | 'all' | undefined): boolean => {
    const scope = turmaScopeOf(principal);
    if (changed === undefined || scope === null || changed === 'all') return changed !== undefined;
    return scope.some((turma) => changed.has(turma));
  };

  /** Whether a student's store changed: an item their turma may buy (a student the ranking does not know yet is told). */
  const catalogueSeenBy = (
    studentUuid: string,
    changed: Set<string> | 'all' | undefined,
    snapshot: Awaited<ReturnType<RankingStore['current']>> | undefined,
  ): boolean => {
    if (changed === undefined || changed === 'all' || !snapshot) return changed !== undefined;
    const turma = snapshot.turmaOf(studentUuid);
    return turma === undefined || changed.has(turma);
  };

  /** Whether the Méritus position of one of a guardian's children moved (the family area shows it). */
  const childMoved = (client: LiveClient, changes: RankingChanges) =>
    [...(client.children ?? [])].some((id) => changes.students.meritus.has(id));

  /** What each stream is owed at its next turn (coalesced events merge until then). */
  const owed = new Map<LiveClient, Owed>();
  const owe = (client: LiveClient, more: Owed) => owed.set(client, mergeOwed(owed.get(client), more));

  /** Works out, once for every stream, what the changes since the last tick owe each one. */
  const runTick = async () => {
    const moved = await rankingChanges();
    const changed = figuresChanged;
    const studentList = studentsChanged;
    const tags = tagsChanged;
    const orders = ordersChanged;
    const catalogue = catalogueChanged;
    ordersChanged = undefined;
    catalogueChanged = undefined;
    const snapshot = catalogue !== undefined && catalogue !== 'all' ? await ranking.current() : undefined;
    figuresChanged = undefined;
    studentsChanged = false;
    tagsChanged = undefined;
    const figures = changed === undefined ? undefined : await turmasChanged(changed);
    for (const client of clients) {
      const { principal } = client;
      const staff = isStaff(principal);
      owe(client, {
        ranking: !staff && moved ? (changeSeenBy(moved.changes, principal.id, moved.after) ?? undefined) : undefined,
        figures: staff && figuresSeenBy(principal, figures),
        tags: tags ? { mine: principal.role === 'student' && (tags === 'all' || tags.has(principal.id)) } : undefined,
        students: studentList,
        store: staff ? turmasSeenBy(principal, orders) : catalogueSeenBy(principal.id, catalogue, snapshot),
        family: principal.role === 'guardian' && moved !== undefined && childMoved(client, moved.changes),
      });
    }
  };

  /**
   * Sends what some streams are owed: the ranking or the figures first, then tags and students, so a later event proves
   * an earlier one arrived.
   */
  const pay = (turn: (client: LiveClient) => boolean) => {
    for (const [client, due] of owed) {
      if (!turn(client)) continue;
      owed.delete(client);
      if (!clients.has(client)) continue;
      const ranking = due.students ? boardsNotReadAgain(due.ranking) : due.ranking;
      if (ranking) client.send(ranking);
      if (due.figures) client.send({ type: 'figures' });
      if (due.tags) client.send({ type: 'tags', mine: due.tags.mine });
      if (due.students) client.send({ type: 'students' });
      if (due.store) client.send({ type: 'store' });
      if (due.family) client.send({ type: 'family' });
    }
  };

  /** One tick at a time: a slow database never piles ticks up. */
  const tick = () => {
    ticking ??= runTick()
      .catch((error: unknown) => {
        standingsStale = true;
        log.warn({ err: error }, 'falha ao preparar os eventos ao vivo agrupados');
      })
      .finally(() => (ticking = undefined));
    return ticking;
  };

  /**
   * Each stream has a turn in every tick, one of TURNS spread over it: the reads that coalesced events start arrive
   * spread over the tick instead of all in the same millisecond, and each stream still hears at most once a tick.
   */
  const turnOf = new Map<LiveClient, number>();
  let joined = 0;
  let turn = 0;
  const unsubscribe = bus.subscribe(hear);
  const timers = [
    setInterval(() => void tick(), tickMs),
    setInterval(
      () => {
        turn = (turn + 1) % TURNS;
        pay((client) => turnOf.get(client) === turn);
      },
      Math.max(1, Math.floor(tickMs / TURNS)),
    ),
  ];
  for (const timer of timers) timer.unref();

  return {
    join(client) {
      clients.add(client);
      turnOf.set(client, joined++ % TURNS);
      // A student's stream needs the standings the ticks compare with: read now rather than a tick late.
      if (!standings && !isStaff(client.principal)) {
        standingsStale = true;
        void tick();
      }
      return () => {
        clients.delete(client);
        turnOf.delete(client);
        owed.delete(client);
      };
    },
    tells(principal, event) {
      switch (event.type) {
        case 'ledger':
          return event.status === 'completed' || isStaff(principal);
        case 'sessions_ended':
        case 'staff_changed':
        case 'family_changed':
          return false;
        case 'goal_refunded':
          return principal.role === 'student' && (event.studentUuids === 'all' || event.studentUuids.includes(principal.id));
        default:
          return true;
      }
    },
    async tick() {
      await tick();
      pay(() => true);
    },
    close() {
      for (const timer of timers) clearInterval(timer);
      unsubscribe();
      clients.clear();
    },
  };
}
