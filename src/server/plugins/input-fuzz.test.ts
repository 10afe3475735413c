import { receiptCode } from '../../shared/receipt-code.ts';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTestApp, cookieFrom } from '../test/test-app.ts';
import { rowsOf } from '../db/client.ts';
import { archiveImages, turmas } from '../db/schema.ts';
import { IDEMPOTENCY_HEADER } from '../../shared/ledger.ts';
import { ERROR_MESSAGES, isErrorCode, type ErrorCode } from '../../shared/errors.ts';
import type { DeclaredRoute } from './auth.ts';

/**
 * Hostile input on every route the app declares: strings PostgreSQL cannot store (NUL,
 * lone surrogates), huge strings, odd numbers, wrong types, impossible dates, broken
 * JSON, hostile path parameters, headers and query strings. A write that its schemas
 * should refuse answers 4xx with a known error code, never 5xx, and changes nothing.
 */

const t = await buildTestApp();
afterAll(() => t.close());

const [ana, bruno] = t.students as [(typeof t.students)[number], (typeof t.students)[number]];
const cookies = { admin: await t.loginAdmin(), student: await t.loginStudent(ana.studentId), guardian: '' };
// A guardian of Ana's (decision 037), for the family routes and the link the coordination removes.
const guardianCode = await t.app.inject({
  method: 'POST',
  url: `/api/admin/students/${ana.id}/guardian-codes`,
  headers: { cookie: cookies.admin },
});
const guardianSignup = await t.app.inject({
  method: 'POST',
  url: '/api/auth/guardian/signup',
  payload: { code: guardianCode.json().code, email: 'familia.fuzz@exemplo.test', name: 'Família Fuzz', password: 'senha-teste-1' },
});
cookies.guardian = cookieFrom(guardianSignup);
const guardianId = (guardianSignup.json() as { guardian: { id: string } }).guardian.id;

// Some data for the snapshot to guard, and a real record for each kind of path parameter.
const award = await t.app.inject({
  method: 'POST',
  url: `/api/admin/students/${ana.id}/meritus`,
  headers: { cookie: cookies.admin },
  payload: { type: 'reward', amount: 50, description: 'Monitoria' },
});
expect(award.statusCode).toBe(201);
const tagGiven = await t.app.inject({
  method: 'PUT',
  url: `/api/admin/students/${bruno.id}/tags/leader`,
  headers: { cookie: cookies.admin },
  payload: { days: 7 },
});
expect(tagGiven.statusCode).toBe(200);
const activeTags = await t.app.inject({ method: 'GET', url: '/api/tags/active', headers: { cookie: cookies.admin } });
const tagId = (activeTags.json() as { id: string }[])[0]!.id;
const preset = await t.app.inject({
  method: 'POST',
  url: '/api/admin/reason-presets',
  headers: { cookie: cookies.admin },
  payload: { label: 'Ajudou um colega' },
});
expect(preset.statusCode).toBe(201);
const presetId = (preset.json() as { id: string }).id;
const [archived] = await t.db
  .insert(archiveImages)
  .values({
    fileKey: 'k'.repeat(32),
    contentHash: 'h'.repeat(64),
    fileName: 'cartaz.png',
    mimeType: 'image/png',
    kind: 'image',
    fileSize: 10,
    hasVariants: true,
  })
  .returning();

const [turma] = await t.db.select().from(turmas).limit(1);
const storeItem = await t.app.inject({
  method: 'POST',
  url: '/api/admin/store/items',
  headers: { cookie: cookies.admin },
  payload: { name: 'Caneta', price: 1, currency: 'meritus', category: 'material' },
});
expect(storeItem.statusCode).toBe(201);
const storeItemId = (storeItem.json() as { id: string }).id;
const storeOrder = await t.app.inject({
  method: 'POST',
  url: `/api/store/items/${storeItemId}/orders`,
  headers: { cookie: cookies.student },
});
expect(storeOrder.statusCode).toBe(201);
const storeOrderId = (storeOrder.json() as { order: { id: string } }).order.id;
const schoolYearBody = (year: number) => ({
  name: `Ano letivo ${year}`,
  startDate: `${year}-01-01`,
  endDate: `${year}-12-31`,
  periodKind: 'bimestre',
  periods: [
    ['01-01', '03-31'],
    ['04-01', '06-30'],
    ['07-01', '09-30'],
    ['10-01', '12-31'],
  ].map(([start, end]) => ({ startDate: `${year}-${start}`, endDate: `${year}-${end}` })),
});
const schoolYear = await t.app.inject({
  method: 'POST',
  url: '/api/admin/school-years',
  headers: { cookie: cookies.admin },
  payload: schoolYearBody(2090),
});
expect(schoolYear.statusCode).toBe(201);
const schoolYearId = (schoolYear.json() as { id: string }).id;

