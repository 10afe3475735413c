import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import { admins, diagnosticLogs, studentTags, students } from '../../db/schema.ts';
import { typeSign } from '../../db/ledger-direction.ts';
import { createAdmin } from '../auth/admin-accounts.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import { reconcile, totalBalances, type Discrepancy } from '../ledger/reconciliation.service.ts';
import { LOGIN_LIMITS, SESSION_IDLE_MS, EXPIRED_TAG_SWEEP_MS, TAG_NAMES, type TagKind } from '../../../shared/constants.ts';
import { countOf, formatDateTime, formatMs, formatSize } from '../../../shared/format.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import {
  DEFAULT_ADMIN,
  DIAGNOSTIC_LOG_LIMIT,
  SYSTEM_TEXTS,
  type DiagnosticCategory,
  type DiagnosticCounters,
  type DiagnosticLog,
  type DiagnosticLogList,
  type DiagnosticRun,
  type DiagnosticStatus,
  type FixAdministratorsResult,
  type FixId,
  type FixPreview,
  type FixResult,
} from '../../../shared/system.ts';
import type { SystemDeps } from './backend.service.ts';
import { photoIntegrity, removePhotoFile, type PhotoIntegrity } from './photo-files.ts';
import { databaseRoundTrip, diskSpace, migrationStatus, storageWritable } from './system-health.ts';

/**
 * Debug & Diagnóstico: real checks per category, each written to diagnostic_logs (so every
 * instance and every restart sees them), and fixes that show what they change before
 * changing it. A balance that disagrees with its ledger is reported, never rewritten.
 */

type Entry = { category: DiagnosticCategory; status: DiagnosticStatus; message: string; details?: Record<string, unknown> };
type Context = { ip?: string | undefined };

/** Lists in details are cut here: the message carries the total. */
const DETAIL_LIST_MAX = 50;
/** A 5xx older than this no longer counts as recent. */
const RECENT_ERRORS_MS = 24 * 60 * 60 * 1000;

function first<T>(list: T[]): T[] {
  return list.slice(0, DETAIL_LIST_MAX);
}

async function scalar(db: DbOrTx, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = rowsOf<{ n: string | number | null }>(await db.execute(query));
  return Number(row?.n ?? 0);
}

function toLog(row: typeof diagnosticLogs.$inferSelect): DiagnosticLog {
  return { id: row.id, at: row.at.toISOString(), category: row.category, status: row.status, message: row.message, details: row.details };
}

async function writeLogs(db: DbOrTx, runId: string | null, entries: Entry[]): Promise<DiagnosticLog[]> {
  if (entries.length === 0) return [];
  const rows = await db
    .insert(diagnosticLogs)
    .values(entries.map((entry) => ({ runId, category: entry.category, status: entry.status, message: entry.message, details: entry.details ?? {} })))
    .returning();
  return rows.sort((a, b) => a.id - b.id).map(toLog);
}

// ---------------------------------------------------------------- checks

async function connectivity({ database, config }: SystemDeps): Promise<Entry[]> {
  const entries: Entry[] = [];
  const roundTripMs = await databaseRoundTrip(database.db);
  entries.push({ category: 'CONNECTIVITY', status: 'success', message: `Banco de dados respondeu em ${formatMs(roundTripMs)}`, details: { roundTripMs, mode: database.kind } });
  if (database.kind === 'postgres') {
    // The event bus's connection idles after its LISTEN, which pg_stat_activity keeps as its last statement.
    const listening = await scalar(
      database.db,
      sql`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "meritus_events"'`,
    );
    entries.push(
      listening > 0
        ? { category: 'CONNECTIVITY', status: 'success', message: `Conexão de eventos ao vivo (LISTEN) ativa: ${countOf(listening, 'instância', 'instâncias')}`, details: { listening } }
        : { category: 'CONNECTIVITY', status: 'error', message: 'Nenhuma conexão de eventos ao vivo (LISTEN) ativa: as telas não recebem atualizações', details: { listening } },
    );
  } else {
    entries.push({ category: 'CONNECTIVITY', status: 'success', message: 'Eventos ao vivo no mesmo processo do banco embutido (PGlite)', details: { mode: 'pglite' } });
  }
  const storage = await storageWritable(config.uploadsDir);
  entries.push({ category: 'CONNECTIVITY', status: storage.ok ? 'success' : 'error', message: storage.ok ? 'Armazenamento de arquivos acessível' : 'Armazenamento de arquivos inacessível', details: { detail: storage.detail } });
  return entries;
}

