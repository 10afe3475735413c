import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { registeredApiRoutes } from '../../test/routes.ts';
import { students, studentTags } from '../../db/schema.ts';
import { formatDate } from '../../../shared/format.ts';

/**
 * What a student's browser may learn about another student: what the screens show
 * (name, matrícula, grade, photo, balances, tags) and whether a removed party was
 * removed. Never email, birth date, password hash, login times or totals.
 */
/** What anyone signed in may see of a student: `position` is their place in the ranking, which their Méritus decides. */
const PUBLIC_KEYS = new Set(['id', 'studentId', 'name', 'grade', 'photo', 'meritus', 'estelecas', 'tags', 'removed', 'position']);

/**
 * Routes the OpenAPI document does not list, each reviewed: a new hidden /api route
 * fails this test until someone checks what it sends to students and adds it here.
 */
const REVIEWED_HIDDEN_ROUTES = new Set([
  'GET /api/openapi.json', // the API description, no data
]);

/** The live stream never ends, so it cannot go through inject; the test below reads it over HTTP. */
const STREAMED = 'GET /api/events';

/** Endpoints a student must be able to call; guards against the route discovery silently finding nothing. */
const KNOWN_STUDENT_ENDPOINTS = [
  'GET /api/auth/me',
  'GET /api/ranking',
  'GET /api/students/directory',
  'GET /api/tags/active',
  'GET /api/me/transactions',
  'GET /api/me/estelecas',
  'GET /api/me/operations',
  'GET /api/me/summary',
  'POST /api/meritus/transfers',
  'POST /api/estelecas/transfers',
  'PUT /api/tags/{tagId}/like',
  'DELETE /api/tags/{tagId}/like',
];

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minLength?: number;
  $ref?: string;
};
type Operation = {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type OpenApi = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } };

let t: TestApp;
let doc: OpenApi;
let ana: TestApp['students'][number];
let others: TestApp['students'][number][];
let tagId: string;
/** Every value about another student that must never reach Ana's browser. */
let secrets: string[];

beforeAll(async () => {
  t = await buildTestApp();
  const all = t.students;
  ana = all[0]!;
  others = all.slice(1);
  for (const [index, student] of all.entries()) {
    await t.db
      .update(students)
      .set({
        email: `segredo${index}@privado.test`,
        birthDate: `2009-0${index + 1}-1${index}`,
        photoUrl: `/uploads/photos/${student.studentId}.jpg`,
      })
      .where(eq(students.id, student.id));
  }
  // Everyone signs in once, so login times exist.
  for (const student of all) await t.loginStudent(student.studentId);

  const admin = await t.loginAdmin();
  for (const student of all) {
    for (const currency of ['meritus', 'estelecas']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/admin/students/${student.id}/${currency}`,
        headers: { cookie: admin },
        payload: { type: 'reward', amount: 200, description: 'Participação em aula' },
      });
      expect(response.statusCode).toBe(201);
    }
  }
  // History with others on both sides, so Ana's lists name them.
  const [bruno, carla, diego] = others as [typeof ana, typeof ana, typeof ana];
  const moves: [typeof ana, typeof ana, 'meritus' | 'estelecas'][] = [
    [bruno, ana, 'meritus'],
    [ana, carla, 'meritus'],
    [diego, ana, 'estelecas'],
    [carla, bruno, 'meritus'],
  ];
  for (const [from, to, currency] of moves) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/${currency}/transfers`,
      headers: { cookie: await t.loginStudent(from.studentId) },
      payload: { recipientId: to.id, amount: 5 },
    });
    expect(response.statusCode).toBe(201);
  }
  const [tag] = await t.db
    .insert(studentTags)
    .values([
      { studentUuid: bruno.id, kind: 'leader', expiresAt: new Date(Date.now() + 7 * 86_400_000) },
      { studentUuid: carla.id, kind: 'angel', expiresAt: new Date(Date.now() + 3 * 86_400_000) },
    ])
    .returning();
  tagId = tag!.id;

  const rows = await t.db.select().from(students);
  secrets = rows
    .filter((row) => row.id !== ana.id)
    .flatMap((row) => [row.email!, row.birthDate!, formatDate(row.birthDate!), row.passwordHash, row.lastLogin!.toISOString()]);
  expect(secrets.every(Boolean)).toBe(true);

  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
});
afterAll(async () => t.close());

function resolve(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.split('/').pop()!;
  return doc.components?.schemas?.[name];
}

/** A value that passes the schema, pointing at another student wherever an id is asked for. */
function sample(input: JsonSchema | undefined): unknown {
  const schema = resolve(input);
  if (!schema) return undefined;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return sample(variants.find((v) => v.type !== 'null') ?? variants[0]);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((ty) => ty !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value)]));
    case 'array':
      return [sample(schema.items)];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      if (schema.format === 'uuid') return others[0]!.id;
      if (schema.format === 'email') return 'alguem@escola.test';
      if (schema.format === 'date') return '2010-01-01';
      return 'Teste de privacidade'.padEnd(schema.minLength ?? 0, '!');
  }
}

type Finding = { endpoint: string; problem: string };