/** A real value for each path parameter, so a case can make just one part of a request hostile. */
function validParam(url: string, name: string): string {
  if (name === 'kind') return 'leader';
  if (name === 'provider') return 'google';
  if (name === 'tagId') return tagId;
  if (url.startsWith('/api/admin/reason-presets/')) return presetId;
  if (url.startsWith('/api/admin/archive/images/')) return archived!.id;
  if (url.startsWith('/api/archive/files/')) return name === 'variant' ? 'thumb' : archived!.fileKey;
  if (url.startsWith('/api/admin/dashboard/goals/')) return 'participation';
  if (url.startsWith('/api/admin/turmas/')) return turma!.id;
  if (url.startsWith('/api/store/items/') || url.startsWith('/api/admin/store/items/')) return storeItemId;
  if (url.startsWith('/api/me/orders/') || url.startsWith('/api/admin/store/orders/')) return storeOrderId;
  if (url.startsWith('/api/admin/staff/')) return t.admin.id;
  if (url.startsWith('/api/admin/school-years/')) return schoolYearId;
  if (url.startsWith('/api/admin/students/')) return bruno.id;
  if (url.startsWith('/api/admin/guardians/')) return name === 'id' ? guardianId : ana.id;
  if (url.startsWith('/api/family/children/')) return ana.id;
  if (url.startsWith('/api/admin/operations/')) return (award.json() as { entry: { id: string } }).entry.id;
  if (name === 'entity') return 'students';
  if (name === 'fix') return 'expired_tags';
  // No year has closed in this school: an honour's id is well formed and found nowhere.
  if (url.startsWith('/api/hall-of-fame/honours/')) return '00000000-0000-4000-8000-000000000000';
  if (name === 'code') return receiptCode((award.json() as { entry: { id: string } }).entry.id);
  throw new Error(`input-fuzz: no valid value for :${name} of ${url}; add one`);
}

const inAWeek = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString();

