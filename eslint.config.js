// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import layering from './eslint-rules/layering.js';
import ownKeyLookup from './eslint-rules/own-key-lookup.js';

/** The project's own rules, registered as `local`. */
const local = { meta: layering.meta, rules: { ...layering.rules, 'own-key-lookup': ownKeyLookup } };

/**
 * What the pure core may take from src/shared: the ledger's own vocabulary and pure helpers,
 * never the transport contract (api*.ts) — view-models for the API live in library/ and api/.
 */
const LEDGER_VOCABULARY = [
  'src/shared/ledger-types',
  'src/shared/json-text',
  'src/shared/own-key',
  'src/shared/session-key',
  'src/shared/format-bytes',
  'src/shared/lru',
  'src/shared/plan-rows',
];

/** What the renderer may take from outside it (besides src/shared): React and the UI's libraries. */
const RENDERER_PACKAGES = [
  'react',
  'react/*',
  'react-dom/*',
  'react-markdown',
  'zustand',
  'zustand/*',
  '@tanstack/react-virtual',
  '@jest/diff-sequences',
];

/**
 * The renderer's folders and the folders each may import (an allow-list, as for src/main). Read
 * top-down: util, icons, styles and text use (almost) nothing; store holds the state; api and data
 * reach the backend; views build on them; the root files (app.tsx, leaf-panes.tsx) compose it all.
 */
const RENDERER_FOLDERS = {
  actions: ['export', 'store', 'tree', 'util'],
  api: ['util'],
  'context-chart': ['api', 'store', 'tree', 'util'],
  cost: ['api', 'store', 'tree', 'util'],
  data: ['api'],
  'entry-views': ['api', 'data', 'icons', 'store', 'text', 'tree', 'util'],
  export: ['api', 'store'],
  fate: ['api', 'store', 'tree', 'util'],
  icons: [],
  keyboard: ['actions', 'store', 'util'],
  layout: ['api', 'store'],
  leaf: ['api', 'data', 'entry-views', 'export', 'store', 'text', 'tree', 'util'],
  library: ['api', 'entry-views', 'icons', 'layout', 'search', 'store', 'util'],
  live: ['api', 'data', 'store', 'tree'],
  palette: ['actions', 'api', 'keyboard', 'search', 'store', 'util'],
  panels: ['api', 'cost', 'plan', 'store', 'tree', 'util'],
  plan: ['api', 'data', 'leaf', 'store', 'util'],
  search: ['api', 'keyboard', 'layout', 'store', 'tree', 'util'],
  store: ['util'],
  text: ['util'],
  tree: ['api', 'data', 'icons', 'store', 'util'],
  util: [],
  styles: [],
};

/**
 * The layers of src/ and what each may import (everything else is denied; see eslint-rules/layering.js).
 * Entries: `node:*` any Node built-in · `src/a/b` a folder (and below) or one file · a package
 * (`pkg/*` with its subpaths). The most specific layer wins. Tests (`*.test.ts(x)`) may add TEST_ALLOW
 * and their layer's `testAllow`.
 * @type {import('./eslint-rules/layering.js').Layer[]}
 */
