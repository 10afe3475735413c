import { eq } from 'drizzle-orm';
import { admins } from '../../db/schema.ts';
import type { AdminActor } from '../auth/actor.ts';
import { reconcile, totalBalances, type Discrepancy } from '../ledger/reconciliation.service.ts';
import { LOGIN_LIMITS, SESSION_IDLE_MS, EXPIRED_TAG_SWEEP_MS } from '../../../shared/constants.ts';
import { DIAGNOSTIC_TEXTS } from '../../../shared/diagnostic-texts.ts';
import type { DiagnosticCategory } from '../../../shared/system.ts';
import type { SystemDeps } from './backend.service.ts';
import { DETAIL_LIST_MAX, first, type Entry } from './diagnostic-logs.ts';
import { expiredTags } from './diagnostic-fixes.ts';
import {
  adminCount,
  blockedLogins,
  danglingEntries,
  entriesLastWeek,
  eventListeners,
  incompleteAdmins,
  netFlows,
  repeatedAdminEmails,
  repeatedStudentIds,
  sessionCounts,
  studentRowCounts,
  validatedConstraints,
} from './diagnostics.queries.ts';
import { photoIntegrity, type PhotoIntegrity } from './photo-files.ts';
import { databaseRoundTrip, diskSpace, migrationStatus, storageWritable } from './system-health.ts';
import { STAFF_ROLES } from '../../../shared/permissions.ts';

/**
 * The diagnostic's checks, one per category: each reads real figures and turns them into
 * entries (a finding with its pt-BR message and details). A balance that disagrees with its
 * ledger is reported, never rewritten.
 */

/** A 5xx older than this no longer counts as recent. */
const RECENT_ERRORS_MS = 24 * 60 * 60 * 1000;

/** A check that passes when it found nothing: else `status`, the count's message and the details. */
function whenNoneFound(
  category: Entry['category'],
  found: unknown[],
  ok: string,
  status: Entry['status'],
  problem: (count: number) => string,
  details: Entry['details'],
): Entry {
  return found.length === 0 ? { category, status: 'success', message: ok } : { category, status, message: problem(found.length), details };
}

async function connectivity({ database, config }: SystemDeps): Promise<Entry[]> {
  const texts = DIAGNOSTIC_TEXTS.connectivity;
  const entries: Entry[] = [];
  const roundTripMs = await databaseRoundTrip(database.db);
  entries.push({
    category: 'CONNECTIVITY',
    status: 'success',
    message: texts.databaseAnswered(roundTripMs),
    details: { roundTripMs, mode: database.kind },
  });
  if (database.kind === 'postgres') {
    const listening = await eventListeners(database.db);
    entries.push(
      listening > 0
        ? { category: 'CONNECTIVITY', status: 'success', message: texts.listening(listening), details: { listening } }
        : { category: 'CONNECTIVITY', status: 'error', message: texts.notListening, details: { listening } },
    );
  } else {
    entries.push({ category: 'CONNECTIVITY', status: 'success', message: texts.embeddedEvents, details: { mode: 'pglite' } });
  }
  const storage = await storageWritable(config.uploadsDir);
  entries.push({
    category: 'CONNECTIVITY',
    status: storage.ok ? 'success' : 'error',
    message: storage.ok ? texts.storageReachable : texts.storageUnreachable,
    details: { detail: storage.detail },
  });
  return entries;
}

