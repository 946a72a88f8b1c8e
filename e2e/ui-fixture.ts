/**
 * The UI specs' fixtures: a real `vak-explorer serve` on a temp copy of the demo home, its URL
 * read from stdout. `test` gives each test a server and home of its own, stopped after it;
 * `readingTest` is for tests that only read the demo home: they share one server and home per
 * Playwright worker (a serve start and its first scan of the home cost more CPU than many
 * of these tests), and a test that wrote into that home fails the worker's teardown.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CLI, ROOT, startServe, stopServe } from '../src/test-support/serve-process';

export { ROOT };
const FIXTURE_HOME = fileURLToPath(new URL('../../shared/fixtures/demo-home', import.meta.url));
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

/** A small linear session: one turn card, no packets. */
export const SMALL = 'agents/vak/sessions/70929a3c84065db2/01a202b8-4340-760b-95da-2b05292cd070.jsonl';
/** The big demo session: 308 entries, turn cards and packets. */
export const BIG = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';

export interface Served {
  home: string;
  url: string;
  /** Opens the explorer, optionally at a hash (`s=…&leaf=…`). */
  open(page: Page, hash?: string): Promise<void>;
}

/** A serve process on a fresh copy of the demo home; `stop` ends it and removes the copy. */
async function serveDemoCopy(): Promise<{ served: Served; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'vak-ui-e2e-'));
  const home = join(dir, 'home');
  cpSync(FIXTURE_HOME, home, { recursive: true });
  const { child, url } = await startServe(home);
  const served: Served = {
    home,
    url,
    open: async (page, hash) => {
      await page.goto(hash ? `${url}#${hash}` : url);
      await expect(page.getByRole('navigation', { name: 'Library' })).toBeVisible();
    },
  };
  return {
    served,
    stop: async () => {
      await stopServe(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every file of a folder with its mode and a digest of its bytes: what a reading test must leave as it was. */
export function folderDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      hash.update(`${p.slice(dir.length)}\0${st.mode}\0`);
      if (st.isDirectory()) walk(p);
      else hash.update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

export const test = base.extend<{ served: Served }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none
  served: async ({}, use) => {
    const { served, stop } = await serveDemoCopy();
    await use(served);
    await stop();
  },
});

/**
 * For tests that only read the demo home: `served` is the worker's one server and home. Each
 * test still has its own browser context (storage, URL state). The home must be left byte for
 * byte as it was: the worker's teardown fails otherwise, naming the rule.
 */
export const readingTest = base.extend<{ served: Served }, { sharedServed: Served }>({
  sharedServed: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none
    async ({}, use) => {
      const { served, stop } = await serveDemoCopy();
      const before = folderDigest(served.home);
      await use(served);
      const after = folderDigest(served.home);
      await stop();
      if (after !== before)
        throw new Error('a readingTest changed the shared demo home: a test that writes must use `test`');
    },
    { scope: 'worker' },
  ],
  served: async ({ sharedServed }, use) => {
    await use(sharedServed);
  },
});

export { expect };

/** `#s=<key>` for a session key. */
export const sessionHash = (key: string, extra = ''): string => `s=${encodeURIComponent(key)}${extra}`;

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** `vak-explorer verify FILE --json`. */
export function verify(file: string): { entries: number; warnings: { code: string }[]; active_leaf: string | null } {
  const r = spawnSync(process.execPath, [CLI, 'verify', file, '--json'], { cwd: ROOT, encoding: 'utf8' });
  if (!r.stdout) throw new Error(`verify printed nothing: ${r.stderr}`);
  return JSON.parse(r.stdout) as { entries: number; warnings: { code: string }[]; active_leaf: string | null };
}

/** The file's lines as parsed JSON. */
export function readLines(file: string): { id: string; parent_id: string | null; [k: string]: unknown }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; parent_id: string | null });
}

/**
 * Appends one valid, hash-linked message line from a child process, as an agent would:
 * prev_hash is the SHA-256 of the file's last line without its newline.
 */
export function appendFromOtherProcess(file: string, entry: { id: string; parent_id: string; text: string }): void {
  const script = `
    const fs = require('node:fs'); const crypto = require('node:crypto');
    const [file, id, parent, text] = process.argv.slice(1);
    const lines = fs.readFileSync(file, 'utf8').split('\\n'); lines.pop();
    const prev = crypto.createHash('sha256').update(lines[lines.length - 1], 'utf8').digest('hex');
    const line = JSON.stringify({ id, parent_id: parent, ts: new Date().toISOString(), prev_hash: prev, kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text }] } });
    fs.appendFileSync(file, line + '\\n');`;
  const r = spawnSync(process.execPath, ['-e', script, file, entry.id, entry.parent_id, entry.text], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`append failed: ${r.stderr}`);
}
