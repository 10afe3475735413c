import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { toCsv } from '../../csv.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type EntityId, type EntityPage, type EntityQuery } from '../../../shared/system.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import { OPERATION_TYPE_LABELS } from '../../../shared/ledger-types.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { dayIn } from '../../../shared/format.ts';
import { nameOrderOf } from '../../views/name-order.ts';

/**
 * The read-only entity browser of the backend panel. Each entity names the columns it shows;
 * none selects a password hash, a session token (or its hash) or an idempotency key, so no
 * page or export can carry one.
 */

type Column = { key: string; label: string; value: SQL };
/** `key`: what tells one row from every other (its primary key), which an export lists first and then reads by. */
type EntityDef = { columns: Column[]; from: SQL; key: SQL; where?: SQL; search: SQL[]; order: SQL };

/** Instants as ISO 8601 in UTC, the same text from both drivers. */
const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const col = (key: string, label: string, value: SQL): Column => ({ key, label, value });

/** A code column shown (and searched) by its pt-BR name, from the shared constant that names it everywhere. */
function labelled(column: SQL, labels: Record<string, string>): SQL {
  const cases = Object.entries(labels).map(([code, label]) => sql`WHEN ${code} THEN ${label}`);
  return sql`(CASE ${column} ${sql.join(cases, sql` `)} ELSE ${column} END)`;
}

/** A student's and a tag's state, as the query names it and as the browser shows it. */
const STUDENT_STATES = { active: 'ativo', removed: 'removido' };
const TAG_STATES = { active: 'ativa', expired: 'expirada' };

function ledgerEntity(currency: 'meritus' | 'estelecas'): EntityDef {
  const type = labelled(sql`e.type`, OPERATION_TYPE_LABELS);
  const party = (alias: string) =>
    sql.raw(`CASE WHEN ${alias}.id IS NULL THEN NULL ELSE ${alias}.student_id || ' · ' || ${alias}.name END`);
  return {
    columns: [
      col('createdAt', 'Data', iso(sql`e.created_at`)),
      col('type', 'Tipo', type),
      col('amount', 'Valor', sql`e.amount`),
      col('from', 'De', party('f')),
      col('to', 'Para', party('t')),
      col('description', 'Descrição', sql`e.description`),
      col('actor', 'Responsável', sql`e.actor_name`),
      col('id', 'ID', sql`e.id::text`),
    ],
    from: sql`ledger_entries e LEFT JOIN students f ON f.id = e.from_student_id LEFT JOIN students t ON t.id = e.to_student_id`,
    key: sql`e.id`,
    where: sql`e.currency = ${currency}`,
    search: [sql`e.description`, sql`e.actor_name`, type, sql`f.name`, sql`f.student_id`, sql`t.name`, sql`t.student_id`],
    order: sql`e.created_at DESC, e.id DESC`,
  };
}

