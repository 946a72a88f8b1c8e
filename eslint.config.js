// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Node built-ins, with and without the `node:` prefix: the renderer must import none. */
const NODE_BUILTINS = [
  'fs',
  'fs/promises',
  'path',
  'os',
  'child_process',
  'crypto',
  'net',
  'http',
  'https',
  'url',
  'util',
  'stream',
  'events',
  'buffer',
  'worker_threads',
  'zlib',
  'module',
  'process',
  'readline',
  'tls',
  'dgram',
];

export default tseslint.config(
  {
    ignores: ['node_modules', 'out', 'dist', 'test-results', 'playwright-report', 'resources/demo-home', 'bench/.data'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layering (CONVENTIONS.md "Layers you can see").
  {
    files: ['src/main/core/**/*.ts'],
    // Tests of the core may use the generator and test support; the core itself may not.
    ignores: ['src/main/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', 'electron/*'], message: 'Bad layering: the ledger core is pure; no electron.' },
            {
              group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'zustand', '@tanstack/*'],
              message: 'Bad layering: the ledger core imports no UI.',
            },
            {
              regex: '^\\.\\./(?!\\.\\./shared/)',
              message: 'Bad layering: the core imports only itself, Node and the shared vocabulary.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NODE_BUILTINS.flatMap((m) => [m, `node:${m}`]).concat(['electron']),
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**'],
              message: 'Bad layering: shared is the contract only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: NODE_BUILTINS.flatMap((m) => [m, `node:${m}`]).concat(['electron']),
          patterns: [
            { group: ['node:*'], message: 'Bad layering: the renderer imports no node modules.' },
            {
              group: ['**/main/**', '**/preload/**'],
              message: 'Bad layering: the renderer talks to main only through the shared API.',
            },
          ],
        },
      ],
      // Ledger content is untrusted: nothing reaches the DOM as HTML.
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'No dangerouslySetInnerHTML: ledger content is untrusted.',
        },
        {
          selector: 'MemberExpression[property.name=/^(innerHTML|outerHTML)$/]',
          message: 'No innerHTML/outerHTML: ledger content is untrusted.',
        },
        {
          selector: "CallExpression[callee.object.name='document'][callee.property.name='write']",
          message: 'No document.write.',
        },
        { selector: "CallExpression[callee.property.name='insertAdjacentHTML']", message: 'No insertAdjacentHTML.' },
      ],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
);
