/**
 * Smoke test of the real Electron app (out/main/index.js, built by `npm run build`):
 * it opens its window on a per-test VAK_HOME holding a copy of the demo fixture
 * and shows the library. Skipped, visibly, where the Electron binary is not installed.
 */
import { _electron, expect, test } from '@playwright/test';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_METHOD_NAMES } from '../src/shared/api-methods';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'out', 'main', 'index.js');
const FIXTURE_HOME = fileURLToPath(new URL('../../shared/fixtures/demo-home', import.meta.url));
/** What `window.vak` must hold: every API method, `onEvent` and `ready`, nothing else. */
const API_KEYS = [...API_METHOD_NAMES, 'onEvent', 'ready'].sort();

/** The Electron executable, or why there is none (the npm package installs without its binary offline). */
function electronBinary(): { path: string } | { reason: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    if (typeof path !== 'string') return { reason: 'require("electron") did not return a path' };
    if (!existsSync(path)) return { reason: `the Electron binary is not installed (${path} does not exist)` };
    return { path };
  } catch (e) {
    return { reason: `the Electron binary is not installed: ${(e as Error).message.split('\n')[0]}` };
  }
}

test('the Electron app opens its window and shows the library', async () => {
  const found = electronBinary();
  // A window needs a display: on a headless Linux machine run `xvfb-run -a npm test`.
  const headless = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  const electron =
    'reason' in found || !headless ? found : { reason: 'no display (DISPLAY is unset): run it under `xvfb-run -a`' };
  if ('reason' in electron) {
    const reason = `Electron smoke test skipped: ${electron.reason}`;
    console.log(reason);
    test.skip(true, reason);
    return;
  }
  expect(existsSync(MAIN), `${MAIN} is missing: run \`npm run build\` first`).toBe(true);

  const dir = mkdtempSync(join(tmpdir(), 'vak-electron-smoke-'));
  const home = join(dir, 'vak-home');
  cpSync(FIXTURE_HOME, home, { recursive: true });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  delete env.ELECTRON_RENDERER_URL; // the built renderer on app://, as `npm start` loads it
  env.VAK_HOME = home;
  env.XDG_CONFIG_HOME = join(dir, 'config'); // Electron's userData on Linux: keep it per test

  // Chromium refuses to start as root with its OS sandbox (CI containers); the renderer's
  // `sandbox: true` webPreference still applies.
  const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const app = await _electron.launch({
    executablePath: electron.path,
    args: [...rootArgs, ROOT, `--user-data-dir=${join(dir, 'user-data')}`],
    cwd: ROOT,
    env,
  });
  try {
    const win = await app.firstWindow();
    await expect(win).toHaveTitle(/vak explorer/);
    expect(win.url()).toBe('app://explorer/');

    const library = win.getByRole('navigation', { name: 'Library' });
    await expect(library).toBeVisible();
    await expect(library.locator('.session-item')).toHaveCount(7);
    await expect(library.getByRole('button', { name: /reviewer/ })).toBeVisible();

    // The page has the bridge and nothing of Node.
    const globals = await win.evaluate(() => {
      const g = globalThis as unknown as Record<string, unknown>;
      return {
        vak: Object.keys(g.vak as object).sort(),
        require: typeof g.require,
        process: typeof g.process,
      };
    });
    expect(globals).toEqual({ vak: API_KEYS, require: 'undefined', process: 'undefined' });
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