const ENTITIES: Record<EntityId, EntityDef> = {
  students: {
    columns: [
      col('studentId', 'Matrícula', sql`s.student_id`),
      col('name', 'Nome', sql`s.name`),
      col('grade', 'Turma', sql`t.name`),
      col('email', 'Email', sql`s.email`),
      col('meritus', 'Méritus', sql`s.meritus`),
      col('estelecas', 'Estelecas', sql`s.estelecas`),
      col('totalEarned', 'Total ganho', sql`s.total_earned`),
      col('lastLogin', 'Último acesso', iso(sql`s.last_login`)),
      col('createdAt', 'Criado em', iso(sql`s.created_at`)),
      col('status', 'Situação', labelled(sql`CASE WHEN s.deleted_at IS NULL THEN 'active' ELSE 'removed' END`, STUDENT_STATES)),
    ],
    from: sql`students s JOIN turmas t ON t.id = s.turma_id`,
    key: sql`s.id`,
    search: [sql`s.student_id`, sql`s.name`, sql`s.email`, sql`t.name`],
    order: sql`s.deleted_at IS NOT NULL, ${nameOrderOf(sql`s.name`)}, s.id`,
  },
  administrators: {
    columns: [
      col('adminId', 'ID', sql`a.admin_id`),
      col('name', 'Nome', sql`a.name`),
      col('email', 'Email', sql`a.email`),
      col('role', 'Papel', sql`a.role`),
      col('active', 'Ativo', sql`CASE WHEN a.active THEN 'sim' ELSE 'não' END`),
      col('lastLogin', 'Último acesso', iso(sql`a.last_login`)),
      col('createdAt', 'Criado em', iso(sql`a.created_at`)),
    ],
    from: sql`admins a`,
    key: sql`a.id`,
    search: [sql`a.admin_id`, sql`a.name`, sql`a.email`, sql`a.role`],
    order: sql`${nameOrderOf(sql`a.name`)}, a.id`,
  },
  meritus_ledger: ledgerEntity('meritus'),
  estelecas_ledger: ledgerEntity('estelecas'),
  refused_attempts: {
    columns: [
      col('at', 'Data', iso(sql`l.at`)),
      col('actor', 'Quem', sql`l.actor_label`),
      col('currency', 'Moeda', sql`l.details->>'currency'`),
      col('type', 'Tipo', sql`l.details->>'type'`),
      col('amount', 'Valor enviado', sql`COALESCE(l.details->>'amount', l.details->>'rawAmount')`),
      col('reason', 'Motivo', sql`l.details->>'reason'`),
      col('description', 'Descrição', sql`l.details->>'description'`),
      col('ip', 'IP', sql`l.ip`),
    ],
    from: sql`audit_log l`,
    key: sql`l.id`,
    where: sql`l.action = 'ledger.refused'`,
    search: [sql`l.actor_label`, sql`l.details->>'reason'`, sql`l.details->>'description'`, sql`l.details->>'type'`],
    order: sql`l.at DESC, l.id DESC`,
  },
  tags: {
    columns: [
      col('studentId', 'Matrícula', sql`s.student_id`),
      col('student', 'Estudante', sql`s.name`),
      col('kind', 'Tag', labelled(sql`g.kind`, TAG_NAMES)),
      col('assignedAt', 'Atribuída em', iso(sql`g.assigned_at`)),
      col('expiresAt', 'Expira em', iso(sql`g.expires_at`)),
      col('status', 'Situação', labelled(sql`CASE WHEN g.expires_at > now() THEN 'active' ELSE 'expired' END`, TAG_STATES)),
    ],
    from: sql`student_tags g JOIN students s ON s.id = g.student_id`,
    key: sql`g.id`,
    search: [sql`s.name`, sql`s.student_id`, labelled(sql`g.kind`, TAG_NAMES)],
    order: sql`g.assigned_at DESC, g.id`,
  },
  sessions: {
    columns: [
      col('kind', 'Tipo', sql`CASE WHEN x.student_id IS NULL THEN 'administrador' ELSE 'estudante' END`),
      col('owner', 'Usuário', sql`COALESCE(s.student_id || ' · ' || s.name, a.email)`),
      col('createdAt', 'Início', iso(sql`x.created_at`)),
      col('lastSeenAt', 'Último uso', iso(sql`x.last_seen_at`)),
      col('expiresAt', 'Expira em', iso(sql`x.expires_at`)),
      col('ip', 'IP', sql`x.ip`),
      col('userAgent', 'Navegador', sql`x.user_agent`),
    ],
    from: sql`sessions x LEFT JOIN students s ON s.id = x.student_id LEFT JOIN admins a ON a.id = x.admin_id`,
    key: sql`x.token_hash`,
    search: [sql`s.name`, sql`s.student_id`, sql`a.email`, sql`a.name`, sql`x.ip`, sql`x.user_agent`],
    order: sql`x.last_seen_at DESC, x.created_at DESC, x.token_hash`,
  },
  audit: {
    columns: [
      col('at', 'Data', iso(sql`l.at`)),
      col('actorKind', 'Tipo de autor', sql`l.actor_kind`),
      col('actor', 'Autor', sql`l.actor_label`),
      col('action', 'Ação', sql`l.action`),
      col('ip', 'IP', sql`l.ip`),
      col('details', 'Detalhes', sql`l.details::text`),
    ],
    from: sql`audit_log l`,
    key: sql`l.id`,
    search: [sql`l.action`, sql`l.actor_label`, sql`l.ip`, sql`l.details::text`],
    order: sql`l.at DESC, l.id DESC`,
  },
  diagnostic_logs: {
    columns: [
      col('at', 'Data', iso(sql`d.at`)),
      col('category', 'Categoria', sql`d.category`),
      col('status', 'Situação', sql`d.status`),
      col('message', 'Mensagem', sql`d.message`),
      col('details', 'Detalhes', sql`d.details::text`),
    ],
    from: sql`diagnostic_logs d`,
    key: sql`d.id`,
    search: [sql`d.category`, sql`d.status`, sql`d.message`, sql`d.details::text`],
    order: sql`d.at DESC, d.id DESC`,
  },
};

