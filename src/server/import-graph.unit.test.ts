import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

/**
 * Imports go one way, type-only ones and tests included (ESLint's import-x/no-cycle passes over
 * `import type`): no file of src reaches back to itself, and no folder under src/server/modules
 * reaches back to one that reaches it. Something two modules need moves to the module that owns
 * it or to a lower layer (src/server/db, src/server/views…), which imports no module.
 */
const serverDir = import.meta.dirname;
const srcDir = path.dirname(serverDir);
const modulesDir = path.join(serverDir, 'modules');

/** The TypeScript files under a folder, relative to it. */
function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => /\.tsx?$/.test(name));
}

/** What a file imports from this repository (`import`, `import type`, `export … from`, `import()`), as absolute paths. */
function localImports(file: string): string[] {
  return ts
    .preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    .importedFiles.filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => path.resolve(path.dirname(file), fileName));
}

/** The module folder a path lies in, if any. */
function moduleOf(file: string): string | undefined {
  const [first, ...rest] = path.relative(modulesDir, file).split(path.sep);
  return first && first !== '..' && rest.length > 0 ? first : undefined;
}

/** For each file of src, the files of src it imports and, for each, the file itself (the graph's shape for cyclicGroups). */
function fileGraph(): Map<string, Map<string, Set<string>>> {
  const graph = new Map<string, Map<string, Set<string>>>();
  for (const file of sourceFiles(srcDir).map((name) => path.join(srcDir, name))) {
    const self = path.relative(srcDir, file);
    graph.set(self, new Map(localImports(file).map((target) => [path.relative(srcDir, target), new Set([self])])));
  }
  return graph;
}

/** For each module, the modules it imports and, for each, the files that do. */
function moduleGraph(): Map<string, Map<string, Set<string>>> {
  const graph = new Map<string, Map<string, Set<string>>>();
  for (const module of fs.readdirSync(modulesDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    const edges = new Map<string, Set<string>>();
    graph.set(module.name, edges);
    for (const file of sourceFiles(path.join(modulesDir, module.name))) {
      for (const target of localImports(path.join(modulesDir, module.name, file)).map(moduleOf)) {
        if (target && target !== module.name) edges.set(target, (edges.get(target) ?? new Set()).add(path.join(module.name, file)));
      }
    }
  }
  return graph;
}

/** The groups of modules that reach each other (strongly connected components of more than one), by Tarjan's algorithm. */
function cyclicGroups(graph: Map<string, Map<string, Set<string>>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

test('the modules import each other one way: no folder-level cycle, type-only imports and tests included', () => {
  const graph = moduleGraph();
  expect(graph.get('ledger')?.size, 'the graph sees the imports between modules').toBeGreaterThan(0);
  const cycles = cyclicGroups(graph).map((group) =>
    group.flatMap((from) => group.flatMap((to) => [...(graph.get(from)?.get(to) ?? [])].map((file) => `${from} → ${to} (${file})`))),
  );
  expect(cycles).toEqual([]);
});

test('no file reaches back to itself through its imports, type-only ones included', () => {
  const graph = fileGraph();
  expect(graph.get(path.join('shared', 'ledger.ts'))?.size, 'the graph sees the imports between files').toBeGreaterThan(0);
  expect(cyclicGroups(graph)).toEqual([]);
});

test('the layers below the modules (db, views, storage) import none of them', () => {
  const upward = ['db', 'views', 'storage'].flatMap((layer) =>
    sourceFiles(path.join(serverDir, layer))
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .filter((file) => localImports(path.join(serverDir, layer, file)).some((target) => moduleOf(target) !== undefined))
      .map((file) => path.join(layer, file)),
  );
  expect(upward).toEqual([]);
});