async function administrators({ database }: SystemDeps, actor: AdminActor): Promise<Entry[]> {
  const texts = DIAGNOSTIC_TEXTS.administrators;
  const db = database.db;
  const entries: Entry[] = [];
  const total = await adminCount(db);
  entries.push(
    total > 0
      ? { category: 'ADMINISTRATORS', status: 'success', message: texts.registered(total), details: { total } }
      : { category: 'ADMINISTRATORS', status: 'error', message: texts.none, details: { total } },
  );
  const incomplete = await incompleteAdmins(db);
  entries.push(
    whenNoneFound('ADMINISTRATORS', incomplete, texts.complete, 'error', texts.incomplete, { administrators: first(incomplete) }),
  );
  const duplicates = await repeatedAdminEmails(db);
  entries.push(whenNoneFound('ADMINISTRATORS', duplicates, texts.emailsUnique, 'error', texts.emailsRepeated, { emails: duplicates }));
  const [self] = await db.select().from(admins).where(eq(admins.id, actor.id));
  const selfMissing = self
    ? [self.adminId, self.name, self.email, self.passwordHash, self.role].some((value) => value.trim() === '')
    : true;
  entries.push(
    self && !selfMissing && (STAFF_ROLES as readonly string[]).includes(self.role)
      ? {
          category: 'ADMINISTRATORS',
          status: 'success',
          message: texts.signedInValid(self.name),
          details: { adminId: self.adminId, email: self.email },
        }
      : {
          category: 'ADMINISTRATORS',
          status: 'error',
          message: texts.signedInInvalid,
          details: { id: actor.id, found: Boolean(self), role: self?.role ?? null },
        },
  );
  return entries;
}

async function studentChecks({ database, settings }: SystemDeps, discrepancies: Discrepancy[], photos: PhotoIntegrity): Promise<Entry[]> {
  const texts = DIAGNOSTIC_TEXTS.students;
  const db = database.db;
  const entries: Entry[] = [];
  const mismatches = discrepancies.filter((found) => found.kind === 'balance_mismatch');
  // Removed students keep their ledger rows and balances, so they are checked too.
  const checked = await studentRowCounts(db);
  entries.push(
    whenNoneFound('STUDENTS', mismatches, texts.balancesAgree(checked.all, checked.removed), 'error', texts.balancesDisagree, {
      total: mismatches.length,
      discrepancies: first(mismatches),
    }),
  );
  const negative = discrepancies.filter((found) => found.kind === 'negative_balance');
  entries.push(whenNoneFound('STUDENTS', negative, texts.noNegative, 'error', texts.negative, { balances: first(negative) }));
  const duplicates = await repeatedStudentIds(db);
  entries.push(
    whenNoneFound('STUDENTS', duplicates, texts.studentIdsUnique, 'error', texts.studentIdsRepeated, { studentIds: duplicates }),
  );
  const expired = await expiredTags(db, settings);
  entries.push(
    whenNoneFound('STUDENTS', expired, texts.noExpiredTags, 'warning', texts.expiredTags, {
      fix: 'expired_tags',
      tags: first(expired).map((tag) => tag.label),
    }),
  );
  entries.push(
    whenNoneFound('STUDENTS', photos.missingFiles, texts.photosPresent, 'warning', texts.photosMissing, {
      students: first(photos.missingFiles),
    }),
  );
  return entries;
}

const CONSTRAINTS = {
  nonNegative: ['students_meritus_nonnegative', 'students_estelecas_nonnegative', 'students_total_earned_nonnegative'],
  idempotency: ['idempotency_keys_actor_key_key_pk'],
};

