import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { HONOUR_CATEGORIES } from '../../shared/hall-of-fame-texts.ts';
import { LEDGER_TYPES } from '../../shared/ledger-types.ts';
import { SIGN_IN_PROVIDERS } from '../../shared/school-accounts.ts';
import { LIMIT_PERIODS, ORDER_STATUSES, STORE_CATEGORIES } from '../../shared/store.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const admins = pgTable(
  'admins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: text('admin_id').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** What the staff member may do (src/shared/permissions.ts): 'coordinator' (everything) or 'teacher' (their turmas). */
    role: text('role').notNull().default('coordinator'),
    /** A deactivated member cannot sign in and has no session; their name stays on what they did. */
    active: boolean('active').notNull().default(true),
    /** How much a teacher may award per week, in each currency; null: no limit. */
    weeklyBudgetMeritus: integer('weekly_budget_meritus'),
    weeklyBudgetEstelecas: integer('weekly_budget_estelecas'),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('admins_admin_id_key').on(t.adminId),
    uniqueIndex('admins_email_key').on(sql`lower(${t.email})`),
    check('admins_role_known', sql`${t.role} IN ('coordinator', 'teacher')`),
    check('admins_budget_not_negative', sql`${t.weeklyBudgetMeritus} >= 0 AND ${t.weeklyBudgetEstelecas} >= 0`),
  ],
);

/** The turmas a teacher teaches: their students are the ones the teacher sees and awards (a coordinator sees every turma). */
export const staffTurmas = pgTable(
  'staff_turmas',
  {
    adminId: uuid('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    turmaId: uuid('turma_id')
      .notNull()
      .references(() => turmas.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.turmaId] }), index('staff_turmas_turma_idx').on(t.turmaId)],
);

/**
 * Balances change often: no index may cover them, so updates stay HOT (fillfactor 80, migration 0003).
 * A student's turma is a reference (decision 013); the API shows its name as the student's `grade`.
 */
