/**
 * Smoke test of the real Electron app (out/main/index.js, built by `npm run build`):
 * it opens its window on a per-test VAK_HOME holding a copy of the demo fixture
 * and shows the library, then times one click on a tree row → both panes drawn in the real
 * window and prints it. It also checks what only Electron can show: the File menu's survey
 * checkbox in step with the window, and the secret gate's WebAssembly (SIMD) module compiling in
 * Electron's own Node. Skipped, visibly, where the Electron binary is not installed.
 */
import { _electron, expect, test, type ElectronApplication } from '@playwright/test';
import type { MenuItem } from 'electron';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SURVEY_MENU_LABEL } from '../src/main/electron/app-menu';
import { SECRET_GATE_WASM } from '../src/main/secrets/wasm/secret-gate-wasm.generated';
import { API_METHOD_NAMES } from '../src/shared/api-methods';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'out', 'main', 'index.js');
const FIXTURE_HOME = fileURLToPath(new URL('../../shared/fixtures/demo-home', import.meta.url));
/** What `window.vak` must hold: every API method, `onEvent` and `ready`, nothing else. */
const API_KEYS = [...API_METHOD_NAMES, 'onEvent', 'ready'].sort();

/** Clicks the tree row of `leaf`; resolves with ms from the click event to the frame after both panes show it. */
const CLICK_TO_PANES = `(leaf) => new Promise((resolve) => {
  const row = document.querySelector('.tree-row[data-entry-id="' + leaf + '"]');
  const shown = () =>
    [...document.querySelectorAll('.history-pane .history-item')].at(-1)?.getAttribute('data-entry-id') === leaf &&
    document.querySelector('.projected-pane .projected-msg') !== null;
  let start = 0;
  const observer = new MutationObserver(() => {
    if (!shown()) return;
    observer.disconnect();
    requestAnimationFrame(() => resolve(performance.now() - start));
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  row.addEventListener('click', (e) => { start = e.timeStamp; }, { once: true, capture: true });
  row.click();
})`;

/** The application menu's item labelled `label`: whether it is ticked and enabled, and optionally clicked. */
function menuItem(app: ElectronApplication, label: string, click = false) {
  return app.evaluate(
    ({ Menu }, [label, click]) => {
      const find = (items: MenuItem[]): MenuItem | null => {
        for (const item of items) {
          if (item.label === label) return item;
          const inner = item.submenu ? find(item.submenu.items) : null;
          if (inner) return inner;
        }
        return null;
      };
      const item = find(Menu.getApplicationMenu()?.items ?? []);
      // Electron's own click: it flips a checkbox's tick, then calls the item's handler.
      if (item && click) (item.click as () => void)();
      return item ? { checked: item.checked, enabled: item.enabled } : null;
    },
    [label, click] as const,
  );
}

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

    // One click on a tree row → both panes drawn for it, timed in the real window: from the
    // click event to the animation frame after the History ends at that entry and the
    // projected context shows a message.
    await library.locator('.session-item').first().click();
    const rows = win.locator('.tree-row:not(.placeholder)');
    await expect(rows.first()).toBeVisible();
    const count = await rows.count();
    const target = rows.nth(Math.floor(count / 2));
    const id = await target.getAttribute('data-entry-id');
    expect(id).toBeTruthy();
    // The page's own code, as text: this file is compiled without the DOM's types.
    const ms = (await win.evaluate(`(${CLICK_TO_PANES})(${JSON.stringify(id)})`)) as number;
    console.log(`Electron: one click on a tree row → both panes drawn in ${ms.toFixed(0)} ms`);
    const history = win.getByRole('region', { name: 'History' });
    await expect(history.locator('.history-item').last()).toHaveAttribute('data-entry-id', id!);

    // The File menu's survey checkbox shows the backend's setting once known; a click turns it off,
    // and the window's own checkbox (the same setting) hears it.
    const setting = win.getByRole('checkbox', { name: 'Count secrets in sessions never opened' });
    await expect(setting).toBeChecked();
    await expect.poll(() => menuItem(app, SURVEY_MENU_LABEL)).toEqual({ checked: true, enabled: true });
    await menuItem(app, SURVEY_MENU_LABEL, true);
    await expect(setting).not.toBeChecked();
    await expect.poll(() => menuItem(app, SURVEY_MENU_LABEL)).toEqual({ checked: false, enabled: true });

    // The secret gate's module (WebAssembly with SIMD) compiles in Electron's Node, as the scan
    // thread needs it to (elsewhere the JavaScript gate runs, by design, and slower).
    const gate = await app.evaluate((_electron, b64) => {
      // (This file's types are Node's, which do not declare WebAssembly.)
      const wasm = (globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } }).WebAssembly;
      return wasm.validate(Buffer.from(b64, 'base64'));
    }, SECRET_GATE_WASM);
    expect(gate, 'the secret gate’s WebAssembly module does not validate in Electron').toBe(true);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