/** Walks a response and reports anything about another student beyond the public fields. */
function inspect(endpoint: string, text: string): { findings: Finding[]; othersSeen: number } {
  const findings: Finding[] = [];
  for (const secret of secrets) {
    if (text.includes(secret)) findings.push({ endpoint, problem: `contains ${secret}` });
  }
  // A password or its hash as a value; a field or rule that only names one (currentPassword, studentsChangeResetPassword) is not.
  if (/"password(?:Hash)?"\s*:|password_hash|\$argon2/i.test(text)) findings.push({ endpoint, problem: 'carries a password' });
  let othersSeen = 0;
  const otherIds = new Set(others.flatMap((s) => [s.id, s.studentId]));
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    const aboutOther = otherIds.has(String(record.id)) || otherIds.has(String(record.studentId));
    if (aboutOther) {
      othersSeen += 1;
      const extra = Object.keys(record).filter((key) => !PUBLIC_KEYS.has(key));
      if (extra.length) findings.push({ endpoint, problem: `another student with ${extra.join(', ')}` });
    }
    Object.values(record).forEach(walk);
  };
  if (text) {
    try {
      walk(JSON.parse(text));
    } catch {
      // not JSON (an empty 204, for instance): the text scan above covers it
    }
  }
  return { findings, othersSeen };
}

describe('privacy: what a student receives about other students', () => {
  // Calls every registered API route as a student: past the default 30 s on a busy machine.
  test('every endpoint a student can call, found from the registered routes', async () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const hidden = registeredApiRoutes(t.app).filter((route) => !documented.includes(route));
    expect(hidden.filter((route) => !REVIEWED_HIDDEN_ROUTES.has(route))).toEqual([]);

    const callable: string[] = [];
    const findings: Finding[] = [];
    const seen = new Map<string, number>();
    // Logout last, so it does not end the session the others use.
    const endpoints = documented
      .filter((endpoint) => endpoint !== STREAMED)
      .sort((a, b) => Number(a.endsWith('/logout')) - Number(b.endsWith('/logout')));
    for (const endpoint of endpoints) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const operation = doc.paths[path]![method.toLowerCase()]!;
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.required) query.set(parameter.name, String(sample(parameter.schema)));
      }
      const url =
        path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'tagId' ? tagId : others[0]!.id)) + (query.size ? `?${query}` : '');
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { cookie: await t.loginStudent(ana.studentId), 'idempotency-key': randomUUID() },
        ...(bodySchema ? { payload: sample(bodySchema) as object } : {}),
      });
      expect(response.statusCode, `${endpoint} → ${response.body}`).toBeLessThan(500);
      if (response.statusCode !== 401 && response.statusCode !== 403) callable.push(endpoint);
      if (path.startsWith('/api/admin/')) expect(response.statusCode, endpoint).toBe(403);
      const result = inspect(endpoint, response.body);
      findings.push(...result.findings);
      seen.set(endpoint, result.othersSeen);
      if (KNOWN_STUDENT_ENDPOINTS.includes(endpoint)) expect(response.statusCode, `${endpoint} → ${response.body}`).toBeLessThan(300);
    }

    expect(findings).toEqual([]);
    expect(callable).toEqual(expect.arrayContaining(KNOWN_STUDENT_ENDPOINTS));
    // The lists that name classmates really did (so the walk had something to check).
    for (const endpoint of [
      'GET /api/ranking',
      'GET /api/students/directory',
      'GET /api/tags/active',
      'GET /api/me/operations',
      'GET /api/me/transactions',
      'GET /api/me/estelecas',
    ]) {
      expect(seen.get(endpoint), endpoint).toBeGreaterThan(0);
    }
  }, 120_000);

  test('the live stream sends event types only, never student data', async () => {
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}/api/events`, {
      headers: { cookie: await t.loginStudent(ana.studentId) },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    const bothArrived = () => text.includes('event: ranking') && text.includes('event: tags');
    let heard = () => {};
    const arrived = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ranking and tags events within 10 s; the stream sent:\n${text}`)), 10_000);
      heard = () => {
        if (!bothArrived()) return;
        clearTimeout(timer);
        resolve();
      };
    });
    const pump = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          text += new TextDecoder().decode(value);
          heard();
        }
      } catch {
        // aborted
      }
    })();
    const [bruno, carla] = others as [typeof ana, typeof ana];
    await t.app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie: await t.loginStudent(bruno.studentId) },
      payload: { recipientId: carla.id, amount: 1 },
    });
    await t.app.inject({ method: 'PUT', url: `/api/tags/${tagId}/like`, headers: { cookie: await t.loginStudent(carla.studentId) } });
    await arrived;
    controller.abort();
    await pump;
    const messages = [...text.matchAll(/^event: (.*)\ndata: (.*)$/gm)].map((match) => ({
      event: match[1]!,
      data: JSON.parse(match[2]!) as Record<string, unknown>,
    }));
    expect(messages.map(({ event }) => event)).toContain('ready');
    // Events name what changed, never whose data (a tag event says whether it is the student's, a ranking event their own
    // position, if it moved); ready
    // says only how long ago the server heard an event.
    for (const { event, data } of messages) {
      const allowed = event === 'ready' ? ['sinceLastEventMs'] : ['type', 'mine', 'boards', 'own'];
      expect(
        Object.keys(data).every((key) => allowed.includes(key)),
        event,
      ).toBe(true);
    }
    expect(inspect('GET /api/events', text).findings).toEqual([]);
  });
});