const LAYERS = [
  {
    layer: 'src/shared',
    why: 'the contract both sides use: types, zod schemas, pure helpers',
    allow: ['src/shared', 'zod'],
  },
  {
    layer: 'src/shared/api-methods',
    why: 'the method list the preload exposes: dependency-free',
    allow: [],
    types: ['src/shared'],
  },
  {
    layer: 'src/main/core',
    why: 'the pure ledger core',
    allow: ['node:*', 'src/main/core', ...LEDGER_VOCABULARY],
    dynamic: false,
  },
  {
    // flock(2) has no Node API: the one native binding, loaded lazily so reading works where it cannot load.
    layer: 'src/main/core/flock',
    why: 'the flock(2) binding of the core',
    allow: ['node:*', 'src/main/core', ...LEDGER_VOCABULARY],
    dynamic: false,
    requires: ['koffi'],
  },
  {
    layer: 'src/main/secrets',
    why: 'secret scanning of entries as they are read (secretlint) and redaction, plain Node',
    // The scan's own thread is found as the backend worker's entry is (threads/thread-entry).
    allow: ['node:*', 'src/main/secrets', 'src/main/core', 'src/shared', '@secretlint/*', 'src/main/threads'],
  },
  {
    layer: 'src/main/threads',
    why: 'which file a worker thread runs (built, or the sources through the dev bootstrap), plain Node',
    allow: ['node:*', 'src/main/threads'],
  },
  {
    layer: 'src/main/library',
    why: 'the session library and watcher, plain Node',
    allow: ['node:*', 'src/main/library', 'src/main/core', 'src/main/secrets', 'src/shared'],
    testAllow: ['src/main/api'],
  },
  {
    layer: 'src/main/search',
    why: 'search over sessions, plain Node',
    allow: ['node:*', 'src/main/search', 'src/main/core', 'src/shared'],
    testAllow: ['src/main/library'],
  },
  {
    layer: 'src/main/cost',
    why: 'tokens and prices per turn and session, plain Node',
    allow: ['node:*', 'src/main/cost', 'src/main/core', 'src/shared', 'zod', 'resources/prices.json'],
  },
  {
    layer: 'src/main/export',
    why: 'self-contained HTML, JSON and Markdown exports, plain Node',
    allow: ['node:*', 'src/main/export', 'src/main/core', 'src/shared'],
    testAllow: ['jsdom'],
  },
  {
    layer: 'src/main/api',
    why: 'the API backend, plain Node',
    allow: [
      'node:*',
      'src/main/api',
      'src/main/core',
      'src/main/library',
      'src/main/search',
      'src/main/cost',
      'src/main/export',
      'src/main/secrets',
      'src/shared',
    ],
    testAllow: ['src/main/server', 'src/main/worker'],
  },
  {
    layer: 'src/main/worker',
    why: 'the worker thread that runs the API backend, plain Node',
    allow: [
      'node:*',
      'src/main/worker',
      'src/main/threads',
      'src/main/api',
      'src/main/core',
      'src/main/library',
      'src/shared',
      'zod',
      // Ends the secret scan's thread with the backend.
      'src/main/secrets/scan-thread',
    ],
  },
  {
    // mallopt(3) has no Node API either: the process's malloc threshold, a saving where it loads.
    layer: 'src/main/worker/process-memory',
    why: 'how the serving process allocates (V8 and glibc settings)',
    allow: ['node:*'],
    dynamic: false,
    requires: ['koffi'],
  },
  {
    layer: 'src/main/web',
    why: 'static files and CSP for the renderer, plain Node',
    allow: ['node:*', 'src/main/web', 'src/shared'],
  },
  {
    layer: 'src/main/server',
    why: 'serve mode: loopback HTTP + WebSocket, plain Node',
    allow: ['node:*', 'src/main/server', 'src/main/api', 'src/main/worker', 'src/main/web', 'src/shared', 'ws'],
  },
  {
    layer: 'src/main/electron',
    why: 'the Electron shell',
    allow: ['node:*', 'electron', 'src/main/electron', 'src/main/api', 'src/main/worker', 'src/main/web', 'src/shared'],
    testAllow: ['src/preload', 'src/main/server/testing'],
  },
  {
    layer: 'src/main/index',
    why: 'the Electron main entry',
    allow: [
      'node:*',
      'electron',
      'src/main/electron',
      'src/main/api',
      'src/main/library',
      'src/main/worker',
      'src/main/web',
      'src/shared',
    ],
  },
  {
    layer: 'src/preload',
    why: 'the preload: exposes the API and nothing else',
    allow: ['electron', 'src/shared/api-methods'],
    types: ['src/shared'],
  },
  {
    layer: 'src/renderer',
    why: 'the web UI: no Node, talks to main only through the shared API; its root files compose the folders',
    allow: ['src/renderer', 'src/shared', ...RENDERER_PACKAGES],
    testAllow: ['@testing-library/*'],
  },
  // Each folder of the renderer may import only the folders RENDERER_FOLDERS names: they form a
  // DAG, so no folder depends on one that depends on it. Tests may reach across the renderer.
  ...Object.entries(RENDERER_FOLDERS).map(([folder, uses]) => ({
    layer: `src/renderer/${folder}`,
    why: `renderer folder ${folder}: uses ${uses.length > 0 ? uses.join(', ') : 'no other folder'}`,
    allow: [`src/renderer/${folder}`, ...uses.map((u) => `src/renderer/${u}`), 'src/shared', ...RENDERER_PACKAGES],
    testAllow: ['src/renderer', '@testing-library/*'],
  })),
  {
    layer: 'src/renderer/test-support',
    why: "the renderer tests' helpers: the real backend in process",
    test: true,
    allow: [
      'src/renderer',
      'src/shared',
      'src/main/api',
      'src/main/core',
      'src/main/library',
      'react',
      'react/*',
      '@testing-library/*',
    ],
  },
  {
    layer: 'src/cli',
    why: 'the vak-explorer command, plain Node',
    allow: [
      'node:*',
      'src/cli',
      'src/main/core',
      'src/main/api',
      'src/main/export',
      'src/main/library',
      'src/main/secrets',
      'src/main/export',
      'src/main/server',
      'src/main/worker',
      'src/shared',
    ],
    testAllow: ['src/main/server/testing'],
  },
  {
    layer: 'src/generator',
    why: 'the ledger generator',
    allow: ['node:*', 'src/generator'],
    testAllow: ['src/main/core'],
  },
  {
    layer: 'src/test-support',
    why: 'test helpers',
    test: true,
    allow: [
      'node:*',
      'src/test-support',
      'src/generator',
      'src/main',
      'src/cli',
      'src/shared',
      'scripts',
      '@playwright/test',
      // waitFor/findBy bounds for the renderer tests (testing-library-timeouts.ts).
      '@testing-library/dom',
    ],
  },
  {
    layer: 'src/reliability',
    why: 'the reliability suite',
    test: true,
    allow: ['node:*', 'src/reliability', 'src/cli', 'src/main', 'src/shared', 'src/generator', 'src/test-support'],
    // The exported page's own script, run over ledgers of odd names.
    testAllow: ['jsdom'],
  },
  {
    layer: 'src/main/server/testing',
    why: 'serve-mode test helpers',
    test: true,
    allow: ['node:*', 'src/main/server', 'src/main/api', 'src/shared', 'ws'],
  },
  {
    layer: 'src/main/electron/testing',
    why: 'Electron test doubles',
    test: true,
    allow: ['node:*', 'src/main/electron', 'src/shared'],
  },
];

