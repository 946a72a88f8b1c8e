/**
 * The lint rules that hold the layers, run through ESLint's Node API on probe files (virtual
 * text at a path inside each layer, with the project's own eslint.config.js): each probe that
 * crosses a layer must be reported, and each allowed import must not be.
 */
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The messages of `ruleId` when `code` is linted as if it were the file at `path`. */
async function problems(path: string, code: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  return result.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

const layering = (path: string, code: string): Promise<string[]> => problems(path, code, 'local/layering');

describe('layering: what each layer may not import is reported', () => {
  it.each([
    ['dynamic import() in core', 'src/main/core/probe.ts', "export const m = import('node:fs');"],
    ['a computed import() in core', 'src/main/core/probe.ts', 'export const m = (p: string) => import(p);'],
    [
      'createRequire in core',
      'src/main/core/probe.ts',
      "import { createRequire } from 'node:module';\nexport const k = createRequire(import.meta.url)('koffi');",
    ],
    ['require in core', 'src/main/core/probe.ts', "export const k = require('koffi');"],
    [
      'process.getBuiltinModule of a package in core',
      'src/main/core/probe.ts',
      "export const k = process.getBuiltinModule('koffi');",
    ],
    ['the renderer from core (export … from)', 'src/main/core/probe.ts', "export * from '../../renderer/app';"],
    ['react in core', 'src/main/core/probe.ts', "import { useState } from 'react';\nexport { useState };"],
    [
      'the transport contract in core (shared/api, even type-only)',
      'src/main/core/probe.ts',
      "import type { SessionSummary } from '../../shared/api';\nexport type S = SessionSummary;",
    ],
    [
      'the request schemas in core (shared/api-schemas)',
      'src/main/core/probe.ts',
      "export { parseRequest } from '../../shared/api-schemas';",
    ],
    [
      'the transport contract in the flock binding',
      'src/main/core/flock.ts',
      "import type { LockState } from '../../shared/api';\nexport type L = LockState;",
    ],
    [
      'main/api importing a renderer file',
      'src/main/api/probe.ts',
      "import { useAppStore } from '../../renderer/store/app-store';\nexport { useAppStore };",
    ],
    ['main/api re-exporting a renderer file', 'src/main/api/probe.ts', "export { App } from '../../renderer/app';"],
    ['preload importing zod', 'src/preload/probe.ts', "import { z } from 'zod';\nexport const s = z.string();"],
    [
      'preload importing the core',
      'src/preload/probe.ts',
      "import { Ledger } from '../main/core/ledger';\nexport { Ledger };",
    ],
    [
      'preload importing shared schemas (not type-only)',
      'src/preload/probe.ts',
      "import { parseRequest } from '../shared/api-schemas';\nexport { parseRequest };",
    ],
    [
      'the method list importing zod',
      'src/shared/api-methods.ts',
      "import { z } from 'zod';\nexport const s = z.string();",
    ],
    [
      'node:fs in the renderer',
      'src/renderer/probe.ts',
      "import { readFileSync } from 'node:fs';\nexport { readFileSync };",
    ],
    ['fs (bare) in the renderer', 'src/renderer/tree/probe.ts', "import * as fs from 'fs';\nexport { fs };"],
    [
      'the main process from the renderer',
      'src/renderer/tree/probe.ts',
      "import { Ledger } from '../../main/core/ledger';\nexport { Ledger };",
    ],
    ['a file in a folder with no layer', 'src/new-folder/probe.ts', 'export const x = 1;'],
    // Renderer folders form a DAG: the state never imports a view, a view never the one that embeds it.
    ['renderer: the store importing a view', 'src/renderer/store/probe.ts', "export * from '../plan/plan-bar';"],
    [
      'renderer: search importing the library',
      'src/renderer/search/probe.ts',
      "export * from '../library/library-sidebar';",
    ],
    ['renderer: text importing the panes', 'src/renderer/text/probe.ts', "export * from '../leaf/history-pane';"],
  ])('%s', async (_what, path, code) => {
    const found = await layering(path, code);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(/^Bad layering/);
  });

  describe('electron from code that runs in plain Node', () => {
    const layers = [
      'src/main/api/probe.ts',
      'src/main/library/probe.ts',
      'src/main/server/probe.ts',
      'src/cli/probe.ts',
      'src/main/core/probe.ts',
      'src/shared/probe.ts',
      'src/main/worker/probe.ts',
      'src/main/web/probe.ts',
    ];
    it.each(layers)('%s: import, export … from, import(), require', async (path) => {
      expect(await layering(path, "import { app } from 'electron';\nexport { app };")).toHaveLength(1);
      expect(await layering(path, "export { app } from 'electron';")).toHaveLength(1);
      expect(await layering(path, "export async function f() { return import('electron'); }")).toHaveLength(1);
      expect(await layering(path, "export const e = require('electron');")).toHaveLength(1);
      expect(await layering(path, "import type { App } from 'electron';\nexport type A = App;")).toHaveLength(1);
    });
  });
});

describe('layering: what each layer may import passes', () => {
  it.each([
    [
      'core: itself, Node and the ledger vocabulary of shared',
      'src/main/core/probe.ts',
      "import { readFileSync } from 'node:fs';\nimport { join } from 'path';\nimport { Ledger } from './ledger';\nimport type { Json } from '../../shared/ledger-types';\nimport { sessionKey } from '../../shared/session-key';\nimport { ownValue } from '../../shared/own-key';\nexport { readFileSync, join, Ledger, sessionKey, ownValue };\nexport type J = Json;",
    ],
    [
      'preload: electron, the method list, and the shared contract as types',
      'src/preload/probe.ts',
      "import { contextBridge } from 'electron';\nimport type { Api } from '../shared/api';\nimport { API_METHOD_NAMES } from '../shared/api-methods';\nexport { contextBridge, API_METHOD_NAMES };\nexport type A = Api;",
    ],
    [
      'electron shell: electron and the API',
      'src/main/electron/probe.ts',
      "import { app } from 'electron';\nimport { createApiBackend } from '../api/api-backend';\nexport { app, createApiBackend };",
    ],
    [
      'cli: the server, loaded lazily',
      'src/cli/probe.ts',
      "export async function f() { return import('../main/server/loopback-server'); }",
    ],
    [
      'renderer: the library embedding search',
      'src/renderer/library/probe.ts',
      "export * from '../search/search-button';",
    ],
    [
      'renderer: react, zustand, the shared contract',
      'src/renderer/tree/probe.ts',
      "import { useState } from 'react';\nimport { create } from 'zustand';\nimport { API_METHOD_NAMES } from '../../shared/api-methods';\nexport { useState, create, API_METHOD_NAMES };",
    ],
    [
      'a core test: the generator and test support',
      'src/main/core/probe.test.ts',
      "import { generateSession } from '../../generator';\nimport { useTempDir } from '../../test-support/temp-dir';\nexport { generateSession, useTempDir };",
    ],
  ])('%s', async (_what, path, code) => {
    expect(await layering(path, code)).toEqual([]);
  });

  it('the flock binding may load koffi, and nothing else, with createRequire', async () => {
    const ok =
      "import { createRequire } from 'node:module';\nexport const k = createRequire(import.meta.url)('koffi');";
    expect(await layering('src/main/core/flock.ts', ok)).toEqual([]);
    const other =
      "import { createRequire } from 'node:module';\nexport const k = createRequire(import.meta.url)('electron');";
    expect(await layering('src/main/core/flock.ts', other)).toHaveLength(1);
  });
});

describe('no-html-sinks and no eval in the renderer', () => {
  const sinks = (code: string, path = 'src/renderer/tree/probe.ts'): Promise<string[]> =>
    eslint
      .lintText(code, { filePath: resolve(ROOT, path) })
      .then(([r]) =>
        r.messages
          .filter(
            (m) =>
              m.ruleId !== null &&
              /no-html-sinks|no-eval|no-new-func|no-implied-eval|no-restricted-globals/.test(m.ruleId),
          )
          .map((m) => `${m.ruleId}: ${m.message}`),
      );
  it.each([
    ['el.innerHTML', 'export function f(el: HTMLElement, s: string) { el.innerHTML = s; }'],
    ["el['innerHTML'] (computed)", "export function f(el: HTMLElement, s: string) { el['innerHTML'] = s; }"],
    ['el[`outerHTML`] (template key)', 'export function f(el: HTMLElement, s: string) { el[`outerHTML`] = s; }'],
    ['el.outerHTML', 'export function f(el: HTMLElement, s: string) { el.outerHTML = s; }'],
    ['insertAdjacentHTML', "export function f(el: HTMLElement, s: string) { el.insertAdjacentHTML('beforeend', s); }"],
    ['document.write', 'export function f(s: string) { document.write(s); }'],
    ["document['write']", "export function f(s: string) { document['write'](s); }"],
    [
      'Object.assign(el, { innerHTML })',
      'export function f(el: HTMLElement, s: string) { Object.assign(el, { innerHTML: s }); }',
    ],
    ['eval', 'export function f(s: string) { return eval(s); }'],
    ['new Function', "export function f(s: string) { return new Function('x', s); }"],
    ['setTimeout with a string', "export function f() { setTimeout('alert(1)', 1); }"],
  ])('%s is reported', async (_what, code) => {
    expect(await sinks(code)).not.toEqual([]);
  });

  it('dangerouslySetInnerHTML is reported', async () => {
    const code = 'export const X = ({ s }: { s: string }) => <div dangerouslySetInnerHTML={{ __html: s }} />;';
    expect(await sinks(code, 'src/renderer/tree/probe.tsx')).not.toEqual([]);
  });

  it('textContent and an innerHTML named in a string are not', async () => {
    const code = "export function f(el: HTMLElement, s: string) { el.textContent = s; return 'innerHTML'; }";
    expect(await sinks(code)).toEqual([]);
  });
});
