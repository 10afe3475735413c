import { z } from 'zod';
import { countOf } from './format.ts';
import { textInput } from './validation.ts';

/**
 * The system area: Painel Backend (/admin/backend) and Debug & Diagnóstico (/admin/debug).
 * Every figure comes from the running instance or the database; nothing is simulated.
 */

/** GET /api/health: the database answers. */
export const healthStatus = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });

/** The spec's refresh of the backend panel; the server samples its own figures every MONITORING_SAMPLE_MS. */
export const MONITORING_REFRESH_MS = 3_000;
export const MONITORING_SAMPLE_MS = 5_000;
export const MONITORING_WINDOW_MS = 15 * 60 * 1000;

// ---------------------------------------------------------------- Visão Geral

/** The spec's rule over the total of records: critical at 0, warning under 10, healthy otherwise. */
export const RECORD_HEALTH = ['critical', 'warning', 'healthy'] as const;
export type RecordHealth = (typeof RECORD_HEALTH)[number];
export const RECORD_HEALTH_WARNING_BELOW = 10;

export function recordHealth(totalRecords: number): RecordHealth {
  if (totalRecords === 0) return 'critical';
  return totalRecords < RECORD_HEALTH_WARNING_BELOW ? 'warning' : 'healthy';
}

export const RECORD_HEALTH_LABELS: Record<RecordHealth, string> = { critical: 'Crítico', warning: 'Atenção', healthy: 'Saudável' };

/** The record counts of Visão Geral, in display order. Every one but `imageBytes` counts towards the health rule. */
export const OVERVIEW_COUNTS = [
  'studentsActive',
  'studentsRemoved',
  'administrators',
  'meritusEntries',
  'estelecasEntries',
  'refusedAttempts',
  'tags',
  'images',
  'openSessions',
] as const;
export type OverviewCount = (typeof OVERVIEW_COUNTS)[number];

export const OVERVIEW_COUNT_LABELS: Record<OverviewCount, string> = {
  studentsActive: 'Estudantes ativos',
  studentsRemoved: 'Estudantes removidos',
  administrators: 'Administradores',
  meritusEntries: 'Operações de Méritus',
  estelecasEntries: 'Operações de Estelecas',
  refusedAttempts: 'Tentativas recusadas',
  tags: 'Tags ativas',
  images: 'Fotos de perfil armazenadas',
  openSessions: 'Sessões abertas',
};

export const instanceInfo = z.object({
  /** Names this server process among several (host name and process id plus a random suffix). */
  id: z.string(),
  startedAt: z.string(),
  uptimeSeconds: z.number().int(),
});
export type InstanceInfo = z.infer<typeof instanceInfo>;

/** One line of the real health: ok false means the line needs attention; `detail` says why in pt-BR. */
export const healthLine = z.object({ ok: z.boolean(), detail: z.string() });
export type HealthLine = z.infer<typeof healthLine>;

export const DIAGNOSTIC_STATUSES = ['success', 'warning', 'error', 'info'] as const;
export type DiagnosticStatus = (typeof DIAGNOSTIC_STATUSES)[number];

export const systemOverview = z.object({
  instance: instanceInfo,
  versions: z.object({ app: z.string(), node: z.string(), database: z.string() }),
  databaseMode: z.enum(['pglite', 'postgres']),
  counts: z.record(z.enum(OVERVIEW_COUNTS), z.number().int()),
  /** Total size of the stored images, in bytes. */
  imageBytes: z.number().int(),
  totalRecords: z.number().int(),
  recordHealth: z.enum(RECORD_HEALTH),
  health: z.object({
    database: healthLine.extend({ roundTripMs: z.number() }),
    migrations: healthLine.extend({ applied: z.number().int(), expected: z.number().int() }),
    disk: healthLine.extend({ freeBytes: z.number().nullable(), totalBytes: z.number().nullable(), path: z.string() }),
    storage: healthLine,
    /** The newest diagnostic run: when, and its worst status; null before the first run. */
    lastDiagnostic: z
      .object({ at: z.string(), status: z.enum(DIAGNOSTIC_STATUSES), errors: z.number().int(), warnings: z.number().int() })
      .nullable(),
  }),
});
export type SystemOverview = z.infer<typeof systemOverview>;

// ---------------------------------------------------------------- Entidades

export const ENTITY_IDS = [
  'students',
  'administrators',
  'meritus_ledger',
  'estelecas_ledger',
  'refused_attempts',
  'tags',
  'sessions',
  'audit',
  'diagnostic_logs',
] as const;
export type EntityId = (typeof ENTITY_IDS)[number];

export const ENTITY_LABELS: Record<EntityId, string> = {
  students: 'Estudantes',
  administrators: 'Administradores',
  meritus_ledger: 'Razão de Méritus',
  estelecas_ledger: 'Razão de Estelecas',
  refused_attempts: 'Tentativas recusadas',
  tags: 'Tags',
  sessions: 'Sessões',
  audit: 'Auditoria',
  diagnostic_logs: 'Logs de diagnóstico',
};