/** What any test may import besides its layer's list. */
const TEST_ALLOW = ['vitest', 'fast-check', 'node:*', 'src/test-support', 'src/generator', 'src/reliability'];

/** react-markdown options that drop elements or raw HTML from what is shown. */
const MARKDOWN_DROPS = '/^(skipHtml|allowedElements|disallowedElements|allowElement|unwrapDisallowed)$/';
const MARKDOWN_KEEPS_ALL = {
  selector: `:matches(Property[key.name=${MARKDOWN_DROPS}], JSXAttribute[name.name=${MARKDOWN_DROPS}])`,
  message: 'Markdown options that leave characters out: ledger text is shown as it is (raw HTML as text).',
};

/**
 * A page's first Intl formatter (toLocaleString, localeCompare too) loads ICU's data on the main
 * thread, tens of ms of every first screen: counts go through util/format.ts fmtInt.
 */
const FIRST_SCREEN_WITHOUT_ICU = {
  selector:
    "CallExpression[callee.property.name=/^(toLocaleString|toLocaleDateString|toLocaleTimeString|localeCompare)$/], MemberExpression[object.name='Intl']",
  message: 'Numbers go through fmtInt (util/format.ts): Intl and toLocale* load ICU on the first screen.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'out',
      'dist',
      'test-results',
      'playwright-report',
      'resources/demo-home',
      'bench/.data',
      'scratch-tmp',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layering (CONVENTIONS.md "Layers you can see"): an allow-list per layer over every folder of src/.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { local },
    rules: { 'local/layering': ['error', { layers: LAYERS, testAllow: TEST_ALLOW }] },
  },
  // Ledger strings (kinds, roles, ids, tool and model names) are data: `__proto__` or `toString` must not
  // find Object.prototype in a lookup table (docs/spec-decisions.md).
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'src/**/test-support/**'],
    plugins: { local },
    rules: { 'local/own-key-lookup': 'error' },
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, local },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Ledger content is untrusted: nothing reaches the DOM as HTML (computed keys such as el['innerHTML'] too).
      'local/no-html-sinks': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-restricted-globals': ['error', { name: 'eval', message: 'No eval: ledger content is untrusted.' }],
      // Message text is shown verbatim, and the markdown view leaves nothing out: raw HTML shows as
      // text (react-markdown's default). A raw-HTML plugin is outside the layer's allow-list.
      // Counts are written without ICU (FIRST_SCREEN_WITHOUT_ICU).
      'no-restricted-syntax': ['error', MARKDOWN_KEEPS_ALL, FIRST_SCREEN_WITHOUT_ICU],
    },
  },
  // A test may compute what it expects with Intl.
  {
    files: ['src/renderer/**/*.test.ts', 'src/renderer/**/*.test.tsx', 'src/renderer/test-support/**'],
    rules: { 'no-restricted-syntax': ['error', MARKDOWN_KEEPS_ALL] },
  },
);
