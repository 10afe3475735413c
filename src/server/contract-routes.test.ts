import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from './test/test-app.ts';
import { registeredApiRoutes } from './test/routes.ts';
import { ALL_ROUTES } from '../shared/contract/routes.ts';
import { contractDrift, route } from './contract-routes.ts';
import { routes } from '../shared/contract/routes.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A contract id in the spelling of registeredApiRoutes: "GET /api/admin/students/{id}". */
const openApiSpelling = (id: string) => id.replace(/:(\w+)/g, '{$1}');

test('every API route the app registers has a definition in the contract, and every definition a route (method and path)', async () => {
  // Read from Fastify's own route tree, not from the table the start-up check reads.
  const registered = registeredApiRoutes(t.app).sort();
  const defined = ALL_ROUTES.map((route) => openApiSpelling(route.id)).sort();
  expect(registered.length).toBeGreaterThan(80);
  expect(
    registered.filter((id) => !defined.includes(id)),
    'registered without a definition',
  ).toEqual([]);
  expect(
    defined.filter((id) => !registered.includes(id)),
    'defined without a route',
  ).toEqual([]);
  expect(new Set(defined).size, 'each route defined once').toBe(defined.length);
});

test('a route registered outside the contract stops the start-up', async () => {
  const other = await buildTestApp();
  try {
    other.app.get('/api/outside-the-contract', { config: { access: 'public' } }, async () => ({ ok: true }));
    await expect(other.app.ready()).rejects.toThrow('rotas da API fora do contrato (src/shared/contract): GET /api/outside-the-contract');
  } finally {
    await other.close().catch(() => {});
  }
});

test('the comparison names both kinds of drift: a route without a definition and a definition without a route', () => {
  const contract = ['GET /api/ranking', 'POST /api/admin/students'];
  expect(contractDrift(['GET /api/ranking', 'GET /api/extra'], contract)).toEqual({
    withoutDefinition: ['GET /api/extra'],
    withoutRoute: ['POST /api/admin/students'],
  });
  expect(contractDrift([...contract].reverse(), contract)).toEqual({ withoutDefinition: [], withoutRoute: [] });
});

test('only a public route may take writes from other sites (the CSRF check is left out for it)', () => {
  expect(() => route(t.app, routes.mail.letterEmail, { crossSite: true }, async () => ({ message: '' }))).toThrow(
    'POST /api/admin/students/:id/guardian-letter-email: só uma rota pública pode vir de outros sites',
  );
});