/** A body each route accepts; the cases spoil some of its fields. A new route with a body schema must be added here. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/auth/student/login': { studentId: ana.studentId, password: 'senha-teste-1' },
  'POST /api/auth/admin/login': { email: 'prof@escola.test', password: 'senha-teste-1' },
  'POST /api/meritus/transfers': { recipientId: bruno.id, amount: 1, description: 'Lanche' },
  'POST /api/estelecas/transfers': { recipientId: bruno.id, amount: 1 },
  'POST /api/admin/students/:id/meritus': { type: 'reward', amount: 1, description: 'Monitoria' },
  'POST /api/admin/students/:id/estelecas': { type: 'reward', amount: 1, description: 'Monitoria' },
  'POST /api/admin/operations/:id/reversal': { reason: 'Lançado por engano' },
  'POST /api/admin/operations/bulk': {
    type: 'reward',
    amount: 1,
    description: 'Feira',
    currency: 'meritus',
    studentUuids: [ana.id, bruno.id],
  },
  'POST /api/admin/students': {
    studentId: '3999999',
    name: 'Eva Nunes',
    password: 'segredo-1',
    grade: '1º EM - Turma A',
    email: 'eva@escola.test',
    birthDate: '2010-05-02',
  },
  'PATCH /api/admin/students/:id': { name: 'Bruno H. Lima', email: 'bruno@escola.test', birthDate: '2009-01-31' },
  'PUT /api/admin/students/:id/photo': { url: 'https://fotos.escola.test/bruno.jpg' },
  'PUT /api/admin/students/:id/tags/:kind': { days: 7 },
  'PATCH /api/admin/students/:id/tags/:kind': { expiresAt: inAWeek },
  'PUT /api/admin/dashboard/goals/:id': { target: 80 },
  'POST /api/admin/reason-presets': { label: 'Participação na aula' },
  'POST /api/admin/school-years': schoolYearBody(2091),
  'PATCH /api/admin/school-years/:id': schoolYearBody(2090),
  'POST /api/admin/rollover/preview': { balances: { meritus: 'keep', estelecas: 'close' } },
  'POST /api/admin/rollover/apply': { balances: { meritus: 'keep', estelecas: 'close' }, token: 'prévia-antiga' },
  'POST /api/admin/diagnostics/fixes/:fix': { keys: [] },
  'PATCH /api/admin/archive/images/:id': {
    description: 'Cartaz da feira',
    category: 'banner',
    tags: ['feira'],
    albumName: 'Feira',
    accessLevel: 'restricted',
    isFeatured: true,
  },
  'POST /api/admin/archive/images/bulk': { action: 'category', ids: [archived!.id], category: 'banner' },
  'PUT /api/admin/archive/images/:id/favourite': { favourite: true },
  'POST /api/admin/archive/images/:id/select': { studentId: bruno.id },
  'PUT /api/admin/settings/school': { name: 'Colégio Horizonte', timeZone: 'America/Sao_Paulo' },
  'PUT /api/admin/settings/rules': {
    meritusGoal: 2000,
    estelecasBarScale: 100,
    achievementThresholds: { collector: 50, master: 100 },
    defaultTagDays: 7,
    maxOperationAmount: 100_000,
    transferDailyCap: null,
    transferMinIntervalSeconds: null,
    teachersManageStudents: false,
    defaultTeacherBudget: { meritus: 500, estelecas: null },
    studentsChangeResetPassword: false,
    rankingNames: 'anonymous',
    rankingHideAllowed: false,
    howToEarnText: 'Participe das aulas.',
  },
  'POST /api/admin/turmas': { name: 'Robótica' },
  'PATCH /api/admin/turmas/:id': { name: '1º EM - Alfa', retired: false },
  'POST /api/admin/staff': {
    name: 'Rita Moura',
    email: 'rita@escola.test',
    role: 'teacher',
    turmaIds: [turma!.id],
    weeklyBudget: { meritus: 300, estelecas: 20 },
    password: 'senha-forte-1',
  },
  'PATCH /api/admin/staff/:id': { active: true, weeklyBudget: null },
  'POST /api/admin/staff/:id/password': { password: 'senha-forte-2' },
  'PATCH /api/admin/me': { name: 'Helena Prado' },
  'POST /api/store/items/:id/contributions': { amount: 1 },
  'PUT /api/me/store-goal': { itemId: null },
  'PUT /api/me/ranking-visibility': { hidden: false },
  'POST /api/admin/store/items': { name: 'Caderno', price: 5, currency: 'meritus', category: 'material', stock: 3 },
  'PATCH /api/admin/store/items/:id': { name: 'Caneta azul', price: 2, stock: null, position: 0 },
  'POST /api/admin/store/orders/:id/refuse': { reason: 'Em falta' },
  'POST /api/admin/store/orders/deliver': { ids: [storeOrderId] },
  // A confirmation that never matches: the fuzz exercises the checks, and no case erases the student the others use.
  'POST /api/admin/students/:id/erase': { confirm: 'Outro Nome Qualquer', reason: 'Pedido da família' },
  'PUT /api/admin/students/:id/image-consent': { consent: true },
  'PUT /api/admin/settings/privacy': { contact: 'secretaria@escola.test', retentionMonths: 24 },
  'POST /api/admin/students/access-cards': { studentIds: [bruno.id] },
  'POST /api/me/password': { currentPassword: 'senha-teste-1', newPassword: 'nova-senha-1' },
  'POST /api/auth/guardian/signup': {
    code: 'AAAA-BBBB-CCCC',
    email: 'outra.familia@exemplo.test',
    name: 'Outra Família',
    password: 'senha-teste-1',
  },
  'POST /api/auth/guardian/login': { email: 'familia.fuzz@exemplo.test', password: 'senha-teste-1' },
  'POST /api/family/children': { code: 'AAAA-BBBB-CCCC' },
  'PUT /api/family/children/:id/image-consent': { consent: true },
  'POST /api/admin/guardian-letters': { studentIds: [bruno.id] },
  // Email is off in this app (decision 038): the letter by email and the switch answer mail_disabled, queueing nothing.
  'POST /api/admin/students/:id/guardian-letter-email': { email: 'familia.fuzz@exemplo.test' },
  'PUT /api/family/mail': { weeklySummary: false },
  'POST /api/mail/unsubscribe': { guardian: guardianId, signature: 'assinatura-que-nao-confere' },
};

/** Routes left out, and why. */
const SKIPPED: Record<string, string> = {
  'POST /api/auth/logout': 'takes no input; it would end the session the other cases use',
  'GET /api/events': 'an event stream that stays open; it reads no query',
  'POST /api/admin/diagnostics/run': 'takes no input; each run writes its diagnostic logs by design',
  'POST /api/admin/diagnostics/fixes/administrators': 'takes no input; it creates nothing while an administrator exists',
  'DELETE /api/admin/diagnostics/logs': 'takes no input; it clears the diagnostic logs by design',
  'DELETE /api/admin/settings/logo': 'takes no input; it removes the logo by design',
};

/** Audit rows a route writes by design even when it refuses or only reads. */
const AUDITED_BY_DESIGN: Record<string, string> = {
  'POST /api/meritus/transfers': 'ledger.refused',
  'POST /api/estelecas/transfers': 'ledger.refused',
  'POST /api/admin/students/:id/meritus': 'ledger.refused',
  'POST /api/admin/students/:id/estelecas': 'ledger.refused',
  'POST /api/admin/operations/bulk': 'ledger.refused',
  'POST /api/store/items/:id/orders': 'ledger.refused',
  'POST /api/store/items/:id/contributions': 'ledger.refused',
  'POST /api/me/orders/:id/cancel': 'ledger.refused',
  'POST /api/admin/store/orders/:id/refuse': 'ledger.refused',
  'GET /api/admin/students/export.csv': 'students.export',
  'GET /api/admin/ledger/export.csv': 'ledger.export',
  'GET /api/admin/system/entities/:entity/export.csv': 'system.entity_export',
  'GET /api/admin/reports/workbook.xlsx': 'report.export',
  'GET /api/admin/reports/top-certificates.pdf': 'report.top_certificates',
  'GET /api/hall-of-fame/honours/:id/certificate.pdf': 'hall_of_fame.certificate',
  // Who saw a student's personal data (decision 030).
  'GET /api/admin/students/:id/personal-data': 'student.personal_data_view',
  'GET /api/admin/students/:id/personal-data-export': 'student.personal_data_export',
};