type AdminProblemRow = { id: string; admin_id: string; email: string; missing: string[] };

async function administrators({ database }: SystemDeps, actor: AdminActor): Promise<Entry[]> {
  const db = database.db;
  const entries: Entry[] = [];
  const total = await scalar(db, sql`SELECT count(*) AS n FROM admins`);
  entries.push(
    total > 0
      ? { category: 'ADMINISTRATORS', status: 'success', message: `${countOf(total, 'administrador cadastrado', 'administradores cadastrados')}`, details: { total } }
      : { category: 'ADMINISTRATORS', status: 'error', message: 'Nenhum administrador cadastrado: use Corrigir Administrators', details: { total } },
  );
  const incomplete = rowsOf<AdminProblemRow>(
    await db.execute(sql`
      SELECT id, admin_id, email, array_remove(ARRAY[
               CASE WHEN btrim(admin_id) = '' THEN 'adminId' END,
               CASE WHEN btrim(name) = '' THEN 'name' END,
               CASE WHEN btrim(email) = '' THEN 'email' END,
               CASE WHEN password_hash = '' THEN 'password' END,
               CASE WHEN btrim(role) = '' THEN 'role' END], NULL) AS missing
        FROM admins
       WHERE btrim(admin_id) = '' OR btrim(name) = '' OR btrim(email) = '' OR password_hash = '' OR btrim(role) = ''
       ORDER BY created_at`),
  );
  entries.push(
    incomplete.length === 0
      ? { category: 'ADMINISTRATORS', status: 'success', message: 'Todos os administradores têm adminId, name, email, password e role' }
      : {
          category: 'ADMINISTRATORS',
          status: 'error',
          message: `${countOf(incomplete.length, 'administrador sem campo obrigatório', 'administradores sem campo obrigatório')}`,
          details: { administrators: first(incomplete).map((row) => ({ id: row.id, adminId: row.admin_id, email: row.email, missing: row.missing })) },
        },
  );
  const duplicates = rowsOf<{ email: string; n: string | number }>(
    await db.execute(sql`SELECT lower(email) AS email, count(*) AS n FROM admins GROUP BY lower(email) HAVING count(*) > 1`),
  );
  entries.push(
    duplicates.length === 0
      ? { category: 'ADMINISTRATORS', status: 'success', message: 'Nenhum email de administrador repetido' }
      : { category: 'ADMINISTRATORS', status: 'error', message: `${countOf(duplicates.length, 'email repetido', 'emails repetidos')} entre administradores`, details: { emails: duplicates.map((row) => ({ email: row.email, count: Number(row.n) })) } },
  );
  const [self] = await db.select().from(admins).where(eq(admins.id, actor.id));
  const selfMissing = self ? [self.adminId, self.name, self.email, self.passwordHash, self.role].some((value) => value.trim() === '') : true;
  entries.push(
    self && !selfMissing && self.role === 'admin'
      ? { category: 'ADMINISTRATORS', status: 'success', message: `Administrador conectado válido: ${self.name}`, details: { adminId: self.adminId, email: self.email } }
      : { category: 'ADMINISTRATORS', status: 'error', message: 'O administrador conectado não tem cadastro válido', details: { id: actor.id, found: Boolean(self), role: self?.role ?? null } },
  );
  return entries;
}

