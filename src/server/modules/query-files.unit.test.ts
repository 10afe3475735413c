import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

/**
 * Decision 016: the raw SQL of the reports, the dashboard and the diagnostics lives in their
 * module's *.queries.ts, which answers figures and codes; the services, the exports and the
 * PDFs write no SQL of their own.
 */
const modulesDir = import.meta.dirname;

/** The source files (not tests) these rules cover, relative to the modules folder. */
function coveredFiles(): string[] {
  const inFolder = (folder: string, keep: (name: string) => boolean = () => true) =>
    fs
      .readdirSync(path.join(modulesDir, folder))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && keep(name))
      .map((name) => path.join(folder, name));
  return [...inFolder('reports'), ...inFolder('dashboard'), ...inFolder('system', (name) => name.startsWith('diagnostic'))];
}

test('the reports, the dashboard and the diagnostics write raw SQL only in their query files', () => {
  const files = coveredFiles();
  expect(files.filter((file) => file.endsWith('.queries.ts')).sort()).toEqual([
    path.join('dashboard', 'dashboard.queries.ts'),
    path.join('reports', 'report-store.queries.ts'),
    path.join('reports', 'reports.queries.ts'),
    path.join('system', 'diagnostics.queries.ts'),
  ]);
  const withSql = files.filter(
    (file) => !file.endsWith('.queries.ts') && /\bsql`|\.execute\(/.test(fs.readFileSync(path.join(modulesDir, file), 'utf8')),
  );
  expect(withSql).toEqual([]);
});