/** A POST that writes nothing: its answer to a broken file is a preview flagging every row. */
const PREVIEW = 'POST /api/admin/students/import/preview';

// ---------------------------------------------------------------------------------------------
// Hostile values. `Raw` carries JSON text JSON.stringify cannot write (1e309, deep nesting).

class Raw {
  constructor(readonly json: string) {}
}

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.json;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
      .join(',')}}`;
  }
  // Lone surrogates come out as \ud800 escapes, which JSON.parse keeps as they are.
  return JSON.stringify(value) ?? 'null';
}

const UNSTORABLE = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff', 'a\u0000', '\ud83d'];
const OUT_OF_RANGE_DATES = [
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '1899-12-31T23:59:59Z',
  '2024-02-30T12:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-06-01T25:00:00Z',
  '2024-06-01T12:00:00+99:00',
  '9999-12-31',
  '31/02/2010',
  '2010-02-31',
  '00/00/0000',
];
const NUMBERISH = [
  '',
  '   ',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1.5',
  '1e309',
  '0x10',
  ' 10 ',
  '1,5',
  '10abc',
  'null',
  'true',
  '%00',
  '\\u0000',
];

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const hostileText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...UNSTORABLE), fc.string({ maxLength: 10 }))
      .map((parts) => parts.join('')),
  },
  { weight: 2, arbitrary: fc.string({ unit: anyCodeUnit, minLength: 1, maxLength: 20 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERISH, ...OUT_OF_RANGE_DATES) },
  { weight: 1, arbitrary: fc.integer({ min: 201, max: 120_000 }).map((length) => 'ç'.repeat(length)) },
);
const oddNumber = fc
  .constantFrom('1.5', '-3', '0', '-0', '1e309', '-1e309', '1e21', '9007199254740993', '2147483648', '100001', '4.9e-324', '1E2')
  .map((json) => new Raw(json));
const wrongType = fc.constantFrom<unknown>(null, true, false, [], {}, 0);
const fieldName = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'studentId', 'amount', 'id', '\u0000'));

const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileText,
    oddNumber,
    wrongType,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fieldName, tie('value'), { maxKeys: 3 }),
  ),
}));

/** Payloads no JSON body should survive: broken JSON, prototype tricks, very deep nesting, more than the 1 MB limit. */
const brokenPayload = fc.constantFrom(
  '{',
  '{"a":NaN}',
  "{'studentId':1}",
  '{"a":1,}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '"\\u0000"',
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  `{"a":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
  `{"name":"${'x'.repeat(1_100_000)}"}`,
);