async function studentChecks({ database, settings }: SystemDeps, discrepancies: Discrepancy[], photos: PhotoIntegrity): Promise<Entry[]> {
  const db = database.db;
  const entries: Entry[] = [];
  const mismatches = discrepancies.filter((found) => found.kind === 'balance_mismatch');
  // Removed students keep their ledger rows and balances, so they are checked too; the message says so, since the
  // panel beside it counts only current students.
  const checked = await scalar(db, sql`SELECT count(*) AS n FROM students`);
  const removed = await scalar(db, sql`SELECT count(*) AS n FROM students WHERE deleted_at IS NOT NULL`);
  const checkedText = countOf(checked, 'estudante', 'estudantes') + (removed > 0 ? `, ${countOf(removed, 'removido', 'removidos')}` : '');
  entries.push(
    mismatches.length === 0
      ? { category: 'STUDENTS', status: 'success', message: `Méritus, Estelecas e total ganho conferem com o razão (${checkedText})` }
      : {
          category: 'STUDENTS',
          status: 'error',
          message: `${countOf(mismatches.length, 'saldo diverge', 'saldos divergem')} do razão; nada foi alterado`,
          details: { total: mismatches.length, discrepancies: first(mismatches) },
        },
  );
  const negative = discrepancies.filter((found) => found.kind === 'negative_balance');
  entries.push(
    negative.length === 0
      ? { category: 'STUDENTS', status: 'success', message: 'Nenhum saldo negativo' }
      : { category: 'STUDENTS', status: 'error', message: `${countOf(negative.length, 'saldo negativo', 'saldos negativos')}`, details: { balances: first(negative) } },
  );
  const duplicates = rowsOf<{ student_id: string; n: string | number }>(
    await db.execute(sql`SELECT student_id, count(*) AS n FROM students WHERE deleted_at IS NULL GROUP BY student_id HAVING count(*) > 1`),
  );
  entries.push(
    duplicates.length === 0
      ? { category: 'STUDENTS', status: 'success', message: 'Nenhuma matrícula repetida entre estudantes ativos' }
      : { category: 'STUDENTS', status: 'error', message: `${countOf(duplicates.length, 'matrícula repetida', 'matrículas repetidas')}`, details: { studentIds: duplicates.map((row) => ({ studentId: row.student_id, count: Number(row.n) })) } },
  );
  const expired = await expiredTags(db, settings);
  entries.push(
    expired.length === 0
      ? { category: 'STUDENTS', status: 'success', message: 'Nenhuma tag expirada aguardando remoção' }
      : {
          category: 'STUDENTS',
          status: 'warning',
          message: `${countOf(expired.length, 'tag expirada ainda não removida', 'tags expiradas ainda não removidas')}`,
          details: { fix: 'expired_tags', tags: first(expired).map((tag) => tag.label) },
        },
  );
  entries.push(
    photos.missingFiles.length === 0
      ? { category: 'STUDENTS', status: 'success', message: 'Todas as fotos armazenadas existem' }
      : {
          category: 'STUDENTS',
          status: 'warning',
          message: `${countOf(photos.missingFiles.length, 'foto aponta', 'fotos apontam')} para arquivo inexistente`,
          details: { students: first(photos.missingFiles) },
        },
  );
  return entries;
}

const CONSTRAINTS = {
  nonNegative: ['students_meritus_nonnegative', 'students_estelecas_nonnegative', 'students_total_earned_nonnegative'],
  idempotency: ['idempotency_keys_actor_key_key_pk'],
};

