/**
 * A real `vak-explorer serve` as a child process, and Chromium's launch flags: shared by the
 * Playwright UI specs (e2e/ui-fixture.ts) and the UI bench (bench/ui-bench.ts). The browser
 * itself is found by ./find-chromium.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'bin', 'vak-explorer.mjs');

/**
 * The features Playwright (1.65) turns off in every Chromium it launches. Chromium reads only the
 * last `--disable-features`, so ours below repeats them: without them a test's browser would differ
 * from Playwright's (paint holding, HTTPS upgrades, third-party storage partitioning…).
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AimEnabled',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsFirstBalancedModeAutoEnable',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'NetworkTimeServiceQuerying',
  'OptimizationHints',
  'PaintHolding',
  'PreconnectToSearch',
  'TcpPortRandomizationWin',
  'ThirdPartyStoragePartitioning',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'msForceBrowserSignIn',
];

/**
 * Headless Chromium (new headless is the whole browser) preloads the address bar's two WebUI
 * popups in a renderer of their own for every window, i.e. for every test's browser context:
 * a page no test can see, which cost more CPU than the explorer's own page did.
 */
const UNSEEN_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Headless flags that keep Chromium off a closed network, quiet as root, and doing only the page's work. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_BROWSER_UI].join(',')}`,
];

export interface ServeProcess {
  child: ChildProcess;
  /** The printed URL, with its one-time token. */
  url: string;
  origin: string;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
}

/**
 * Starts serve mode on `home` (a random port, `env` its environment) and resolves once it printed its
 * URL. `home` null passes no `--home`: serve then takes `$VAK_HOME`, `~/.vak` or the bundled demo.
 */
export async function startServe(
  home: string | null,
  timeoutMs = 30_000,
  env: NodeJS.ProcessEnv = process.env,
  /** More arguments for serve (e.g. `--file PATH`). */
  args: readonly string[] = [],
): Promise<ServeProcess> {
  const at = home === null ? [] : ['--home', home];
  const child = spawn(process.execPath, [CLI, 'serve', ...at, '--port', '0', '--no-open', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += String(d)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`serve printed no URL in ${timeoutMs} ms\n${out}\n${err}`)),
      timeoutMs,
    );
    child.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}\n${out}\n${err}`));
    });
  });
  return { child, url, origin: new URL(url).origin, stderr: () => err };
}

/**
 * Stops a serve process and resolves once it has exited (its temp home may then be removed):
 * SIGTERM, then SIGKILL if it is still there after `graceMs` (a loaded machine is slow, not stuck).
 */
export async function stopServe(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