/** Percent-encodes a path or query value; a lone surrogate becomes the bytes it would have in WTF-8 (not valid UTF-8). */
function percentEncode(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** Already-encoded path or query text that no decoder should choke on. */
const rawEncoded = fc.constantFrom(
  '%',
  '%zz',
  '%00',
  '%C0%80',
  '%ED%A0%80',
  '%ED%BF%BF',
  '%FF',
  '%E2%82',
  '%2F',
  '%25',
  '+',
  'x'.repeat(5000),
);
const hostileSegment = fc.oneof(
  { weight: 3, arbitrary: hostileText.filter((text) => text.trim() !== '' && text.length < 10_000).map(percentEncode) },
  { weight: 2, arbitrary: rawEncoded },
  { weight: 1, arbitrary: fc.uuid().map(String) },
);

// ---------------------------------------------------------------------------------------------
// What must not change: every table a request could write, sessions aside.

type Snapshot = Record<string, unknown>;
const tableHash = (table: string, order: string) =>
  sql.raw(`(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY ${order}), '')) FROM ${table} t)`);

async function snapshot(): Promise<Snapshot> {
  const result = await t.db.execute(sql`SELECT
    ${tableHash('students', 't.id')} AS students,
    ${tableHash('admins', 't.id')} AS admins,
    ${tableHash('ledger_entries', 't.id')} AS ledger_entries,
    ${tableHash('student_tags', 't.id')} AS student_tags,
    ${tableHash('tag_likes', 't.tag_id, t.student_id')} AS tag_likes,
    ${tableHash('goals', 't.id')} AS goals,
    ${tableHash('reason_presets', 't.id')} AS reason_presets,
    ${tableHash('idempotency_keys', 't.actor_key, t.key')} AS idempotency_keys,
    ${tableHash('store_items', 't.id')} AS store_items,
    ${tableHash('store_item_turmas', 't.item_id, t.turma_id')} AS store_item_turmas,
    ${tableHash('store_orders', 't.id')} AS store_orders,
    ${tableHash('store_limit_uses', 't.item_id, t.student_id, t.period_start')} AS store_limit_uses,
    ${tableHash('guardians', 't.id')} AS guardians,
    ${tableHash('guardian_students', 't.guardian_id, t.student_id')} AS guardian_students,
    ${tableHash('guardian_codes', 't.id')} AS guardian_codes,
    ${tableHash('mail_outbox', 't.id')} AS mail_outbox,
    ${tableHash('mail_opt_outs', 't.guardian_id')} AS mail_opt_outs,
    (SELECT coalesce(jsonb_object_agg(action, n), '{}'::jsonb) FROM (SELECT action, count(*)::int AS n FROM audit_log GROUP BY action) a) AS audit`);
  const [row] = rowsOf<Snapshot & { audit: Record<string, number> | string }>(result);
  const audit = typeof row!.audit === 'string' ? (JSON.parse(row!.audit) as Record<string, number>) : row!.audit;
  return { ...row, audit };
}

/** The snapshot with the audit rows a route writes by design set aside. */
function comparable(state: Snapshot, routeKey: string): Snapshot {
  const allowed = AUDITED_BY_DESIGN[routeKey];
  const audit = { ...(state.audit as Record<string, number>) };
  if (allowed) delete audit[allowed];
  return { ...state, audit };
}

/**
 * A route's cases, each of which must leave the state as it found it. The state after a case that passed is the one
 * the next case starts from, so each case takes one snapshot instead of two; after a failure (and while fast-check
 * shrinks it) the state is read afresh.
 */
function stateGuard(routeKey: string) {
  let known: Snapshot | undefined;
  return {
    async before(): Promise<Snapshot> {
      const state = known ?? comparable(await snapshot(), routeKey);
      known = undefined;
      return state;
    },
    async expectUnchanged(before: Snapshot, label: string): Promise<void> {
      const after = comparable(await snapshot(), routeKey);
      expect(after, label).toEqual(before);
      known = after;
    },
  };
}

// ---------------------------------------------------------------------------------------------

const stats = { cases: 0, serverErrors: 0 };
afterAll(() => {
  console.info(`input fuzz (${process.env.TEST_DB ?? 'pglite'}): ${stats.cases} hostile requests, ${stats.serverErrors} answered 5xx`);
});

type Schema = z.ZodType | undefined;
const routes = t.app.declaredRoutes.filter(({ method, url }) => method !== 'HEAD' && url.startsWith('/api/'));
const keyOf = (route: DeclaredRoute) => `${route.method} ${route.url}`;
const schemaOf = (route: DeclaredRoute, part: 'body' | 'params' | 'querystring' | 'headers') =>
  (route.options.schema as Record<string, unknown> | undefined)?.[part] as Schema;
const paramNames = (url: string) => [...url.matchAll(/:(\w+)/g)].map((match) => match[1]!);

/** The field names of an object schema (through .optional()), or of every option of a discriminated union. */
function fieldsOf(schema: Schema): string[] {
  let current: unknown = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault) current = current.unwrap();
  if (current instanceof z.ZodDiscriminatedUnion) return [...new Set(current.options.flatMap((option) => fieldsOf(option as Schema)))];
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function cookieFor(route: DeclaredRoute): Record<string, string> {
  const access = route.options.config?.access;
  if (access === 'guardian') return { cookie: cookies.guardian };
  if (access !== 'public' && access !== 'student' && access !== 'signedIn') return { cookie: cookies.admin };
  if (access === 'student' || access === 'signedIn') return { cookie: cookies.student };
  return {};
}

function urlWith(route: DeclaredRoute, params: Record<string, string>): string {
  return route.url.replace(/:(\w+)/g, (_, name: string) => params[name]!);
}

function accepts(schema: Schema, value: unknown): boolean {
  return schema !== undefined && schema.safeParse(value).success;
}

/** NUL or a lone surrogate (in `u` mode a paired surrogate is one astral code point, not Cs); written apart from the app's own check. */
// eslint-disable-next-line no-control-regex -- NUL is what it looks for
const UNSTORABLE_ORACLE = /[\u0000\p{Cs}]/u;

function carriesUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE_ORACLE.test(value);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => UNSTORABLE_ORACLE.test(key) || carriesUnstorable(item));
  return false;
}

/** Whether a field the route reads holds text PostgreSQL cannot store: such a body is invalid even if the route's schema lets it in. */
function fieldsCarryUnstorable(body: unknown, fields: string[]): boolean {
  return body !== null && typeof body === 'object' && fields.some((field) => carriesUnstorable((body as Record<string, unknown>)[field]));
}

function parsedJson(payload: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(payload) };
  } catch {
    return { ok: false };
  }
}

/** One request: what it sends and whether every schema of the route would accept all of it. */
type Case = { params: Record<string, string>; payload?: string | Buffer; headers: Record<string, string>; valid: boolean };

function paramsArbitrary(route: DeclaredRoute) {
  const names = paramNames(route.url);
  const valid = Object.fromEntries(names.map((name) => [name, percentEncode(validParam(route.url, name))]));
  if (names.length === 0) return fc.constant({ params: valid, hostile: false });
  // Either the real record, or at least one parameter replaced by something hostile.
  return fc.oneof(
    fc.constant({ params: valid, hostile: false }),
    fc
      .tuple(fc.subarray(names, { minLength: 1 }), fc.array(hostileSegment, { minLength: names.length, maxLength: names.length }))
      .map(([spoiled, values]) => ({
        params: Object.fromEntries(names.map((name, i) => [name, spoiled.includes(name) ? values[i]! : valid[name]!])),
        hostile: true,
      })),
  );
}