async function transactionChecks({ database }: SystemDeps, discrepancies: Discrepancy[]): Promise<Entry[]> {
  const db = database.db;
  const entries: Entry[] = [];
  const mismatches = discrepancies.filter((found) => found.kind === 'balance_mismatch').length;
  entries.push(
    mismatches === 0
      ? { category: 'TRANSACTIONS', status: 'success', message: 'Invariantes 1 e 2: todo saldo é a soma das suas linhas no razão' }
      : { category: 'TRANSACTIONS', status: 'error', message: `Invariantes 1 e 2: ${countOf(mismatches, 'saldo difere', 'saldos diferem')} da soma do razão (ver STUDENTS)`, details: { mismatches } },
  );
  const constraints = rowsOf<{ conname: string; convalidated: boolean }>(
    await db.execute(sql`SELECT conname, convalidated FROM pg_constraint WHERE conname IN (${sql.join(
      [...CONSTRAINTS.nonNegative, ...CONSTRAINTS.idempotency].map((name) => sql`${name}`),
      sql`, `,
    )})`),
  );
  const valid = new Set(constraints.filter((row) => row.convalidated).map((row) => row.conname));
  const missingNonNegative = CONSTRAINTS.nonNegative.filter((name) => !valid.has(name));
  const negatives = discrepancies.filter((found) => found.kind === 'negative_balance').length;
  entries.push(
    missingNonNegative.length === 0 && negatives === 0
      ? { category: 'TRANSACTIONS', status: 'success', message: 'Invariante 3: nenhum saldo negativo, garantido por restrições CHECK' }
      : { category: 'TRANSACTIONS', status: 'error', message: 'Invariante 3: saldo negativo possível ou encontrado', details: { missingConstraints: missingNonNegative, negatives } },
  );
  const flows = rowsOf<{ currency: 'meritus' | 'estelecas'; net: string | number }>(
    await db.execute(sql`
      SELECT currency, COALESCE(SUM(${typeSign(sql`type`)} * amount), 0) AS net
        FROM ledger_entries GROUP BY currency`),
  );
  const totals = await totalBalances(db);
  const fromOperations = { meritus: 0, estelecas: 0 };
  for (const row of flows) fromOperations[row.currency] = Number(row.net);
  const conserved = totals.meritus === fromOperations.meritus && totals.estelecas === fromOperations.estelecas;
  entries.push(
    conserved
      ? { category: 'TRANSACTIONS', status: 'success', message: 'Invariante 4: a soma dos saldos muda só por operações de administradores', details: { balances: totals } }
      : { category: 'TRANSACTIONS', status: 'error', message: 'Invariante 4: a soma dos saldos difere do saldo das operações de administradores', details: { balances: totals, fromOperations } },
  );
  entries.push(
    valid.has(CONSTRAINTS.idempotency[0]!)
      ? { category: 'TRANSACTIONS', status: 'success', message: 'Invariante 5: cada chave de idempotência vale uma vez por usuário (chave primária)' }
      : { category: 'TRANSACTIONS', status: 'error', message: 'Invariante 5: a chave primária das chaves de idempotência não existe', details: { missingConstraints: CONSTRAINTS.idempotency } },
  );
  const invalid = discrepancies.filter((found) => found.kind === 'invalid_entry');
  entries.push(
    invalid.length === 0
      ? { category: 'TRANSACTIONS', status: 'success', message: 'Todas as linhas do razão têm valor positivo e partes coerentes com o tipo' }
      : { category: 'TRANSACTIONS', status: 'error', message: `${countOf(invalid.length, 'linha inválida', 'linhas inválidas')} no razão`, details: { entries: first(invalid) } },
  );
  const dangling = rowsOf<{ id: string; side: string }>(
    await db.execute(sql`
      SELECT e.id, CASE WHEN e.from_student_id IS NOT NULL AND f.id IS NULL THEN 'from' ELSE 'to' END AS side
        FROM ledger_entries e
        LEFT JOIN students f ON f.id = e.from_student_id
        LEFT JOIN students t ON t.id = e.to_student_id
       WHERE (e.from_student_id IS NOT NULL AND f.id IS NULL) OR (e.to_student_id IS NOT NULL AND t.id IS NULL)
       LIMIT ${DETAIL_LIST_MAX}`),
  );
  entries.push(
    dangling.length === 0
      ? { category: 'TRANSACTIONS', status: 'success', message: 'Nenhuma linha do razão aponta para estudante inexistente' }
      : { category: 'TRANSACTIONS', status: 'error', message: 'Linhas do razão apontam para estudantes inexistentes', details: { entries: dangling } },
  );
  const week = rowsOf<{ currency: string; type: string; n: string | number }>(
    await db.execute(sql`
      SELECT currency, type, count(*) AS n FROM ledger_entries
       WHERE created_at > now() - interval '7 days' GROUP BY currency, type ORDER BY currency, type`),
  );
  const perType: Record<string, Record<string, number>> = {};
  for (const row of week) (perType[row.currency] ??= {})[row.type] = Number(row.n);
  const weekTotal = week.reduce((sum, row) => sum + Number(row.n), 0);
  entries.push({ category: 'TRANSACTIONS', status: 'info', message: `${countOf(weekTotal, 'operação', 'operações')} de Méritus e Estelecas nos últimos 7 dias`, details: perType });
  return entries;
}

