/**
 * The command palette's first opening (Ctrl+K → its dialog painted), in Chromium through serve
 * mode on a copy of the demo home, for builds side by side: `node bin/run-ts.mjs
 * bench/palette-first.ts ROUNDS APP…` (each APP a checkout with its build; the rounds alternate
 * between them). Three moments: at once after the library is drawn, on a session's page once its
 * panes are drawn, and the same after an idle second (the lazy parts then loaded).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { findChromiumHere } from '../src/test-support/find-chromium';
import { CHROMIUM_ARGS, stopServe } from '../src/test-support/serve-process';

const HOME = fileURLToPath(new URL('../../shared/fixtures/demo-home', import.meta.url));
const SMALL = 'agents/vak/sessions/70929a3c84065db2/01a202b8-4340-760b-95da-2b05292cd070.jsonl';

async function serve(app: string, home: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [join(app, 'bin', 'vak-explorer.mjs'), 'serve', '--home', home, '--port', '0', '--no-open'],
    {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) ok(m[1]!);
    });
    child.on('exit', (c) => fail(new Error(`serve exited ${c}`)));
  });
  return { url, stop: () => stopServe(child) };
}

/** Ctrl+K → the palette's dialog in a painted frame, ms. */
async function paletteMs(page: Page): Promise<number> {
  await page.evaluate(`(() => {
    window.__pal = new Promise((done) => {
      document.addEventListener('keydown', (e) => {
        const at = e.timeStamp;
        const watch = () => document.querySelector('[role=dialog][aria-label="Command palette"]')
          ? requestAnimationFrame(() => setTimeout(() => done(performance.now() - at), 0))
          : requestAnimationFrame(watch);
        watch();
      }, { capture: true, once: true });
    });
  })()`);
  await page.keyboard.press('Control+K');
  const ms = (await page.evaluate('window.__pal')) as number;
  await page.keyboard.press('Escape');
  return ms;
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const apps = process.argv.slice(3).map((a) => resolve(a));
  const found = findChromiumHere();
  if (!found.found) throw new Error(found.message);
  const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
  const rows: Record<string, { library: number[]; panes: number[]; idle: number[] }> = {};
  for (let r = 0; r < rounds; r++)
    for (const app of apps) {
      const dir = mkdtempSync(join(tmpdir(), 'vak-pal-'));
      cpSync(HOME, join(dir, 'home'), { recursive: true });
      const s = await serve(app, join(dir, 'home'));
      const row = (rows[app] ??= { library: [], panes: [], idle: [] });
      try {
        // One signed-in context per server (the printed URL's token signs in once); a page each.
        const ctx = await browser.newContext({ viewport: { width: 1500, height: 900 } });
        const origin = new URL(s.url).origin;
        for (const moment of ['library', 'panes', 'idle'] as const) {
          const page = await ctx.newPage();
          await page.goto(moment === 'library' ? s.url : `${origin}/#s=${encodeURIComponent(SMALL)}`);
          await page.getByRole('navigation', { name: 'Library' }).waitFor();
          if (moment !== 'library') await page.locator('.leaf-panes[data-leaf-id]').waitFor();
          if (moment === 'idle') await page.waitForTimeout(1000);
          row[moment].push(await paletteMs(page));
          await page.close();
        }
        await ctx.close();
      } finally {
        await s.stop();
        rmSync(dir, { recursive: true, force: true });
      }
      console.log(`round ${r + 1} ${app} load ${loadavg()[0].toFixed(2)}: ${JSON.stringify(row)}`);
    }
  await browser.close();
  for (const [app, row] of Object.entries(rows))
    console.log(
      `${app}: Ctrl+K → palette painted, ms: library ${row.library.map((x) => x.toFixed(0)).join(', ')} · ` +
        `panes ${row.panes.map((x) => x.toFixed(0)).join(', ')} · after 1 s ${row.idle.map((x) => x.toFixed(0)).join(', ')}`,
    );
}

await main();