const idempotencyKey = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.uuid().map(String) },
  { weight: 1, arbitrary: hostileText.filter((text) => text.length < 5000) },
  { weight: 1, arbitrary: fc.constant('k'.repeat(101)) },
);

function jsonBodyArbitrary(route: DeclaredRoute) {
  const base = VALID_BODIES[keyOf(route)];
  const fields = fieldsOf(schemaOf(route, 'body'));
  const whole = fc.oneof(hostileValue.map(toJson), brokenPayload);
  if (!base || fields.length === 0) return whole;
  return fc.oneof(
    // The route's real fields spoiled, the others valid: the hostile value is what the schema must catch.
    {
      weight: 5,
      arbitrary: fc
        .dictionary(fc.constantFrom(...fields), fc.oneof({ weight: 2, arbitrary: hostileText }, { weight: 1, arbitrary: hostileValue }), {
          minKeys: 1,
          maxKeys: 3,
        })
        .map((spoiled) => toJson({ ...base, ...spoiled })),
    },
    // Some required fields missing.
    { weight: 1, arbitrary: fc.subarray(Object.keys(base)).map((kept) => toJson(Object.fromEntries(kept.map((key) => [key, base[key]])))) },
    { weight: 2, arbitrary: whole },
  );
}

/** A CSV every data row of which carries text PostgreSQL cannot store, in a column the import reads. */
const hostileCsv = fc
  .array(
    fc.record({
      column: fc.integer({ min: 0, max: 4 }),
      bad: fc.tuple(fc.string({ maxLength: 6 }), fc.constant('\u0000'), fc.string({ maxLength: 6 })).map((parts) => parts.join('')),
      n: fc.integer({ min: 3_100_000, max: 3_199_999 }),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((rows) => {
    const lines = rows.map(({ column, bad, n }) => {
      const cells = [String(n), `Aluno ${n}`, `a${n}@escola.test`, '1A', '05/03/2010'];
      cells[column] = `${cells[column]}${bad}`;
      return cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(';');
    });
    return Buffer.from(['Matrícula;Nome;Email;Série;Nascimento', ...lines].join('\r\n'));
  });

function multipart(content: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = 'fuzz-boundary-7b1c';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="alunos.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function writeCaseArbitrary(route: DeclaredRoute): fc.Arbitrary<Case> {
  const bodySchema = schemaOf(route, 'body');
  const headersSchema = schemaOf(route, 'headers');
  const isMultipart = ((route.options.schema as { consumes?: string[] } | undefined)?.consumes ?? []).includes('multipart/form-data');
  const body: fc.Arbitrary<{ payload?: string | Buffer; headers: Record<string, string>; valid: boolean }> = isMultipart
    ? fc.oneof(
        hostileCsv.map((csv) => ({ ...multipart(csv), valid: false })),
        fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ ...multipart(Buffer.from(bytes)), valid: false })),
        jsonBodyArbitrary(route).map((payload) => ({ payload, headers: { 'content-type': 'application/json' }, valid: false })),
      )
    : bodySchema
      ? jsonBodyArbitrary(route).map((payload) => {
          const parsed = parsedJson(payload);
          const valid = parsed.ok && accepts(bodySchema, parsed.value) && !fieldsCarryUnstorable(parsed.value, fieldsOf(bodySchema));
          return { payload, headers: { 'content-type': 'application/json' }, valid };
        })
      : // Without a body schema the route reads no body: only its parameters can be hostile.
        fc.constant({ headers: {}, valid: true });
  const header = headersSchema ? idempotencyKey : fc.constant(undefined);
  return fc.tuple(paramsArbitrary(route), body, header).map(([params, sent, key]) => {
    const headers = { ...sent.headers, ...(key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key }) };
    const headerValid = key === undefined || (accepts(headersSchema, { [IDEMPOTENCY_HEADER]: key }) && !UNSTORABLE_ORACLE.test(key));
    return {
      params: params.params,
      ...(sent.payload === undefined ? {} : { payload: sent.payload }),
      headers,
      valid: sent.valid && headerValid && !params.hostile,
    };
  });
}

function expectKnownError(response: LightMyRequestResponse, label: string) {
  const body = response.json() as { error?: { code?: unknown; message?: unknown } };
  expect(isErrorCode(body.error?.code), `${label}: ${response.body.slice(0, 300)}`).toBe(true);
  expect(typeof body.error?.message === 'string' && body.error.message.length > 0, label).toBe(true);
}

/** A write whose only input is its query (the email's one-click opt-out): fuzzed with the query strings. */
const takesOnlyQuery = (route: DeclaredRoute) =>
  schemaOf(route, 'body') === undefined && paramNames(route.url).length === 0 && schemaOf(route, 'querystring') !== undefined;
const writeRoutes = routes.filter((route) => route.method !== 'GET' && !SKIPPED[keyOf(route)] && !takesOnlyQuery(route));
const queryRoutes = routes.filter((route) => !SKIPPED[keyOf(route)] && (route.method === 'GET' || takesOnlyQuery(route)));