async function authChecks({ database }: SystemDeps): Promise<Entry[]> {
  const db = database.db;
  const now = Date.now();
  const idleSince = new Date(now - SESSION_IDLE_MS);
  // The sweep runs every EXPIRED_TAG_SWEEP_MS: sessions expired for two of its rounds mean it is not running.
  const staleBefore = new Date(now - 2 * EXPIRED_TAG_SWEEP_MS);
  const [row] = rowsOf<{ open: string | number; expired: string | number; stale: string | number }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE expires_at > now() AND last_seen_at > ${idleSince}) AS open,
             count(*) FILTER (WHERE expires_at <= now() OR last_seen_at <= ${idleSince}) AS expired,
             count(*) FILTER (WHERE expires_at <= ${staleBefore} OR last_seen_at <= ${new Date(idleSince.getTime() - 2 * EXPIRED_TAG_SWEEP_MS)}) AS stale
        FROM sessions`),
  );
  const open = Number(row?.open ?? 0);
  const expired = Number(row?.expired ?? 0);
  const stale = Number(row?.stale ?? 0);
  const entries: Entry[] = [
    {
      category: 'AUTH',
      status: stale > 0 ? 'warning' : 'success',
      message:
        stale > 0
          ? `${countOf(stale, 'sessão expirada', 'sessões expiradas')} há mais de ${(2 * EXPIRED_TAG_SWEEP_MS) / 60_000} minutos ainda no banco: a limpeza periódica não está rodando`
          : `${countOf(open, 'sessão aberta', 'sessões abertas')}; ${countOf(expired, 'expirada aguardando', 'expiradas aguardando')} a limpeza periódica`,
      details: { open, expired, stale },
    },
  ];
  const windowStart = (windowMs: number) => new Date(now - windowMs);
  const { perAccountAndAddress, perAccount, perAddress } = LOGIN_LIMITS;
  const [accountsAtAddress, accounts, addresses] = await Promise.all([
    db.execute(sql`
      SELECT account_key, ip FROM login_failures WHERE NOT pending AND at > ${windowStart(perAccountAndAddress.windowMs)}
       GROUP BY account_key, ip HAVING count(*) >= ${perAccountAndAddress.max}`),
    db.execute(sql`
      SELECT account_key FROM login_failures WHERE NOT pending AND at > ${windowStart(perAccount.windowMs)}
       GROUP BY account_key HAVING count(*) >= ${perAccount.max}`),
    db.execute(sql`
      SELECT ip FROM login_failures WHERE NOT pending AND at > ${windowStart(perAddress.windowMs)}
       GROUP BY ip HAVING count(*) >= ${perAddress.max}`),
  ]);
  const blocked = {
    accountsAtAddress: rowsOf<{ account_key: string; ip: string }>(accountsAtAddress).map((r) => ({ account: r.account_key, ip: r.ip })),
    accounts: rowsOf<{ account_key: string }>(accounts).map((r) => r.account_key),
    addresses: rowsOf<{ ip: string }>(addresses).map((r) => r.ip),
  };
  const blockedCount = blocked.accountsAtAddress.length + blocked.accounts.length + blocked.addresses.length;
  entries.push(
    blockedCount === 0
      ? { category: 'AUTH', status: 'success', message: 'Nenhuma conta ou endereço bloqueado por tentativas de login' }
      : {
          category: 'AUTH',
          status: 'warning',
          message: `Bloqueados agora por tentativas de login: ${countOf(blocked.accounts.length + blocked.accountsAtAddress.length, 'conta', 'contas')}, ${countOf(blocked.addresses.length, 'endereço', 'endereços')}`,
          details: { accountsAtAddress: first(blocked.accountsAtAddress), accounts: first(blocked.accounts), addresses: first(blocked.addresses) },
        },
  );
  return entries;
}

async function systemChecks({ database, config, metrics }: SystemDeps, photos: PhotoIntegrity): Promise<Entry[]> {
  const entries: Entry[] = [];
  const migrations = await migrationStatus(database.db);
  entries.push({ category: 'SYSTEM', status: migrations.ok ? 'success' : 'error', message: `Migrações: ${migrations.detail}`, details: { applied: migrations.applied, expected: migrations.expected } });
  const disk = await diskSpace(config.dataDir);
  entries.push({
    category: 'SYSTEM',
    status: disk.ok ? 'success' : 'warning',
    message: `Disco de ${disk.path}: ${disk.detail}`,
    details: { freeBytes: disk.freeBytes, totalBytes: disk.totalBytes },
  });
  const orphanBytes = photos.orphanFiles.reduce((sum, file) => sum + file.bytes, 0);
  entries.push(
    photos.orphanFiles.length === 0 && photos.missingFiles.length === 0
      ? { category: 'SYSTEM', status: 'success', message: `Arquivos de foto e registros conferem (${countOf(photos.files.length, 'arquivo', 'arquivos')})` }
      : {
          category: 'SYSTEM',
          status: 'warning',
          message: `${countOf(photos.orphanFiles.length, 'arquivo sem registro', 'arquivos sem registro')} (${formatSize(orphanBytes)}); ${countOf(photos.missingFiles.length, 'registro sem arquivo', 'registros sem arquivo')}`,
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
      ? { category: 'SYSTEM', status: 'success', message: 'Nenhum erro de servidor (5xx) nas últimas 24 horas nesta instância', details: { instance: metrics.instance.id } }
      : {
          category: 'SYSTEM',
          status: 'error',
          message: `${countOf(errors.length, 'erro de servidor (5xx) recente', 'erros de servidor (5xx) recentes')} nesta instância`,
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
    return [{ category, status: 'error', message: 'A verificação não pôde ser concluída', details: { error: (error as Error).message } }];
  }
}

async function counters(db: Db): Promise<DiagnosticCounters> {
  const [row] = rowsOf<Record<'administrators' | 'students' | 'transactions' | 'logs', string | number>>(
    await db.execute(sql`
      SELECT (SELECT count(*) FROM admins) AS administrators,
             (SELECT count(*) FROM students WHERE deleted_at IS NULL) AS students,
             (SELECT count(*) FROM ledger_entries) AS transactions,
             (SELECT count(*) FROM diagnostic_logs) AS logs`),
  );
  return { administrators: Number(row?.administrators ?? 0), students: Number(row?.students ?? 0), transactions: Number(row?.transactions ?? 0), logs: Number(row?.logs ?? 0) };
}

export async function runDiagnostics(deps: SystemDeps, actor: AdminActor): Promise<DiagnosticRun> {
  const db = deps.database.db;
  const runId = randomUUID();
  const at = new Date().toISOString();
  const [discrepancies, photos] = await Promise.all([reconcile(db), photoIntegrity(db, deps.storage)]);
  const entries: Entry[] = [];
  entries.push(...(await guarded('CONNECTIVITY', () => connectivity(deps))));
  entries.push(...(await guarded('ADMINISTRATORS', () => administrators(deps, actor))));
  entries.push(...(await guarded('STUDENTS', () => studentChecks(deps, discrepancies, photos))));
  entries.push(...(await guarded('TRANSACTIONS', () => transactionChecks(deps, discrepancies))));
  entries.push(...(await guarded('AUTH', () => authChecks(deps))));
  entries.push(...(await guarded('SYSTEM', () => systemChecks(deps, photos))));
  const logs = await writeLogs(db, runId, entries);
  const fixes = [...new Set(entries.flatMap((entry) => (typeof entry.details?.fix === 'string' ? [entry.details.fix as FixId] : [])))];
  return { runId, at, logs, counters: await counters(db), fixes };
}

export async function listLogs(db: Db, category: DiagnosticCategory | undefined): Promise<DiagnosticLogList> {
  const rows = await db
    .select()
    .from(diagnosticLogs)
    .where(category ? eq(diagnosticLogs.category, category) : undefined)
    .orderBy(desc(diagnosticLogs.at), desc(diagnosticLogs.id))
    .limit(DIAGNOSTIC_LOG_LIMIT);
  return { logs: rows.map(toLog), counters: await counters(db) };
}

export async function clearLogs(db: Db, admin: AdminActor, context: Context): Promise<{ removed: number }> {
  return db.transaction(async (tx) => {
    const removed = (await tx.delete(diagnosticLogs).returning({ id: diagnosticLogs.id })).length;
    await recordAudit(tx, { actor: auditActor(admin), action: 'diagnostics.logs_cleared', ip: context.ip, details: { removed } });
    return { removed };
  });
}

// ---------------------------------------------------------------- fixes

/**
 * Creates the default administrator only when there is none, with a random password
 * returned once: createAdmin looks and creates under the administrators' lock, so two clicks
 * at once (on any instances) create one. Then the diagnostic runs again.
 */
export async function fixAdministrators(deps: SystemDeps, admin: AdminActor, context: Context): Promise<FixAdministratorsResult> {
  const db = deps.database.db;
  const password = randomBytes(12).toString('base64url');
  const email = deps.config.firstAdmin?.email ?? DEFAULT_ADMIN.email;
  const created = await createAdmin({ db }, admin, { name: DEFAULT_ADMIN.name, email, password }, { ip: context.ip, onlyIfNone: true });
  if (created) {
    const message = `Administrador padrão criado: ${created.adminId} (${created.admin.email})`;
    await writeLogs(db, null, [{ category: 'FIX', status: 'success', message, details: { fix: 'administrators', before: 0, after: 1 } }]);
  } else {
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(admins);
    await writeLogs(db, null, [{ category: 'FIX', status: 'info', message: SYSTEM_TEXTS.adminExists, details: { fix: 'administrators', before: n, after: n } }]);
  }
  const run = await runDiagnostics(deps, admin);
  return {
    created: created !== null,
    admin: created && { adminId: created.adminId, name: created.admin.name, email: created.admin.email },
    password: created ? password : null,
    run,
  };
}

type Candidate = { key: string; label: string };

async function expiredTags(db: DbOrTx, settings: SettingsStore): Promise<Candidate[]> {
  // Written in the school's time zone, as every screen writes times (decision 009).
  const { timeZone } = (await settings.get()).school;
  const rows = await db
    .select({ id: studentTags.id, kind: studentTags.kind, expiresAt: studentTags.expiresAt, studentId: students.studentId, name: students.name })
    .from(studentTags)
    .innerJoin(students, eq(students.id, studentTags.studentUuid))
    .where(lte(studentTags.expiresAt, new Date()))
    .orderBy(studentTags.expiresAt, studentTags.id);
  return rows.map((row) => ({
    key: row.id,
    label: `${TAG_NAMES[row.kind as TagKind]} de ${row.name} (${row.studentId}), expirou em ${formatDateTime(row.expiresAt, timeZone)}`,
  }));
}

async function orphanPhotos(deps: SystemDeps): Promise<Candidate[]> {
  const { orphanFiles } = await photoIntegrity(deps.database.db, deps.storage);
  return orphanFiles.map((file) => ({ key: file.key, label: `${file.key} (${formatSize(file.bytes)})` }));
}

const FIXES: Record<FixId, { candidates(deps: SystemDeps): Promise<Candidate[]>; apply(deps: SystemDeps, chosen: Candidate[]): Promise<void>; done: string }> = {
  expired_tags: {
    candidates: (deps) => expiredTags(deps.database.db, deps.settings),
    async apply(deps, chosen) {
      // Only tags still expired: one given again meanwhile (a new expiry) stays.
      await deps.database.db.delete(studentTags).where(and(inArray(studentTags.id, chosen.map((item) => item.key)), lte(studentTags.expiresAt, new Date())));
    },
    done: 'Tags expiradas removidas',
  },
  orphan_photos: {
    candidates: orphanPhotos,
    async apply(deps, chosen) {
      for (const item of chosen) await removePhotoFile(deps.storage, item.key);
    },
    done: 'Arquivos de foto sem registro removidos',
  },
};

export async function previewFix(deps: SystemDeps, fix: FixId): Promise<FixPreview> {
  return { fix, items: await FIXES[fix].candidates(deps) };
}

/**
 * Applies a fix to the keys of its preview that still need it (anything else is ignored,
 * so a repeated or stale confirmation changes nothing more), logged as FIX with the count
 * before and after, and audited.
 */
export async function applyFix(deps: SystemDeps, admin: AdminActor, fix: FixId, keys: string[], context: Context): Promise<FixResult> {
  const definition = FIXES[fix];
  const current = await definition.candidates(deps);
  const wanted = new Set(keys);
  const chosen = current.filter((item) => wanted.has(item.key));
  if (chosen.length > 0) await definition.apply(deps, chosen);
  const after = (await definition.candidates(deps)).length;
  const applied = chosen.length > 0;
  const details = { fix, before: current.length, after, changed: first(chosen.map((item) => item.label)) };
  const db = deps.database.db;
  const [log] = await db.transaction(async (tx) => {
    await recordAudit(tx, { actor: auditActor(admin), action: `diagnostics.fix.${fix}`, ip: context.ip, details: { before: current.length, after, keys: first(chosen.map((item) => item.key)) } });
    return writeLogs(tx, null, [
      applied
        ? { category: 'FIX', status: 'success', message: `${definition.done}: ${chosen.length}`, details }
        : { category: 'FIX', status: 'info', message: SYSTEM_TEXTS.nothingToFix, details },
    ]);
  });
  return { fix, applied: chosen, before: current.length, after, log: log! };
}
