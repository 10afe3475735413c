import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const root = import.meta.dirname;
const featuresDir = path.join(root, 'src/web/features');

/** Read at lint time, so a new feature folder is fenced off from the others without editing this file. */
const features = fs.existsSync(featuresDir)
  ? fs
      .readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];

/**
 * src/shared in layers, each importing only the layers before it (type-only imports too: a type
 * is a dependency the next reader must follow): constants → format → messages → errors →
 * validation → the domain schemas (every other file), and the route contract above them all.
 */
const sharedLayers = [['constants.ts', 'ledger-types.ts'], ['format.ts'], ['messages-core.ts'], ['errors.ts'], ['validation.ts']];
/** The route contract (src/shared/contract) stands on the domain schemas; of the files beside them, only first-reads.ts (which names routes) stands on it. */
const sharedDir = path.join(root, 'src/shared');
const sharedDomainFiles = fs
  .readdirSync(sharedDir)
  .filter((name) => /\.ts$/.test(name) && !name.endsWith('.test.ts') && name !== 'first-reads.ts');
const sharedLayerZones = sharedLayers.map((files, index) => ({
  target: files.map((file) => `./src/shared/${file}`),
  from: './src/shared',
  except: sharedLayers
    .slice(0, index)
    .flat()
    .map((file) => `./${file}`),
  message: `src/shared em camadas: ${files.join(', ')} só importa(m) ${sharedLayers.slice(0, index).flat().join(', ') || 'pacotes'}.`,
}));

/** The import directions of ARCHITECTURE.md: web → shared, server → shared, features apart. */
const zones = [
  ...sharedLayerZones,
  {
    target: sharedDomainFiles.map((name) => `./src/shared/${name}`),
    from: './src/shared/contract',
    message: 'O contrato de rotas (src/shared/contract) fica acima dos esquemas de domínio: eles não o importam.',
  },
  {
    target: ['./src/web/features', './src/web/lib', './src/web/ui'],
    from: './src/web/app',
    message: 'src/web/app (roteador, layout) fica acima de features, lib e ui: a sessão e os caminhos estão em src/web/lib.',
  },
  { target: './src/web', from: './src/server', message: 'O front end (src/web) não importa o servidor; use src/shared.' },
  { target: './src/server', from: './src/web', message: 'O servidor (src/server) não importa o front end; use src/shared.' },
  {
    target: './src/shared',
    from: '.',
    except: ['./src/shared', './node_modules'],
    message: 'src/shared só importa de src/shared (e de pacotes).',
  },
  {
    target: './src/server/**/*.routes.ts',
    from: './src/server/**/*.routes.ts',
    message: 'Um arquivo de rotas não importa outro: o que ambos usam vai para um serviço ou para src/server (app.ts registra cada um).',
  },
  ...features.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: './src/web/features',
    except: [`./${feature}`],
    message: 'Uma feature não importa outra; mova o que é comum para src/web/ui ou src/web/lib.',
  })),
];

export default defineConfig(
  globalIgnores(['dist/', 'node_modules/', 'data/', '.tmp/', 'test-results/', 'playwright-report/', 'coverage/', 'bench/results/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      // no-cycle reads the imported files: they are TypeScript.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      // Dependencies point one way: a module that needs another's caller has a missing layer.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Prettier wraps code at 140 columns but not strings, comments or class lists: those wrap by hand, within 160.
      'max-len': ['error', { code: 160, ignoreUrls: false }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    // The web reaches the API only through the contract (decision 016): no address written by hand, no answer's type either.
    files: ['src/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal[value=/^\\x2Fapi(\\x2F|$)/]', 'TemplateElement[value.raw=/^\\x2Fapi(\\x2F|$)/]'].map((selector) => ({
          selector,
          message: 'Endereços da API vêm do contrato (src/shared/contract): call(routes.x.y), urlOf(routes.x.y).',
        })),
        {
          selector: 'CallExpression[callee.object.name="api"][callee.property.name=/^(get|post|put|patch|delete)$/]',
          message: 'Chame as rotas do contrato: call(routes.x.y, { params, query, body }).',
        },
        {
          selector:
            'CallExpression[typeArguments]:matches([callee.name=/^(call|readOf|sendForm|takeEarlyRequest)$/], [callee.property.name="call"])',
          message: 'O tipo da resposta vem da rota do contrato; não o escreva.',
        },
      ],
    },
  },
);
