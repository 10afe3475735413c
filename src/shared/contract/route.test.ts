import { describe, expect, test } from 'vitest';
import { urlOf } from './route.ts';
import { ALL_ROUTES, routes } from './routes.ts';

describe('the contract', () => {
  test("a route's address: its params filled in and encoded, then its query, lists repeated and empty values left out", () => {
    expect(urlOf(routes.adminStudents.update, { params: { id: 'a/b c' } })).toBe('/api/admin/students/a%2Fb%20c');
    expect(urlOf(routes.reports.overview, { query: { period: 'custom', from: '2026-03-01', to: '', turma: ['1º A', 'B'] } })).toBe(
      '/api/admin/reports/overview?period=custom&from=2026-03-01&turma=1%C2%BA+A&turma=B',
    );
    expect(urlOf(routes.archive.list, { query: { q: '', featured: 'true', cursor: undefined } })).toBe(
      '/api/admin/archive/images?featured=true',
    );
    expect(urlOf(routes.students.ranking)).toBe('/api/ranking');
  });

  test('every route has a unique id, its method and path, and loads its schemas', async () => {
    const ids = ALL_ROUTES.map((route) => route.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(routes.students.ranking.id).toBe('GET /api/ranking');
    for (const route of ALL_ROUTES) {
      expect(route.id).toBe(`${route.method} ${route.path}`);
      const schemas = await route.schemas();
      // A JSON route says what it answers (the API's own description aside); a file or a stream is sent as it is.
      if (route.answer === 'json' && !route.docs.hide) expect(Object.keys(schemas.response ?? {}), route.id).not.toEqual([]);
      if (route.path.includes('/:')) expect(schemas.params, route.id).toBeDefined();
    }
  });
});