export const students = pgTable(
  'students',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studentId: text('student_id').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    turmaId: uuid('turma_id')
      .notNull()
      .references(() => turmas.id),
    birthDate: date('birth_date', { mode: 'string' }),
    /** Path of a stored upload (served under /uploads) or an external URL. */
    photoUrl: text('photo_url'),
    /** Bumped on every photo change; appended to the URL so caches refetch. */
    photoVersion: integer('photo_version').notNull().default(0),
    passwordHash: text('password_hash').notNull(),
    /**
     * The password was given by the staff (a reset, access cards): under the school's rule the student must choose their
     * own before using the area. Cleared when they do.
     */
    temporaryPassword: boolean('temporary_password').notNull().default(false),
    meritus: integer('meritus').notNull().default(0),
    totalEarned: integer('total_earned').notNull().default(0),
    estelecas: integer('estelecas').notNull().default(0),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /** 'Não aparecer no ranking': the student's own choice, in effect while the school allows it (decision 029). */
    rankingHidden: boolean('ranking_hidden').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Removed students keep their ledger rows; they leave every list and cannot sign in. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Why a student left at a year's rollover (decision 031): 'graduated' or 'left'; they are removed (deletedAt) then. */
    departure: text('departure', { enum: ['graduated', 'left'] }),
    /** The signed image-consent form is on file: other students see the photo (without it, the initials; decision 030). */
    imageConsent: boolean('image_consent').notNull().default(false),
    /** Personal data erased (decision 030): the row stays for the ledger, as 'Aluno removido #{erasureNumber}'. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    erasureNumber: integer('erasure_number'),
  },
  (t) => [
    uniqueIndex('students_student_id_active_key')
      .on(t.studentId)
      .where(sql`${t.deletedAt} IS NULL`),
    // A sign-in with a school account finds its student by email (case folded), among those not removed.
    index('students_email_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.deletedAt} IS NULL`),
    check('students_meritus_nonnegative', sql`${t.meritus} >= 0`),
    check('students_total_earned_nonnegative', sql`${t.totalEarned} >= 0`),
    check('students_estelecas_nonnegative', sql`${t.estelecas} >= 0`),
    check(
      'students_departure_removed',
      sql`${t.departure} IS NULL OR (${t.departure} IN ('graduated', 'left') AND ${t.deletedAt} IS NOT NULL)`,
    ),
    uniqueIndex('students_erasure_number_key').on(t.erasureNumber),
    // The photo route finds whose photo a file is, to refuse it to other students without consent (decision 030).
    index('students_photo_url_idx')
      .on(t.photoUrl)
      .where(sql`${t.photoUrl} IS NOT NULL`),
    check('students_erased_numbered', sql`(${t.erasedAt} IS NULL) = (${t.erasureNumber} IS NULL)`),
  ],
);

export const studentTags = pgTable(
  'student_tags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    studentUuid: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['leader', 'counselor', 'angel'] }).notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    assignedBy: uuid('assigned_by').references(() => admins.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('student_tags_student_kind_key').on(t.studentUuid, t.kind), index('student_tags_expires_idx').on(t.expiresAt)],
);

export const tagLikes = pgTable(
  'tag_likes',
  {
    tagId: uuid('tag_id')
      .notNull()
      .references(() => studentTags.id, { onDelete: 'cascade' }),
    studentUuid: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.studentUuid] })],
);

/**
 * The item of the Loja a student chose as their goal (issue 35): one per student, kept on the server so it follows them
 * to another device. Deleting the item (one without orders) or the student drops it.
 */
export const studentStoreGoals = pgTable(
  'student_store_goals',
  {
    studentUuid: uuid('student_id')
      .primaryKey()
      .references(() => students.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => storeItems.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('student_store_goals_item_idx').on(t.itemId)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    studentUuid: uuid('student_id').references(() => students.id, { onDelete: 'cascade' }),
    adminId: uuid('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    guardianId: uuid('guardian_id').references((): AnyPgColumn => guardians.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('sessions_student_idx').on(t.studentUuid),
    index('sessions_admin_idx').on(t.adminId),
    index('sessions_guardian_idx').on(t.guardianId),
    check('sessions_one_owner', sql`num_nonnulls(${t.studentUuid}, ${t.adminId}, ${t.guardianId}) = 1`),
  ],
);

/**
 * Sessions a student's password reset ended (keyed like `sessions`), so a request still carrying one's cookie is told
 * why it is signed out ('session_password_reset') rather than only that it is. Kept while such a session could have
 * lived (SESSION_ABSOLUTE_MS), then swept.
 */
export const passwordResetSessions = pgTable('password_reset_sessions', {
  tokenHash: text('token_hash').primaryKey(),
  endedAt: timestamp('ended_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A sign-in with a school account under way (OpenID Connect): written when the browser is sent to the provider, taken
 * (deleted) by the callback, so each state is used once, on whichever server instance the callback reaches. Keyed by
 * the SHA-256 of the state, which only the browser's cookie and the provider's redirect carry.
 */
export const oidcStates = pgTable(
  'oidc_states',
  {
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider', { enum: SIGN_IN_PROVIDERS }).notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oidc_states_expires_idx').on(t.expiresAt)],
);

/**
 * Failed sign-ins of an account ("student:2024001", "admin:ana@escola.br") from an address,
 * counted by the sign-in limits (LOGIN_LIMITS). A row is written `pending` before the
 * password is checked, so concurrent guesses on one account from one address count
 * against each other; it becomes a failure, or is deleted when the password was right.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountKey: text('account_key').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    pending: boolean('pending').notNull().default(false),
  },
  (t) => [index('login_failures_account_idx').on(t.accountKey, t.at), index('login_failures_ip_idx').on(t.ip, t.at)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorKind: text('actor_kind', { enum: ['student', 'admin', 'system', 'anonymous', 'guardian'] }).notNull(),
    actorId: uuid('actor_id'),
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at.desc().nullsFirst()),
    index('audit_log_action_at_idx').on(t.action, t.at.desc().nullsFirst()),
    // The entries about one student: their access log, their export, and what an erasure scrubs (decision 030).
    index('audit_log_student_idx')
      .on(sql`(${t.details}->>'studentUuid')`, t.at.desc().nullsFirst())
      .where(sql`${t.details} ? 'studentUuid'`),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    currency: text('currency', { enum: ['meritus', 'estelecas'] }).notNull(),
    type: text('type', { enum: LEDGER_TYPES }).notNull(),
    amount: integer('amount').notNull(),
    description: text('description').notNull(),
    fromStudentId: uuid('from_student_id').references(() => students.id),
    toStudentId: uuid('to_student_id').references(() => students.id),
    actorKind: text('actor_kind', { enum: ['student', 'admin', 'system'] }).notNull(),
    actorAdminId: uuid('actor_admin_id').references(() => admins.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    /** Groups the rows of one bulk operation (a whole turma awarded at once). */
    batchId: uuid('batch_id'),
    /**
     * A reversal's row (type 'reversal'): the row it takes back, once (unique: a second
     * reversal of the same row fails in the database even when two arrive at once). A row
     * whose id some row names here has been reversed (decision 025).
     */
    reversesEntryId: uuid('reverses_entry_id').references((): AnyPgColumn => ledgerEntries.id),
    /** Why a reversal was made, as its author wrote it (required for a reversal, absent otherwise). */
    reversalReason: text('reversal_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_reverses_entry_key').on(t.reversesEntryId),
    // The reports' line of reversals in a period reads them alone.
    index('ledger_reversals_created_idx')
      .on(t.createdAt)
      .where(sql`${t.reversesEntryId} IS NOT NULL`),
    check(
      'ledger_reversal_reference',
      sql`(${t.type} = 'reversal') = (${t.reversesEntryId} IS NOT NULL) AND (${t.type} = 'reversal') = (${t.reversalReason} IS NOT NULL)`,
    ),
    index('ledger_from_idx').on(t.fromStudentId, t.currency, t.createdAt.desc().nullsFirst()),
    index('ledger_to_idx').on(t.toStudentId, t.currency, t.createdAt.desc().nullsFirst()),
    index('ledger_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('ledger_currency_created_idx').on(t.currency, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // A staff member's rows: their week's awards (the budget, summed under their lock) and the author filters.
    index('ledger_actor_admin_idx')
      .on(t.actorAdminId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.actorAdminId} IS NOT NULL`),
    check('ledger_amount_positive', sql`${t.amount} > 0`),
    // The parties of each type's direction (ledger_type_sign(), migrations 0015 and 0017); a type it does not know is
    // refused. A reversal has its reversed row's parties swapped (ledger_reversal() in ledger.sql): one or two.
    check(
      'ledger_parties_match_type',
      sql`CASE ledger_type_sign(${t.type})
        WHEN 0 THEN ${t.fromStudentId} IS NOT NULL AND ${t.toStudentId} IS NOT NULL AND ${t.fromStudentId} <> ${t.toStudentId}
        WHEN 1 THEN ${t.fromStudentId} IS NULL AND ${t.toStudentId} IS NOT NULL
        WHEN -1 THEN ${t.fromStudentId} IS NOT NULL AND ${t.toStudentId} IS NULL
        WHEN 2 THEN (${t.fromStudentId} IS NOT NULL OR ${t.toStudentId} IS NOT NULL) AND ${t.fromStudentId} IS DISTINCT FROM ${t.toStudentId}
        ELSE false END`,
    ),
  ],
);

/**
 * The ledger's rows not yet added to the reports' sums (decision 011): ledger.sql's triggers
 * queue each row written (sign 1) or deleted (sign -1) here, in the write's transaction, with
 * the turma it counts in at that moment; ledger_sums_fold() adds them to the sums, a batch at
 * a time, before a report reads them and every second. No index: a fold takes every row
 * there is, in any order (adding commutes), and a write pays for no index entry.
 */
export const ledgerSumsPending = pgTable('ledger_sums_pending', {
  sign: smallint('sign').notNull(),
  /** No foreign key: a write pays for no look-up (the turma is read from the student's row). */
  turmaId: uuid('turma_id').notNull(),
  currency: text('currency', { enum: ['meritus', 'estelecas'] }).notNull(),
  type: text('type', { enum: LEDGER_TYPES }).notNull(),
  amount: integer('amount').notNull(),
  /** The reason without surrounding spaces, for awards and penalties (null for transfers). */
  description: text('description'),
  fromStudentId: uuid('from_student_id'),
  toStudentId: uuid('to_student_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The ledger summed for the reports (decision 011), kept from the rows queued by ledger.sql's
 * triggers (ledger_sums_pending). Days are UTC calendar days, whatever the school's time
 * zone: a report adds the rows between its last UTC midnight and its bound from the ledger.
 *
 * Per student, what the student's ledger rows add up to from the beginning through the end of
 * `day` (one row per day with rows): a balance or a period's total is two index look-ups per student.
 */
export const ledgerStudentDays = pgTable(
  'ledger_student_days',
  {
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id),
    day: date('day', { mode: 'string' }).notNull(),
    meritusAwarded: bigint('m_awarded', { mode: 'number' }).notNull(),
    meritusRemoved: bigint('m_removed', { mode: 'number' }).notNull(),
    meritusIn: bigint('m_in', { mode: 'number' }).notNull(),
    meritusOut: bigint('m_out', { mode: 'number' }).notNull(),
    estelecasAwarded: bigint('e_awarded', { mode: 'number' }).notNull(),
    estelecasRemoved: bigint('e_removed', { mode: 'number' }).notNull(),
    estelecasIn: bigint('e_in', { mode: 'number' }).notNull(),
    estelecasOut: bigint('e_out', { mode: 'number' }).notNull(),
    /** Transfers sent (both currencies). */
    sentOps: bigint('sent_ops', { mode: 'number' }).notNull(),
    /** Rows the student is a party of. */
    ops: bigint('ops', { mode: 'number' }).notNull(),
    /**
     * Spent in the Loja (decision 026): purchases and contributions, less the refunds that gave them back. Never in the
     * awarded or removed columns: the balance is awarded − removed + in − out − spent.
     */
    meritusSpent: bigint('m_spent', { mode: 'number' }).notNull().default(0),
    estelecasSpent: bigint('e_spent', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.day] })],
);

/**
 * Per turma and UTC day, the Méritus of that day's rows (not cumulative), each row counted in
 * the turma of its sender, or of its recipient when it has no sender, as the reports filter.
 * A student who changes turma takes their rows along (trigger on students.turma_id).
 * A turma's day is split in slots, one picked by each row's student (ledger_student_slot() in
 * ledger.sql), from when transfers updated these rows in their own transactions and queued on
 * one row's lock (migration 0011; the fold now writes them, one fold at a time); a day's sum is
 * the sum of its slots.
 */
export const ledgerTurmaDays = pgTable(
  'ledger_turma_days',
  {
    turmaId: uuid('turma_id')
      .notNull()
      .references(() => turmas.id),
    day: date('day', { mode: 'string' }).notNull(),
    meritusAwarded: bigint('m_awarded', { mode: 'number' }).notNull(),
    meritusRemoved: bigint('m_removed', { mode: 'number' }).notNull(),
    meritusTransferred: bigint('m_transferred', { mode: 'number' }).notNull(),
    slot: smallint('slot').notNull().default(0),
    /** Spent in the Loja, less refunds (as ledger_student_days.m_spent). */
    meritusSpent: bigint('m_spent', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.turmaId, t.day, t.slot] })],
);

/**
 * Per turma, kind ('award' or 'penalty', both currencies) and reason (the description without
 * surrounding spaces), the operations and amounts of a UTC day (span 'd') and of a UTC month
 * (span 'm', starting on its first day), not cumulative: a period reads its whole months and
 * the days at either end. Turmas as in ledger_turma_days.
 */
export const ledgerReasonSums = pgTable(
  'ledger_reason_sums',
  {
    span: text('span', { enum: ['d', 'm'] }).notNull(),
    start: date('start', { mode: 'string' }).notNull(),
    turmaId: uuid('turma_id')
      .notNull()
      .references(() => turmas.id),
    kind: text('kind', { enum: ['award', 'penalty'] }).notNull(),
    description: text('description').notNull(),
    operations: bigint('ops', { mode: 'number' }).notNull(),
    meritus: bigint('meritus', { mode: 'number' }).notNull(),
    estelecas: bigint('estelecas', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.span, t.start, t.turmaId, t.kind, t.description] })],
);

/** One row per (user, Idempotency-Key): the first response, replayed on repeats. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    actorKey: text('actor_key').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    /** As text (json): a stored answer is only ever replayed whole, and text is a fifth smaller than jsonb in every write's WAL. */
    response: json('response').notNull(),
    createdAt: createdAt(),
  },
  // No index on created_at: the sweep of day-old keys reads the table every five minutes, where
  // the index cost every write an entry on its busiest page.
  (t) => [primaryKey({ columns: [t.actorKey, t.key] })],
);

/** Targets of the admin dashboard's goals panel, kept by administrators. */
export const goals = pgTable('goals', {
  id: text('id').primaryKey(),
  label: text('label').notNull(),
  target: integer('target').notNull(),
  updatedAt: updatedAt(),
});

/** Reasons an administrator reuses when awarding or deducting. */
export const reasonPresets = pgTable('reason_presets', {
  id: uuid('id').primaryKey().defaultRandom(),
  label: text('label').notNull(),
  createdBy: uuid('created_by').references(() => admins.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * Results of the diagnostic checks and fixes (Debug & Diagnóstico): in the database, so they
 * survive restarts and every instance sees the same list. `runId` groups one run's entries.
 */
export const diagnosticLogs = pgTable(
  'diagnostic_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    runId: uuid('run_id'),
    category: text('category', { enum: ['CONNECTIVITY', 'ADMINISTRATORS', 'STUDENTS', 'TRANSACTIONS', 'AUTH', 'SYSTEM', 'FIX'] }).notNull(),
    status: text('status', { enum: ['success', 'warning', 'error', 'info'] }).notNull(),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('diagnostic_logs_at_idx').on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check(
      'diagnostic_logs_category_known',
      sql`${t.category} IN ('CONNECTIVITY', 'ADMINISTRATORS', 'STUDENTS', 'TRANSACTIONS', 'AUTH', 'SYSTEM', 'FIX')`,
    ),
    check('diagnostic_logs_status_known', sql`${t.status} IN ('success', 'warning', 'error', 'info')`),
  ],
);

/* ──────────── Image archive (Data-Base, spec 2.7) ──────────── */

/**
 * One stored file of the archive. `fileKey` is random and names the stored objects
 * (archive/{fileKey}/…) and the file URLs, so they cannot be guessed from the id or the
 * content; `contentHash` (SHA-256 of the bytes as uploaded, before their metadata was removed)
 * keeps identical files stored once: the same photo sent twice is found by it.
 * `searchText` is name, description, tags and uploader folded (no accents, lower case),
 * written by the service, for the search box.
 */
export const archiveImages = pgTable(
  'archive_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileKey: text('file_key').notNull(),
    contentHash: text('content_hash').notNull(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    kind: text('kind', { enum: ['image', 'video', 'audio', 'document'] }).notNull(),
    fileSize: integer('file_size').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** The WebP thumbnail and preview exist (images that decoded). */
    hasVariants: boolean('has_variants').notNull().default(false),
    description: text('description').notNull().default(''),
    category: text('category').notNull().default('galeria'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    albumId: text('album_id'),
    albumName: text('album_name'),
    accessLevel: text('access_level', { enum: ['public', 'restricted', 'private', 'admin'] })
      .notNull()
      .default('public'),
    isActive: boolean('is_active').notNull().default(true),
    isFeatured: boolean('is_featured').notNull().default(false),
    usageCount: integer('usage_count').notNull().default(0),
    downloadCount: integer('download_count').notNull().default(0),
    lastAccessedAt: timestamp('last_accessed_at', { withTimezone: true }),
    /** An administrator's id, or 'unknown'; name and email kept as they were at upload. */
    uploadedBy: text('uploaded_by').notNull().default('unknown'),
    uploaderName: text('uploader_name'),
    uploaderEmail: text('uploader_email'),
    /** Random token of /share/image/{token}; null when the link was revoked or never made. */
    shareToken: text('share_token'),
    searchText: text('search_text').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('archive_images_file_key_key').on(t.fileKey),
    uniqueIndex('archive_images_content_hash_key').on(t.contentHash),
    uniqueIndex('archive_images_share_token_key').on(t.shareToken),
    // One index per sort of the list (with the id as tie-breaker), so a page is an index range at 10,000 images.
    index('archive_images_created_idx').on(t.createdAt, t.id),
    // By name in Portuguese collation (decision 027), the order of the list's sort by name.
    index('archive_images_name_idx').on(sql`${t.fileName} COLLATE "und-x-icu"`, t.id),
    index('archive_images_size_idx').on(t.fileSize, t.id),
    index('archive_images_usage_idx').on(t.usageCount, t.id),
    index('archive_images_downloads_idx').on(t.downloadCount, t.id),
    index('archive_images_category_idx').on(t.category, t.createdAt),
    index('archive_images_uploader_idx').on(t.uploadedBy),
    // The search box matches anywhere in the folded text (LIKE '%…%'): trigrams (pg_trgm) find the rows without reading them all.
    // fastupdate off: PGlite runs no autovacuum, so rows queued in GIN's pending list would be read one by one by every search.
    index('archive_images_search_idx').using('gin', t.searchText.op('gin_trgm_ops')).with({ fastupdate: false }),
    check(
      'archive_images_category_known',
      sql`${t.category} IN ('perfil', 'banner', 'icone', 'ilustracao', 'documento', 'biblioteca', 'galeria', 'outros')`,
    ),
    check('archive_images_access_level_known', sql`${t.accessLevel} IN ('public', 'restricted', 'private', 'admin')`),
    check('archive_images_kind_known', sql`${t.kind} IN ('image', 'video', 'audio', 'document')`),
    check('archive_images_counters_nonnegative', sql`${t.usageCount} >= 0 AND ${t.downloadCount} >= 0 AND ${t.fileSize} > 0`),
  ],
);

/** Favourites of each administrator (spec: page memory; here they follow the teacher across devices). */
export const archiveFavourites = pgTable(
  'archive_favourites',
  {
    adminUuid: uuid('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => archiveImages.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.adminUuid, t.imageId] }), index('archive_favourites_image_idx').on(t.imageId)],
);

// ---------------------------------------------------------------- settings (issue 13, decision 009)

/**
 * The school's settings (/admin/settings): at most one row (id 1); without it every value is
 * its default (shared/settings.ts). The rules are one jsonb object, read through their zod
 * schema, so a rule added later needs no migration and starts at its default.
 */
export const schoolSettings = pgTable(
  'school_settings',
  {
    id: integer('id').primaryKey().default(1),
    name: text('name').notNull(),
    logoUrl: text('logo_url'),
    timeZone: text('time_zone').notNull(),
    rules: jsonb('rules').$type<Record<string, unknown>>().notNull().default({}),
    /** The privacy page's contact and the retention of inactive students (schoolPrivacy in src/shared/lgpd.ts; decision 030). */
    privacy: jsonb('privacy').$type<Record<string, unknown>>().notNull().default({}),
    updatedBy: uuid('updated_by').references(() => admins.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (t) => [check('school_settings_one_row', sql`${t.id} = 1`)],
);

/**
 * The school's turmas, in their order. Students and the reports' sums reference a turma by
 * its id (decision 013), so a rename changes this row alone. A retired turma keeps its
 * students and history and takes no new students; only a turma nothing keeps is deleted (decision 033).
 */
export const turmas = pgTable(
  'turmas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('turmas_name_key').on(sql`lower(${t.name})`)],
);

// ---------------------------------------------------------------- the Loja (issue 35, decision 026)

/**
 * An item of the Loja. `taken` counts the units of its orders pending or delivered (a refused or cancelled order gives its
 * unit back): the purchase raises it in its transaction, and the CHECK keeps it within the stock whatever the code does,
 * so the last unit goes to one buyer. A turma goal (category 'turma') has a goal and a deadline instead of a price,
 * stock and limit. The days are calendar days of the school's time zone.
 */
export const storeItems = pgTable(
  'store_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    imageId: uuid('image_id').references(() => archiveImages.id, { onDelete: 'set null' }),
    category: text('category', { enum: STORE_CATEGORIES }).notNull(),
    currency: text('currency', { enum: ['meritus', 'estelecas'] }).notNull(),
    price: integer('price'),
    goal: integer('goal'),
    deadline: date('deadline', { mode: 'string' }),
    /** Null: ilimitado. */
    stock: integer('stock'),
    taken: integer('taken').notNull().default(0),
    limitCount: integer('limit_count'),
    limitPeriod: text('limit_period', { enum: LIMIT_PERIODS }),
    availableFrom: date('available_from', { mode: 'string' }),
    availableUntil: date('available_until', { mode: 'string' }),
    active: boolean('active').notNull().default(true),
    /** The catalogue's order (0 first). */
    position: integer('position').notNull().default(0),
    createdBy: uuid('created_by').references(() => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('store_items_position_idx').on(t.position, t.createdAt),
    // What a turma goal's progress references (store_goal_progress), so a change of the goal reaches it.
    unique('store_items_id_goal_key').on(t.id, t.goal),
    check('store_items_category_known', sql`${t.category} IN ('privilege', 'material', 'experience', 'turma')`),
    check('store_items_currency_known', sql`${t.currency} IN ('meritus', 'estelecas')`),
    check('store_items_taken_within_stock', sql`${t.taken} >= 0 AND (${t.stock} IS NULL OR ${t.taken} <= ${t.stock})`),
    check('store_items_stock_nonnegative', sql`${t.stock} >= 0`),
    check(
      'store_items_limit_whole',
      sql`(${t.limitCount} IS NULL) = (${t.limitPeriod} IS NULL) AND ${t.limitCount} >= 1 AND ${t.limitPeriod} IN ('week', 'month', 'year', 'ever')`,
    ),
    check('store_items_period_order', sql`${t.availableFrom} <= ${t.availableUntil}`),
    check(
      'store_items_price_or_goal',
      sql`CASE WHEN ${t.category} = 'turma'
        THEN ${t.price} IS NULL AND ${t.goal} IS NOT NULL AND ${t.goal} > 0 AND ${t.deadline} IS NOT NULL AND ${t.stock} IS NULL AND ${t.limitCount} IS NULL
        ELSE ${t.price} IS NOT NULL AND ${t.price} > 0 AND ${t.goal} IS NULL AND ${t.deadline} IS NULL END`,
    ),
  ],
);

/** The turmas that may buy an item; none: every turma. */
export const storeItemTurmas = pgTable(
  'store_item_turmas',
  {
    itemId: uuid('item_id')
      .notNull()
      .references(() => storeItems.id, { onDelete: 'cascade' }),
    turmaId: uuid('turma_id')
      .notNull()
      .references(() => turmas.id),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.turmaId] }), index('store_item_turmas_turma_idx').on(t.turmaId)],
);

/**
 * An order: a student's purchase (its `purchase` ledger row), or a turma goal's when it is reached (no student, no purchase).
 * A student's order refused or cancelled has exactly one `refund` row (unique), and a delivered one none: the CHECKs hold it.
 * `limitPeriodStart` names the student's limit counter the purchase counted in, which a refund gives the place back to.
 */
export const storeOrders = pgTable(
  'store_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => storeItems.id),
    studentUuid: uuid('student_id').references(() => students.id),
    price: integer('price').notNull(),
    currency: text('currency', { enum: ['meritus', 'estelecas'] }).notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    reason: text('reason'),
    limitPeriodStart: date('limit_period_start', { mode: 'string' }),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => admins.id, { onDelete: 'set null' }),
    purchaseEntryId: uuid('purchase_entry_id').references(() => ledgerEntries.id),
    refundEntryId: uuid('refund_entry_id').references(() => ledgerEntries.id),
  },
  (t) => [
    uniqueIndex('store_orders_purchase_entry_key').on(t.purchaseEntryId),
    uniqueIndex('store_orders_refund_entry_key').on(t.refundEntryId),
    index('store_orders_student_idx').on(t.studentUuid, t.createdAt.desc().nullsFirst()),
    index('store_orders_item_idx').on(t.itemId, t.status),
    index('store_orders_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('store_orders_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    check('store_orders_status_known', sql`${t.status} IN ('pending', 'delivered', 'refused', 'cancelled')`),
    check('store_orders_price_positive', sql`${t.price} > 0`),
    check('store_orders_purchase_of_student', sql`(${t.studentUuid} IS NULL) = (${t.purchaseEntryId} IS NULL)`),
    check(
      'store_orders_refund_iff_undone',
      sql`(${t.refundEntryId} IS NOT NULL) = (${t.studentUuid} IS NOT NULL AND ${t.status} IN ('refused', 'cancelled'))`,
    ),
    check('store_orders_reason_iff_refused', sql`(${t.status} = 'refused') = (${t.reason} IS NOT NULL)`),
    check('store_orders_decided_iff_not_pending', sql`(${t.status} = 'pending') = (${t.decidedAt} IS NULL)`),
  ],
);

/**
 * How many units of an item a student bought in one period of its limit (`periodStart`: the period's first day in the
 * school's time zone; 1970-01-01 for 'ever'): a purchase raises `used` and sets `allowed` to the item's limit in its
 * transaction, a refund lowers `used`. The CHECK keeps a student within the limit whatever the code does.
 */
export const storeLimitUses = pgTable(
  'store_limit_uses',
  {
    itemId: uuid('item_id')
      .notNull()
      .references(() => storeItems.id, { onDelete: 'cascade' }),
    studentUuid: uuid('student_id')
      .notNull()
      .references(() => students.id),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    used: integer('used').notNull(),
    allowed: integer('allowed').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.studentUuid, t.periodStart] }),
    index('store_limit_uses_student_idx').on(t.studentUuid),
    check('store_limit_uses_within', sql`${t.used} >= 0 AND ${t.used} <= ${t.allowed}`),
  ],
);

/**
 * A turma goal's progress (decision 026), from its first contribution on: `goal` follows the item's (the foreign key
 * cascades a change of it), so the CHECKs hold the item's goal too: `raised` never passes it, an open goal stays below
 * it (a change of the goal to `raised` or less is refused), a reached one equals it and has its one order, a refunded
 * one (its deadline passed before it was reached, or its order was refused) is back to zero. Contributions lock this row
 * first, then the student; the deadline's refunds lock it, then the contributors in id order.
 */
export const storeGoalProgress = pgTable(
  'store_goal_progress',
  {
    itemId: uuid('item_id').primaryKey(),
    goal: integer('goal').notNull(),
    raised: integer('raised').notNull().default(0),
    reachedAt: timestamp('reached_at', { withTimezone: true }),
    /** The order the reaching contribution created (no student, price = goal), for the staff to deliver. */
    orderId: uuid('order_id').references(() => storeOrders.id),
    /** When every contribution was given back, and why. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundReason: text('refund_reason', { enum: ['deadline', 'order_refused'] }),
  },
  (t) => [
    // A goal's item deleted takes its progress along; one with contributions cannot be deleted (they reference it).
    foreignKey({ columns: [t.itemId, t.goal], foreignColumns: [storeItems.id, storeItems.goal] })
      .onUpdate('cascade')
      .onDelete('cascade'),
    uniqueIndex('store_goal_progress_order_key').on(t.orderId),
    check('store_goal_raised_within', sql`${t.raised} >= 0 AND ${t.raised} <= ${t.goal}`),
    check('store_goal_order_iff_reached', sql`(${t.reachedAt} IS NULL) = (${t.orderId} IS NULL)`),
    check(
      'store_goal_refund_reason',
      sql`(${t.refundedAt} IS NULL) = (${t.refundReason} IS NULL)
        AND (${t.refundReason} IS NULL OR ${t.refundReason} IN ('deadline', 'order_refused'))
        AND (${t.refundReason} IS NULL OR (${t.refundReason} = 'order_refused') = (${t.reachedAt} IS NOT NULL))`,
    ),
    check(
      'store_goal_state',
      sql`CASE WHEN ${t.refundedAt} IS NOT NULL THEN ${t.raised} = 0
               WHEN ${t.reachedAt} IS NOT NULL THEN ${t.raised} = ${t.goal}
               ELSE ${t.raised} < ${t.goal} END`,
    ),
  ],
);

/**
 * One contribution to a turma goal: its `contribution` ledger row, and the `refund` row that gave it back, at most one
 * (a single column, unique: no refund row gives back two contributions).
 */
export const storeGoalContributions = pgTable(
  'store_goal_contributions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => storeGoalProgress.itemId),
    studentUuid: uuid('student_id')
      .notNull()
      .references(() => students.id),
    amount: integer('amount').notNull(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => ledgerEntries.id),
    refundEntryId: uuid('refund_entry_id').references(() => ledgerEntries.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('store_goal_contributions_entry_key').on(t.entryId),
    uniqueIndex('store_goal_contributions_refund_key').on(t.refundEntryId),
    index('store_goal_contributions_item_student_idx').on(t.itemId, t.studentUuid),
    index('store_goal_contributions_student_idx').on(t.studentUuid),
    check('store_goal_contributions_amount_positive', sql`${t.amount} > 0`),
  ],
);

// ---------------------------------------------------------------- the school year (issue 38, decision 031)

/**
 * The school's years ('Ano letivo 2026'), each a span of calendar days of the school's time zone, both included. No two
 * overlap: an exclusion constraint on their ranges (migration 0027), so a day belongs to one year at most. A row of the
 * ledger, an order or a tag belongs to the year and period its date falls in, found at query time (never stored): a
 * coordinator's edit of the dates moves nothing. `closedAt`: the year's rollover was applied (school_year_rollovers).
 */
export const schoolYears = pgTable(
  'school_years',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    periodKind: text('period_kind', { enum: ['bimestre', 'trimestre'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('school_years_name_key').on(sql`lower(${t.name})`),
    index('school_years_start_idx').on(t.startDate),
    check('school_years_dates_order', sql`${t.startDate} <= ${t.endDate}`),
    check('school_years_period_kind_known', sql`${t.periodKind} IN ('bimestre', 'trimestre')`),
  ],
);

/**
 * A year's periods (bimestres or trimestres) in their order, each inside its year, none overlapping another (an
 * exclusion constraint over every period: the years do not overlap either, so that is the same as within a year).
 */
export const schoolPeriods = pgTable(
  'school_periods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    yearId: uuid('year_id')
      .notNull()
      .references(() => schoolYears.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
  },
  (t) => [
    uniqueIndex('school_periods_year_position_key').on(t.yearId, t.position),
    check('school_periods_dates_order', sql`${t.startDate} <= ${t.endDate}`),
    check('school_periods_position_range', sql`${t.position} BETWEEN 1 AND 4`),
  ],
);

/**
 * A year's rollover, applied once (the year is its key): who applied it, when, the automatic backup taken before it
 * and the counts it answered, which a second apply answers again without changing anything.
 */
export const schoolYearRollovers = pgTable('school_year_rollovers', {
  yearId: uuid('year_id')
    .primaryKey()
    .references(() => schoolYears.id),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
  appliedBy: uuid('applied_by').references(() => admins.id, { onDelete: 'set null' }),
  backupFile: text('backup_file'),
  outcome: jsonb('outcome').$type<Record<string, unknown>>().notNull(),
});

// ---------------------------------------------------------------- the Hall da Fama (issue 38, decision 035)

/**
 * A closed year's honours, written by its rollover in the same transaction and never changed afterwards: one row per
 * honoured student (or turma) and category, with its shared place (ties share it: 1º, 1º, 3º) and the figure it was
 * earned by. Students are referenced, not named: names and photos are read at display time, so an erasure (decision
 * 030) anonymises the Hall too. The turma is its name at the closing (the student's turma then, before the rollover
 * moved them), not a reference: a turma may be renamed or deleted later, the honour stays as it was.
 */
export const hallOfFameHonours = pgTable(
  'hall_of_fame_honours',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    yearId: uuid('year_id')
      .notNull()
      .references(() => schoolYears.id),
    category: text('category', { enum: HONOUR_CATEGORIES }).notNull(),
    place: smallint('place').notNull(),
    studentUuid: uuid('student_id').references(() => students.id),
    turmaName: text('turma_name').notNull(),
    amount: integer('amount').notNull(),
  },
  (t) => [
    index('hall_of_fame_honours_year_idx').on(t.yearId, t.category, t.place),
    index('hall_of_fame_honours_student_idx')
      .on(t.studentUuid)
      .where(sql`${t.studentUuid} IS NOT NULL`),
    check('hall_of_fame_honours_category_known', sql`${t.category} IN ('meritus', 'estelecas', 'tags', 'turma', 'goals')`),
    check('hall_of_fame_honours_place_positive', sql`${t.place} >= 1`),
    check('hall_of_fame_honours_amount_positive', sql`${t.amount} > 0`),
    // A turma's honour (most goals) names no student; every other honour names one.
    check('hall_of_fame_honours_student_iff_not_goals', sql`(${t.category} = 'goals') = (${t.studentUuid} IS NULL)`),
  ],
);

/**
 * Each current student's turma as their year closed, written by the rollover before it moves them: a closed year's
 * reports by turma read a student in the turma they had then, not the one they went to (decision 036).
 */
export const studentYearTurmas = pgTable(
  'student_year_turmas',
  {
    yearId: uuid('year_id')
      .notNull()
      .references(() => schoolYears.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    turmaId: uuid('turma_id')
      .notNull()
      .references(() => turmas.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.yearId, t.studentId] }), index('student_year_turmas_turma_idx').on(t.turmaId)],
);

/** A responsável (issue 37, decision 037): follows the students linked to them, read-only; signs in with email and password. */
export const guardians = pgTable(
  'guardians',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('guardians_email_key').on(sql`lower(${t.email})`)],
);

/** Which students a guardian follows: made by redeeming a student's code, removed by the coordination or an erasure. */
export const guardianStudents = pgTable(
  'guardian_students',
  {
    guardianId: uuid('guardian_id')
      .notNull()
      .references(() => guardians.id, { onDelete: 'cascade' }),
    studentUuid: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.guardianId, t.studentUuid] }), index('guardian_students_student_idx').on(t.studentUuid)],
);

/**
 * One-time codes that link a guardian to a student: only the SHA-256 of the code is kept (a code has 60 random bits,
 * and redeeming one is rate-limited like a sign-in). Valid until expiresAt, used once (usedAt), or revoked.
 */
export const guardianCodes = pgTable(
  'guardian_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeHash: text('code_hash').notNull(),
    studentUuid: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedBy: uuid('used_by').references(() => guardians.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('guardian_codes_hash_key').on(t.codeHash), index('guardian_codes_student_idx').on(t.studentUuid)],
);

/**
 * Email's outbox (issue 37, decision 038): a message is written here in the transaction of what caused it, and the
 * outbox worker sends it later, claiming a row for a lease (claimed_until) so that two instances never send it both;
 * a failure waits its backoff (next_attempt_at). A message a job makes once (a guardian's weekly summary) has a
 * dedupe_key, so running the job again queues nothing new. The bodies are cleared once sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['weekly_summary', 'guardian_letter'] }).notNull(),
    dedupeKey: text('dedupe_key'),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** The message's List-Unsubscribe address (the weekly summary's signed opt-out link), for mail readers' own button. */
    unsubscribeUrl: text('unsubscribe_url'),
    /** Whom the message is about: an erasure or a removed guardian takes their messages along. */
    studentUuid: uuid('student_id').references(() => students.id, { onDelete: 'cascade' }),
    guardianId: uuid('guardian_id').references(() => guardians.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe_key').on(t.dedupeKey),
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} IS NULL`),
    index('mail_outbox_student_idx').on(t.studentUuid),
    index('mail_outbox_guardian_idx').on(t.guardianId),
  ],
);

/** A guardian who turned the weekly summary off (from the email's signed link or the family area); no row: on. */
export const mailOptOuts = pgTable('mail_opt_outs', {
  guardianId: uuid('guardian_id')
    .primaryKey()
    .references(() => guardians.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/** Secrets the server makes once and every instance shares (the key that signs the emails' unsubscribe links). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