async function transactionChecks({ database }: SystemDeps, discrepancies: Discrepancy[]): Promise<Entry[]> {
  const texts = DIAGNOSTIC_TEXTS.transactions;
  const db = database.db;
  const entries: Entry[] = [];
  const mismatches = discrepancies.filter((found) => found.kind === 'balance_mismatch').length;
  entries.push(
    mismatches === 0
      ? { category: 'TRANSACTIONS', status: 'success', message: texts.sumsAgree }
      : { category: 'TRANSACTIONS', status: 'error', message: texts.sumsDisagree(mismatches), details: { mismatches } },
  );
  const valid = await validatedConstraints(db, [...CONSTRAINTS.nonNegative, ...CONSTRAINTS.idempotency]);
  const missingNonNegative = CONSTRAINTS.nonNegative.filter((name) => !valid.has(name));
  const negatives = discrepancies.filter((found) => found.kind === 'negative_balance').length;
  entries.push(
    missingNonNegative.length === 0 && negatives === 0
      ? { category: 'TRANSACTIONS', status: 'success', message: texts.nonNegative }
      : {
          category: 'TRANSACTIONS',
          status: 'error',
          message: texts.negativePossible,
          details: { missingConstraints: missingNonNegative, negatives },
        },
  );
  const fromOperations = await netFlows(db);
  const totals = await totalBalances(db);
  const conserved = totals.meritus === fromOperations.meritus && totals.estelecas === fromOperations.estelecas;
  entries.push(
    conserved
      ? { category: 'TRANSACTIONS', status: 'success', message: texts.conserved, details: { balances: totals } }
      : { category: 'TRANSACTIONS', status: 'error', message: texts.notConserved, details: { balances: totals, fromOperations } },
  );
  entries.push(
    valid.has(CONSTRAINTS.idempotency[0]!)
      ? { category: 'TRANSACTIONS', status: 'success', message: texts.idempotent }
      : {
          category: 'TRANSACTIONS',
          status: 'error',
          message: texts.idempotencyKeyMissing,
          details: { missingConstraints: CONSTRAINTS.idempotency },
        },
  );
  const invalid = discrepancies.filter((found) => found.kind === 'invalid_entry');
  entries.push(whenNoneFound('TRANSACTIONS', invalid, texts.entriesValid, 'error', texts.entriesInvalid, { entries: first(invalid) }));
  const goals = discrepancies.filter((found) => found.kind === 'goal_mismatch');
  entries.push(whenNoneFound('TRANSACTIONS', goals, texts.goalsAgree, 'error', texts.goalsDisagree, { goals: first(goals) }));
  const store = discrepancies.filter((found) => found.kind === 'store_mismatch');
  entries.push(whenNoneFound('TRANSACTIONS', store, texts.storeAgrees, 'error', texts.storeDisagrees, { store: first(store) }));
  const dangling = await danglingEntries(db, DETAIL_LIST_MAX);
  entries.push(
    dangling.length === 0
      ? { category: 'TRANSACTIONS', status: 'success', message: texts.noDangling }
      : { category: 'TRANSACTIONS', status: 'error', message: texts.dangling, details: { entries: dangling } },
  );
  const week = await entriesLastWeek(db);
  const perType: Record<string, Record<string, number>> = {};
  for (const row of week) (perType[row.currency] ??= {})[row.type] = row.count;
  const weekTotal = week.reduce((sum, row) => sum + row.count, 0);
  entries.push({ category: 'TRANSACTIONS', status: 'info', message: texts.lastWeek(weekTotal), details: perType });
  return entries;
}

async function authChecks({ database }: SystemDeps): Promise<Entry[]> {
  const texts = DIAGNOSTIC_TEXTS.auth;
  const db = database.db;
  const now = Date.now();
  const idleSince = new Date(now - SESSION_IDLE_MS);
  // The sweep runs every EXPIRED_TAG_SWEEP_MS: sessions expired for two of its rounds mean it is not running.
  const { open, expired, stale } = await sessionCounts(db, {
    idleSince,
    staleBefore: new Date(now - 2 * EXPIRED_TAG_SWEEP_MS),
    staleIdleSince: new Date(idleSince.getTime() - 2 * EXPIRED_TAG_SWEEP_MS),
  });
  const entries: Entry[] = [
    {
      category: 'AUTH',
      status: stale > 0 ? 'warning' : 'success',
      message: stale > 0 ? texts.staleSessions(stale, (2 * EXPIRED_TAG_SWEEP_MS) / 60_000) : texts.sessions(open, expired),
      details: { open, expired, stale },
    },
  ];
  const windowOf = ({ windowMs, max }: { windowMs: number; max: number }) => ({ since: new Date(now - windowMs), max });
  const blocked = await blockedLogins(db, {
    accountAndAddress: windowOf(LOGIN_LIMITS.perAccountAndAddress),
    account: windowOf(LOGIN_LIMITS.perAccount),
    address: windowOf(LOGIN_LIMITS.perAddress),
  });
  const blockedCount = blocked.accountsAtAddress.length + blocked.accounts.length + blocked.addresses.length;
  entries.push(
    blockedCount === 0
      ? { category: 'AUTH', status: 'success', message: texts.noneBlocked }
      : {
          category: 'AUTH',
          status: 'warning',
          message: texts.blocked(blocked.accounts.length + blocked.accountsAtAddress.length, blocked.addresses.length),
          details: {
            accountsAtAddress: first(blocked.accountsAtAddress),
            accounts: first(blocked.accounts),
            addresses: first(blocked.addresses),
          },
        },
  );
  return entries;
}