describe('hostile writes are refused with 4xx and change nothing', () => {
  for (const [key, reason] of Object.entries(SKIPPED)) test.skip(`${key} (${reason})`, () => {});

  test.each(writeRoutes.map((route) => [keyOf(route), route] as const))('%s', async (key, route) => {
    const hasBodySchema = schemaOf(route, 'body') !== undefined;
    if (hasBodySchema && !VALID_BODIES[key]) throw new Error(`input-fuzz: add a valid body for ${key}`);
    // Each case spoils a body the route accepts, so the spoiled part is the one thing wrong with it.
    if (hasBodySchema) expect(accepts(schemaOf(route, 'body'), VALID_BODIES[key]), `valid body of ${key}`).toBe(true);
    if (!hasBodySchema && paramNames(route.url).length === 0 && !(route.options.schema as { consumes?: string[] })?.consumes) {
      throw new Error(`input-fuzz: ${key} takes no input to spoil; skip it with a reason`);
    }
    const state = stateGuard(key);
    await fc.assert(
      fc.asyncProperty(writeCaseArbitrary(route), async (sent) => {
        fc.pre(!sent.valid);
        const before = await state.before();
        const response = await t.app.inject({
          method: route.method as 'POST',
          url: urlWith(route, sent.params),
          headers: { ...cookieFor(route), ...sent.headers },
          ...(sent.payload === undefined ? {} : { payload: sent.payload }),
        });
        stats.cases++;
        if (response.statusCode >= 500) stats.serverErrors++;
        const label = `${key} ${response.statusCode} ${JSON.stringify(sent).slice(0, 400)}`;
        if (key === PREVIEW && response.statusCode === 200) {
          expect((response.json() as { validCount: number }).validCount, label).toBe(0);
        } else {
          expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, label).toBeLessThan(500);
          expectKnownError(response, label);
        }
        await state.expectUnchanged(before, label);
      }),
      { numRuns: 30 },
    );
  });
});