/** Search text as a LIKE pattern that matches it anywhere, its own % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function whereOf(def: EntityDef, q: string): SQL {
  const conditions: SQL[] = [];
  if (def.where) conditions.push(def.where);
  if (q) {
    const pattern = containsPattern(q);
    conditions.push(
      sql`(${sql.join(
        def.search.map((expr) => sql`${expr} ILIKE ${pattern}`),
        sql` OR `,
      )})`,
    );
  }
  return conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
}

type Cell = string | number | boolean | null;

function selectList(def: EntityDef): SQL {
  return sql.join(
    def.columns.map((column) => sql`${column.value} AS ${sql.identifier(column.key)}`),
    sql`, `,
  );
}

function selectRows(db: Db, def: EntityDef, q: string, limit: number, offset: number): Promise<Record<string, Cell>[]> {
  return db
    .execute(sql`SELECT ${selectList(def)} FROM ${def.from} ${whereOf(def, q)} ORDER BY ${def.order} LIMIT ${limit} OFFSET ${offset}`)
    .then((result) => rowsOf<Record<string, Cell>>(result));
}

/** The rows of these keys, in the keys' order; a row removed since it was listed is left out. */
function selectRowsByKey(db: Db, def: EntityDef, rowKeys: string[]): Promise<Record<string, Cell>[]> {
  return db
    .execute(
      sql`SELECT ${selectList(def)} FROM ${def.from}
        JOIN jsonb_array_elements_text(${JSON.stringify(rowKeys)}::jsonb) WITH ORDINALITY AS listed(key, position) ON listed.key = ${def.key}::text
        ORDER BY listed.position`,
    )
    .then((result) => rowsOf<Record<string, Cell>>(result));
}

export async function entityPage(db: Db, entity: EntityId, query: EntityQuery): Promise<EntityPage> {
  const def = ENTITIES[entity];
  const [rows, [total]] = await Promise.all([
    selectRows(db, def, query.q, query.pageSize, (query.page - 1) * query.pageSize),
    db
      .execute(sql`SELECT count(*) AS n FROM ${def.from} ${whereOf(def, query.q)}`)
      .then((result) => rowsOf<{ n: string | number }>(result)),
  ]);
  return {
    entity,
    columns: def.columns.map(({ key, label }) => ({ key, label })),
    rows,
    total: Number(total?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Rows of an export read at a time (exported for the test that crosses a page). */
export const EXPORT_PAGE = 5000;

/** Every row matching the search as CSV, a page at a time; the export is audited. */
export async function exportEntityCsv(
  db: Db,
  admin: AdminActor,
  entity: EntityId,
  q: string,
  context: { ip?: string; timeZone: string },
): Promise<{ fileName: string; chunks: AsyncGenerator<string> }> {
  const def = ENTITIES[entity];
  await recordAudit(db, { actor: auditActor(admin), action: 'system.entity_export', ip: context.ip, details: { entity, q } });
  const keys = def.columns.map((column) => column.key);
  async function* chunks(): AsyncGenerator<string> {
    yield toCsv(
      def.columns.map((column) => column.label),
      [],
    );
    // The rows as they are now, listed once: read by offset, a row written or removed between two pages would shift
    // the next one, and the file would repeat or leave out rows of a table in use (the audit log, the ledger).
    const rowKeys = rowsOf<{ key: string }>(
      await db.execute(sql`SELECT ${def.key}::text AS key FROM ${def.from} ${whereOf(def, q)} ORDER BY ${def.order}`),
    ).map((row) => row.key);
    for (let start = 0; start < rowKeys.length; start += EXPORT_PAGE) {
      const rows = await selectRowsByKey(db, def, rowKeys.slice(start, start + EXPORT_PAGE));
      if (rows.length > 0)
        yield toCsv(
          [],
          rows.map((row) => keys.map((key) => toCsvCell(row[key] ?? null))),
          { bom: false },
        );
    }
  }
  // Named by the school's day, as the rows' times are.
  return { fileName: `${entity}-${dayIn(context.timeZone, new Date())}.csv`, chunks: chunks() };
}

function toCsvCell(value: Cell): string | number | null {
  return typeof value === 'boolean' ? (value ? 'sim' : 'não') : value;
}