async function systemChecks({ database, config, metrics }: SystemDeps, photos: PhotoIntegrity): Promise<Entry[]> {
  const texts = DIAGNOSTIC_TEXTS.system;
  const entries: Entry[] = [];
  const migrations = await migrationStatus(database.db);
  entries.push({
    category: 'SYSTEM',
    status: migrations.ok ? 'success' : 'error',
    message: texts.migrations(migrations.detail),
    details: { applied: migrations.applied, expected: migrations.expected },
  });
  const disk = await diskSpace(config.dataDir);
  entries.push({
    category: 'SYSTEM',
    status: disk.ok ? 'success' : 'warning',
    message: texts.disk(disk.path, disk.detail),
    details: { freeBytes: disk.freeBytes, totalBytes: disk.totalBytes },
  });
  const orphanBytes = photos.orphanFiles.reduce((sum, file) => sum + file.bytes, 0);
  entries.push(
    photos.orphanFiles.length === 0 && photos.missingFiles.length === 0
      ? { category: 'SYSTEM', status: 'success', message: texts.photoFilesAgree(photos.files.length) }
      : {
          category: 'SYSTEM',
          status: 'warning',
          message: texts.photoFilesDisagree(photos.orphanFiles.length, orphanBytes, photos.missingFiles.length),
          details: {
            ...(photos.orphanFiles.length > 0 ? { fix: 'orphan_photos' } : {}),
            orphanFiles: first(photos.orphanFiles).map((file) => file.key),
            missingFiles: first(photos.missingFiles),
          },
        },
  );
  const since = Date.now() - RECENT_ERRORS_MS;
  const errors = metrics.recentServerErrors().filter((error) => Date.parse(error.at) >= since);
  entries.push(
    errors.length === 0
      ? { category: 'SYSTEM', status: 'success', message: texts.noServerErrors, details: { instance: metrics.instance.id } }
      : {
          category: 'SYSTEM',
          status: 'error',
          message: texts.serverErrors(errors.length),
          details: { instance: metrics.instance.id, errors: errors.reverse() },
        },
  );
  return entries;
}

/** A check that fails to run is itself a finding, and the others still run. */
async function guarded(category: DiagnosticCategory, check: () => Promise<Entry[]>): Promise<Entry[]> {
  try {
    return await check();
  } catch (error) {
    return [{ category, status: 'error', message: DIAGNOSTIC_TEXTS.checkFailed, details: { error: (error as Error).message } }];
  }
}

/** Every check, in the screen's order of categories. */
export async function runChecks(deps: SystemDeps, actor: AdminActor): Promise<Entry[]> {
  const db = deps.database.db;
  const [discrepancies, photos] = await Promise.all([reconcile(db), photoIntegrity(db, deps.storage)]);
  const entries: Entry[] = [];
  entries.push(...(await guarded('CONNECTIVITY', () => connectivity(deps))));
  entries.push(...(await guarded('ADMINISTRATORS', () => administrators(deps, actor))));
  entries.push(...(await guarded('STUDENTS', () => studentChecks(deps, discrepancies, photos))));
  entries.push(...(await guarded('TRANSACTIONS', () => transactionChecks(deps, discrepancies))));
  entries.push(...(await guarded('AUTH', () => authChecks(deps))));
  entries.push(...(await guarded('SYSTEM', () => systemChecks(deps, photos))));
  return entries;
}