describe('hostile query strings never answer 5xx and change nothing', () => {
  const queryValue = fc.oneof(
    { weight: 3, arbitrary: hostileText.filter((text) => text.length < 10_000).map(percentEncode) },
    { weight: 2, arbitrary: rawEncoded },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...OUT_OF_RANGE_DATES)
        .map((date) => Buffer.from(`${date.replace('T', ' ')}|${ana.id}`).toString('base64url')),
    },
  );

  test.each(queryRoutes.map((route) => [keyOf(route), route] as const))('%s', async (key, route) => {
    const names = [...fieldsOf(schemaOf(route, 'querystring')), 'q', 'x'];
    const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 6 }).map(percentEncode)), queryValue), {
      minLength: 1,
      maxLength: 4,
    });
    const valid = Object.fromEntries(paramNames(route.url).map((name) => [name, percentEncode(validParam(route.url, name))]));
    const state = stateGuard(key);
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const before = await state.before();
        const search = pairs.map(([name, value]) => `${name}=${value}`).join('&');
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: `${urlWith(route, valid)}?${search}`,
          headers: cookieFor(route),
        });
        stats.cases++;
        if (response.statusCode >= 500) stats.serverErrors++;
        const label = `${key}?${search.slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, label).toBeLessThan(500);
        if (response.statusCode >= 400) expectKnownError(response, label);
        await state.expectUnchanged(before, label);
      }),
      { numRuns: 25 },
    );
  });
});

describe('text we do not store (control characters, lone surrogates) and impossible dates answer 400 with a pt-BR message', () => {
  const cursorAt = (time: string) => Buffer.from(`${time}|${ana.id}`).toString('base64url');
  const cases: [
    string,
    'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    string,
    'anonymous' | 'student' | 'admin',
    string | undefined,
    Record<string, string>,
    string,
  ][] = [
    [
      'a NUL as the matrícula of the student login',
      'POST',
      '/api/auth/student/login',
      'anonymous',
      '{"studentId":"\\u0000","password":"x"}',
      {},
      'invalid_text',
    ],
    [
      'a lone surrogate in the administrator login email',
      'POST',
      '/api/auth/admin/login',
      'anonymous',
      '{"email":"prof\\ud800@escola.test","password":"x"}',
      {},
      'invalid_text',
    ],
    [
      'a NUL in a transfer description',
      'POST',
      '/api/meritus/transfers',
      'student',
      `{"recipientId":"${bruno.id}","amount":1,"description":"Lanche\\u0000"}`,
      {},
      'invalid_text',
    ],
    [
      'a lone surrogate in a transfer description',
      'POST',
      '/api/meritus/transfers',
      'student',
      `{"recipientId":"${bruno.id}","amount":1,"description":"\\udc00"}`,
      {},
      'invalid_text',
    ],
    [
      'a NUL in the Idempotency-Key',
      'POST',
      '/api/estelecas/transfers',
      'student',
      `{"recipientId":"${bruno.id}","amount":1}`,
      { [IDEMPOTENCY_HEADER]: 'chave\u0000chave' },
      'invalid_text',
    ],
    [
      'an Idempotency-Key of 101 characters',
      'POST',
      '/api/estelecas/transfers',
      'student',
      `{"recipientId":"${bruno.id}","amount":1}`,
      { [IDEMPOTENCY_HEADER]: 'k'.repeat(101) },
      'idempotency_key_invalid',
    ],
    [
      'a NUL in the description of an award',
      'POST',
      `/api/admin/students/${ana.id}/meritus`,
      'admin',
      '{"type":"reward","amount":1,"description":"\\u0000"}',
      {},
      'invalid_text',
    ],
    [
      'a lone surrogate in a bulk award',
      'POST',
      '/api/admin/operations/bulk',
      'admin',
      `{"type":"reward","amount":1,"description":"Feira\\ud83d","currency":"meritus","studentUuids":["${ana.id}"]}`,
      {},
      'invalid_text',
    ],
    [
      'a NUL in a new student’s name',
      'POST',
      '/api/admin/students',
      'admin',
      '{"studentId":"3999998","name":"Eva\\u0000","password":"segredo-1","grade":"1º EM - Turma A"}',
      {},
      'invalid_text',
    ],
    [
      'an escape sequence in a new student’s name',
      'POST',
      '/api/admin/students',
      'admin',
      '{"studentId":"3999998","name":"Eva\\u001b[31m","password":"segredo-1","grade":"1º EM - Turma A"}',
      {},
      'invalid_text',
    ],
    ['a control character in a turma’s name', 'POST', '/api/admin/turmas', 'admin', '{"name":"Turma\\u0001Z"}', {}, 'invalid_text'],
    [
      'a NUL in a new student’s password',
      'POST',
      '/api/admin/students',
      'admin',
      '{"studentId":"3999998","name":"Eva","password":"segredo-\\u0000","grade":"1º EM - Turma A"}',
      {},
      'invalid_text',
    ],
    [
      'a birth date in year 9999',
      'POST',
      '/api/admin/students',
      'admin',
      '{"studentId":"3999998","name":"Eva","password":"segredo-1","grade":"1º EM - Turma A","birthDate":"9999-12-31"}',
      {},
      'invalid_birth_date',
    ],
    [
      'a lone surrogate in a student’s new name',
      'PATCH',
      `/api/admin/students/${bruno.id}`,
      'admin',
      '{"name":"Bruno\\udfff"}',
      {},
      'invalid_text',
    ],
    [
      'a NUL in a photo address',
      'PUT',
      `/api/admin/students/${bruno.id}/photo`,
      'admin',
      '{"url":"https://fotos.escola.test/\\u0000.jpg"}',
      {},
      'invalid_text',
    ],
    [
      'a tag expiry in year 9999',
      'PATCH',
      `/api/admin/students/${bruno.id}/tags/leader`,
      'admin',
      '{"expiresAt":"9999-12-31T00:00:00Z"}',
      {},
      'invalid_tag_expiry',
    ],
    ['a NUL in a reason preset', 'POST', '/api/admin/reason-presets', 'admin', '{"label":"\\u0000"}', {}, 'invalid_text'],
    ['a NUL as the reason preset to delete', 'DELETE', '/api/admin/reason-presets/%00', 'admin', undefined, {}, 'invalid_text'],
    ['a NUL as the goal to change', 'PUT', '/api/admin/dashboard/goals/%00', 'admin', '{"target":10}', {}, 'invalid_text'],
    ['?q=%00 in the operations search', 'GET', '/api/me/operations?q=%00', 'student', undefined, {}, 'invalid_text'],
    [
      'a cursor for year 9999',
      'GET',
      `/api/me/operations?cursor=${cursorAt('9999-12-31 23:59:59.5+00')}`,
      'student',
      undefined,
      {},
      'validation',
    ],
    [
      'a cursor for 30 February',
      'GET',
      `/api/me/operations?cursor=${cursorAt('2024-02-30 10:00:00+00')}`,
      'student',
      undefined,
      {},
      'validation',
    ],
    [
      'a cursor with an offset of 99 hours',
      'GET',
      `/api/me/operations?cursor=${cursorAt('2024-02-10 10:00:00+99')}`,
      'student',
      undefined,
      {},
      'validation',
    ],
  ];

  /** The declared route a concrete request reaches, for the audit rows it may write by design. */
  const routeKeyOf = (method: string, url: string) => {
    const path = url.split('?')[0]!;
    const route = routes.find((r) => r.method === method && new RegExp(`^${r.url.replace(/:\w+/g, '[^/]+')}$`).test(path));
    return route ? keyOf(route) : `${method} ${path}`;
  };

  test.each(cases)('%s', async (_label, method, url, who, payload, headers, code) => {
    const key = routeKeyOf(method, url);
    const before = comparable(await snapshot(), key);
    const response = await t.app.inject({
      method,
      url,
      headers: {
        ...(who === 'anonymous' ? {} : { cookie: cookies[who] }),
        ...(payload ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({ code, message: ERROR_MESSAGES[code as ErrorCode] });
    expect(comparable(await snapshot(), key)).toEqual(before);
  });
});