export const ENTITY_PAGE_SIZES = [25, 50, 100] as const;
export const ENTITY_SEARCH_MAX = 100;

export const entityParams = z.object({ entity: z.enum(ENTITY_IDS, { error: 'validation' }) });

/** Page (from 1), size and search text of the entity browser; the export takes only `q`. */
export const entityQuery = z.object({
  page: z.coerce
    .number({ error: 'validation' })
    .int({ error: 'validation' })
    .min(1, { error: 'validation' })
    .max(1_000_000, { error: 'validation' })
    .default(1),
  pageSize: z.coerce
    .number({ error: 'validation' })
    .int({ error: 'validation' })
    .refine((size) => (ENTITY_PAGE_SIZES as readonly number[]).includes(size), { error: 'validation' })
    .default(25),
  q: textInput({ max: ENTITY_SEARCH_MAX, maxError: 'search_too_long' }).default(''),
});
export type EntityQuery = z.infer<typeof entityQuery>;
export const entityExportQuery = entityQuery.pick({ q: true });

export const entityCell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const entityColumn = z.object({ key: z.string(), label: z.string() });
export const entityPage = z.object({
  entity: z.enum(ENTITY_IDS),
  columns: z.array(entityColumn),
  /** Cells keyed by column key; dates as ISO text. Never a password hash, session token or idempotency key. */
  rows: z.array(z.record(z.string(), entityCell)),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type EntityPage = z.infer<typeof entityPage>;

// ---------------------------------------------------------------- Monitoramento

/** Route groups the latency and error figures are split by. */
export const ROUTE_GROUPS = ['auth', 'transfers', 'student', 'admin', 'events', 'system', 'static'] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];
export const ROUTE_GROUP_LABELS: Record<RouteGroup, string> = {
  auth: 'Login e sessão',
  transfers: 'Transferências',
  student: 'Área do estudante',
  admin: 'Área administrativa',
  events: 'Eventos ao vivo',
  system: 'Sistema e métricas',
  static: 'Arquivos e páginas',
};

export const latency = z.object({ p50: z.number(), p95: z.number(), p99: z.number() });

export const routeGroupSample = z.object({
  group: z.enum(ROUTE_GROUPS),
  requestsPerSecond: z.number(),
  /** Share of answers with status ≥ 500, from 0 to 1. */
  errorRate: z.number(),
  /** Milliseconds; null when the group had no request in the interval. */
  latencyMs: latency.nullable(),
});

/** One sample of this instance over MONITORING_SAMPLE_MS (rates per second over the interval). */
export const monitoringSample = z.object({
  at: z.string(),
  requestsPerSecond: z.number(),
  errorRate: z.number(),
  latencyMs: latency.nullable(),
  groups: z.array(routeGroupSample),
  eventLoop: z.object({ delayP50Ms: z.number(), delayP99Ms: z.number(), delayMaxMs: z.number(), utilization: z.number() }),
  /** Process CPU over the interval, in % of one core. */
  cpuPercent: z.number(),
  rssBytes: z.number(),
  heapUsedBytes: z.number(),
  heapTotalBytes: z.number(),
  /** null when the size could not be read in this sample. */
  databaseBytes: z.number().nullable(),
  connections: z.object({ inUse: z.number().int(), total: z.number().int(), waiting: z.number().int() }),
  liveClients: z.number().int(),
  eventsPerSecond: z.number(),
  /** Sign-ins refused by this instance during the interval. */
  failedSignIns: z.number().int(),
});
export type MonitoringSample = z.infer<typeof monitoringSample>;

export const monitoringSnapshot = z.object({
  instance: instanceInfo,
  sampleMs: z.number().int(),
  windowMs: z.number().int(),
  /** The newest sample; null in the first seconds after start. */
  current: monitoringSample.nullable(),
  /** Oldest first, at most MONITORING_WINDOW_MS / MONITORING_SAMPLE_MS samples. */
  series: z.array(monitoringSample),
});
export type MonitoringSnapshot = z.infer<typeof monitoringSnapshot>;

// ---------------------------------------------------------------- Configurações

export const configEntry = z.object({
  name: z.string(),
  /** The effective value as text; secrets show as '••••••' (or null when unset). */
  value: z.string().nullable(),
  source: z.enum(['default', 'environment']),
  secret: z.boolean(),
  description: z.string(),
});
export type ConfigEntry = z.infer<typeof configEntry>;
export const configurationList = z.object({ entries: z.array(configEntry) });
export type ConfigurationList = z.infer<typeof configurationList>;
export const SECRET_MASK = '••••••';

// ---------------------------------------------------------------- Debug & Diagnóstico

export const DIAGNOSTIC_CATEGORIES = ['CONNECTIVITY', 'ADMINISTRATORS', 'STUDENTS', 'TRANSACTIONS', 'AUTH', 'SYSTEM', 'FIX'] as const;
export type DiagnosticCategory = (typeof DIAGNOSTIC_CATEGORIES)[number];

export const diagnosticLog = z.object({
  id: z.number().int(),
  at: z.string(),
  category: z.enum(DIAGNOSTIC_CATEGORIES),
  status: z.enum(DIAGNOSTIC_STATUSES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type DiagnosticLog = z.infer<typeof diagnosticLog>;

/** The four counters of the screen. */
export const diagnosticCounters = z.object({
  administrators: z.number().int(),
  students: z.number().int(),
  transactions: z.number().int(),
  logs: z.number().int(),
});
export type DiagnosticCounters = z.infer<typeof diagnosticCounters>;

export const DIAGNOSTIC_LOG_LIMIT = 500;
export const diagnosticLogsQuery = z.object({ category: z.enum(DIAGNOSTIC_CATEGORIES, { error: 'validation' }).optional() });

/** Newest first, at most DIAGNOSTIC_LOG_LIMIT. */
export const diagnosticLogList = z.object({ logs: z.array(diagnosticLog), counters: diagnosticCounters });
export type DiagnosticLogList = z.infer<typeof diagnosticLogList>;

/** Fixes a check may offer besides 'Corrigir Administrators'; each is previewed, then applied. */
export const FIX_IDS = ['expired_tags', 'orphan_photos'] as const;
export type FixId = (typeof FIX_IDS)[number];
export const FIX_LABELS: Record<FixId, string> = {
  expired_tags: 'Remover tags expiradas agora',
  orphan_photos: 'Remover arquivos de foto sem registro',
};

export const diagnosticRun = z.object({
  runId: z.string(),
  at: z.string(),
  /** This run's entries, in the order the checks ran. */
  logs: z.array(diagnosticLog),
  counters: diagnosticCounters,
  /** Fixes with something to do after this run. */
  fixes: z.array(z.enum(FIX_IDS)),
});
export type DiagnosticRun = z.infer<typeof diagnosticRun>;

export const fixParams = z.object({ fix: z.enum(FIX_IDS, { error: 'validation' }) });

/** One thing a fix would change: `key` identifies it for the apply call, `label` describes it in pt-BR. */
export const fixItem = z.object({ key: z.string(), label: z.string() });
export const fixPreview = z.object({ fix: z.enum(FIX_IDS), items: z.array(fixItem) });
export type FixPreview = z.infer<typeof fixPreview>;

/** The keys of the preview being confirmed: only those still applicable are changed. */
export const fixApplyInput = z.object({
  keys: z.array(textInput({ max: 300 }), { error: 'validation' }).max(10_000, { error: 'validation' }),
});
export type FixApplyInput = z.infer<typeof fixApplyInput>;

export const fixResult = z.object({
  fix: z.enum(FIX_IDS),
  /** What was changed (a key of the preview no longer applicable is left out). */
  applied: z.array(fixItem),
  before: z.number().int(),
  after: z.number().int(),
  log: diagnosticLog,
});
export type FixResult = z.infer<typeof fixResult>;

/** The spec's default administrator; its email is ADMIN_EMAIL when configured, this one otherwise. */
export const DEFAULT_ADMIN = {
  adminId: 'admin001',
  name: 'Administrador Principal',
  role: 'coordinator',
  email: 'admin@escola.com',
} as const;

export const fixAdministratorsResult = z.object({
  created: z.boolean(),
  /** Only when created: the new administrator and its password, shown once and never stored in clear. */
  admin: z.object({ adminId: z.string(), name: z.string(), email: z.string() }).nullable(),
  password: z.string().nullable(),
  /** The diagnostic run made right after. */
  run: diagnosticRun,
});
export type FixAdministratorsResult = z.infer<typeof fixAdministratorsResult>;

export const clearLogsResult = z.object({ removed: z.number().int() });
export type ClearLogsResult = z.infer<typeof clearLogsResult>;

/** pt-BR texts of the two screens the server and the client share. */
export const SYSTEM_TEXTS = {
  fixApplied: 'Correção aplicada com sucesso!',
  fixFailed: 'Erro ao aplicar correção',
  loadFailed: 'Erro ao carregar dados do sistema',
  noLogs: 'Nenhum log disponível',
  noLogsHint: 'Execute um diagnóstico para ver os resultados',
  adminExists: 'Já existe um administrador; nada foi alterado',
  adminCreated: (email: string) => `Administrador padrão criado (${email}). Anote a senha: ela não será mostrada de novo.`,
  logsCleared: (n: number) => countOf(n, 'log removido', 'logs removidos'),
  nothingToFix: 'Nada a corrigir',
} as const;
