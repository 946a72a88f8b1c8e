/**
 * Speed at the eye, for `npm run bench -- ui`: the built app in Chromium through the real serve
 * mode, on the 100 MB uncompacted session (real100-data.ts; `--size 1g`: the same shape at 1 GiB,
 * ~357k entries, generated once into bench/.data, slow). Every figure runs from the input event
 * (its `timeStamp`, or the navigation for a reload) to the first animation frame whose DOM shows
 * the result ("first rows": a whole screen of the tree's rows, none still a placeholder):
 *   first open (a click on the session in the library, a fresh data folder) → first rows / panes;
 *   ≥ 20 clicks on rows spread over the tree → both panes show that leaf (p50 / p95);
 *   `j` → the cursor on the next row; five quick `j` → the 5th row's panes;
 *   the tree scrolled while a clicked leaf's panes load (frame intervals);
 *   the longest main-thread task while selecting (Long Tasks API);
 *   a page reload with the session open, and a second one (the page's next load: Chromium makes a
 *   script's code cache on one load and takes it on the next); a reopen from the kept index in a fresh server.
 * Beside each: the requests the page sent (per method, and how many repeated one already sent).
 *   --app DIR    measure another checkout's build (DIR/bin/vak-explorer.mjs with its dist/ and out/),
 *                e.g. `--app /work/main`, against the same data: before and after on one machine.
 *   --runs N     repeat the whole script N times (ranges are reported, and how many runs met each goal).
 *   --start      only the ways in: first open, page reload, reopen in a fresh server.
 *   --link       only a session's link opened in a fresh server on a fresh data folder (the session not
 *                read yet, no kept index): first rows, the reading progress first shown and how often
 *                it moved, the panes (with `--size 1g`: issue 29's "first rows while it is read").
 *   --select     only the first open and the selecting (clicks, keys, scroll): no reload, no reopen.
 *   --leaf       with --start: one click on a row before the reload (the reload then names a leaf).
 *   --verbose    every request of the opens, the reload and the reopen, with its timing.
 *   --profile D  CPU profiles of each serve process (`node --cpu-prof`, every thread) in D/<phase>/,
 *                and a Chromium trace of the first open, the clicks, the five quick `j`, the reload and the
 *                reopen (D/first.json, D/clicks.json, D/jfive.json, D/reload.json, D/reopen.json; with
 *                `--link`, D/link.json), with the
 *                page's JavaScript samples (ProfileChunk events; a `--sourcemap` build names their functions).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { findChromiumHere } from '../src/test-support/find-chromium';
import { CHROMIUM_ARGS, ROOT, type ServeProcess } from '../src/test-support/serve-process';
import { prepareReal100, type Real100 } from './real100-data';
import { prepareEye1g } from './real1g-data';
import { INIT_SCRIPT, scrollScript } from './ui-page-scripts';
import { armScript, countsScript, CURSOR_ROW, idleScript, READ_DONE } from './ui-eye-scripts';

type Log = (line: string) => void;

const CLICKS = 20;
const KEYS = 8;
const J_RUNS = 3;
const OPEN_TIMEOUT_MS = 180_000;
const STEP_TIMEOUT_MS = 30_000;
const VIEWPORT = { width: 1600, height: 1000 };

interface Counts {
  total: number;
  byMethod: Record<string, number>;
  /** Answer bytes per method (absent in runs recorded before they were counted). */
  bytesByMethod?: Record<string, number>;
  repeats: number;
  cancels: number;
}
interface OpenFigures {
  rowsMs: number | null;
  panesMs: number | null;
  /** The context chart drawn (its series answered and laid out). */
  chartMs?: number | null;
  counts: Counts;
}
export interface EyeRun {
  load: [number, number];
  firstOpen: OpenFigures;
  clicks: number[];
  clickErrors: number;
  clickCounts: Counts;
  keyCursor: number[];
  jFive: number[];
  jCounts: Counts;
  longestTaskMs: number | null;
  longTasks: number;
  scrollFrames: number[];
  reload: OpenFigures;
  reloadAgain: OpenFigures;
  reopen: OpenFigures;
}

// ---------------------------------------------------------------- data

// ---------------------------------------------------------------- the server

/** `serve` of the build under `app` on `home`, its kept indexes in `dataDir`. */
async function serve(app: string, home: string, dataDir: string, phase: string): Promise<ServeProcess> {
  const cli = join(app, 'bin', 'vak-explorer.mjs');
  const prof = argOf('--profile');
  const profArgs = prof ? ['--cpu-prof', `--cpu-prof-dir=${join(resolve(prof), phase)}`] : [];
  const child = spawn(process.execPath, [...profArgs, cli, 'serve', '--home', home, '--port', '0', '--no-open'], {
    cwd: app,
    env: { ...process.env, XDG_DATA_HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += String(d)));
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`serve printed no URL in 60 s\n${err}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += String(d);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`serve exited with ${code}\n${out}\n${err}`));
    });
  });
  return { child, url, origin: new URL(url).origin, stderr: () => err };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------- in the page

async function until(page: Page, condition: string, timeoutMs: number): Promise<boolean> {
  return (await page.evaluate(`(async () => {
    const end = performance.now() + ${timeoutMs};
    while (!(${condition})) {
      if (performance.now() > end) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  })()`)) as boolean;
}

const counts = async (page: Page, from: number | string): Promise<Counts> =>
  (await page.evaluate(countsScript(from))) as Counts;

/** The requests sent from `from` on, one a line with its timing (`--verbose`). */
const requestsSince = async (page: Page, from: number | string): Promise<string> =>
  ((await page.evaluate(`(() => { const B = window.__vakBench, t = (x) => (x == null ? '—' : x.toFixed(0));
    return '      input ' + t(B.openAt) + ', socket open ' + t(B.wsOpenAt) + ', first rows drawn ' + t(B.firstRowsAt) + ', panes drawn ' + t(B.panesAt) + ', chart drawn ' + t(B.chartAt) + '\\n'; })()`)) as string) +
  ((await page.evaluate(`window.__vakBench.ws.slice(${from}).map((e) => '      ' + e.sentAt.toFixed(0) + ' → ' +
    (e.answeredAt === null ? (e.cancelled ? 'cancelled' : 'open') : e.answeredAt.toFixed(0)) + ' ' + (e.bytes / 1024).toFixed(0) + ' KB ' +
    e.body.slice(0, 260)).join('\\n')`)) as string);

/** The page's own load, from the navigation (`--verbose`): its document, scripts and styles, and first paint. */
const pageLoadTimes = async (page: Page): Promise<string> =>
  (await page.evaluate(`(() => {
    const n = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource').filter((r) => !/^ws/.test(r.name))
      .map((r) => r.name.replace(/^.*\\//, '') + ' ' + r.startTime.toFixed(0) + '–' + r.responseEnd.toFixed(0) + ' (' + (r.transferSize / 1024).toFixed(0) + ' KB)');
    const paint = performance.getEntriesByType('paint').map((p) => p.name + ' ' + p.startTime.toFixed(0));
    return '      page: response ' + n.responseEnd.toFixed(0) + ', DOMContentLoaded ' + n.domContentLoadedEventEnd.toFixed(0) +
      ', load ' + n.loadEventEnd.toFixed(0) + ' · ' + res.join(', ') + ' · ' + paint.join(', ');
  })()`)) as string;

function merge(cs: Counts[]): Counts {
  const out: Counts = { total: 0, byMethod: {}, bytesByMethod: {}, repeats: 0, cancels: 0 };
  for (const c of cs) {
    out.total += c.total;
    out.repeats += c.repeats;
    out.cancels += c.cancels;
    for (const [m, n] of Object.entries(c.byMethod)) out.byMethod[m] = (out.byMethod[m] ?? 0) + n;
    for (const [m, n] of Object.entries(c.bytesByMethod ?? {}))
      out.bytesByMethod![m] = (out.bytesByMethod![m] ?? 0) + n;
  }
  return out;
}

const idle = (page: Page, quietMs = 600, maxMs = 30_000): Promise<unknown> => page.evaluate(idleScript(quietMs, maxMs));

interface Armed {
  at: number | null;
  doneAt: number | null;
  error: string | null;
  wsFrom: number;
}
const armed = async (page: Page): Promise<Armed> => (await page.evaluate('window.__vakBench.eye')) as Armed;
const took = (m: Armed): number | null => (m.at === null || m.doneAt === null ? null : m.doneAt - m.at);

/** A signed-in context with the bench's taps; the app loaded once (its bundle in the HTTP cache). */
async function signedIn(browser: Browser, server: ServeProcess): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: VIEWPORT });
  const warm = await ctx.newPage();
  await warm.goto(server.url);
  await warm.getByRole('navigation', { name: 'Library' }).waitFor({ timeout: 30_000 });
  await warm.close();
  const page = await ctx.newPage();
  await page.addInitScript({ content: INIT_SCRIPT });
  await page.goto(server.origin + '/');
  await page.getByRole('navigation', { name: 'Library' }).waitFor({ timeout: 30_000 });
  return { ctx, page };
}

/** A click on the session in the library → first tree rows, and the active leaf's panes. */
async function openFromLibrary(page: Page, key: string): Promise<OpenFigures> {
  const item = page.locator(`button.session-item[data-session-key="${key}"]`);
  await item.waitFor({ timeout: 60_000 });
  await page.evaluate(`(() => {
    const B = window.__vakBench;
    B.openFrom = B.ws.length;
    B.firstRowsAt = null; B.panesAt = null; B.chartAt = null; B.openAt = null;
    document.addEventListener('click', (e) => {
      B.openAt = e.timeStamp;
      B.watchOpen();
    }, { capture: true, once: true });
  })()`);
  await item.click();
  return settleOpen(page, 'window.__vakBench.openAt', 'window.__vakBench.openFrom');
}

async function settleOpen(page: Page, from: string, wsFrom: string): Promise<OpenFigures> {
  await until(page, 'window.__vakBench.panesAt !== null || window.__vakBench.leafError() !== null', OPEN_TIMEOUT_MS);
  await idle(page);
  const t = (await page.evaluate(`(() => { const B = window.__vakBench, a = ${from};
    B.watchUntil = 0;
    return { rows: B.firstRowsAt === null ? null : B.firstRowsAt - a, panes: B.panesAt === null ? null : B.panesAt - a,
      chart: B.chartAt === null ? null : B.chartAt - a }; })()`)) as {
    rows: number | null;
    panes: number | null;
    chart: number | null;
  };
  return { rowsMs: t.rows, panesMs: t.panes, chartMs: t.chart, counts: await counts(page, wsFrom) };
}

/** Brings row `row` into view (scrolled to the middle) and resolves its entry id once drawn. */
async function showRow(page: Page, row: number): Promise<{ id: string; selected: boolean } | null> {
  return (await page.evaluate(`(async () => {
    const el = document.querySelector('.tree-scroll');
    const rows = Number(el.dataset.rows), view = el.clientHeight;
    const scale = rows * 24 > el.scrollHeight ? (rows * 24 - view) / (el.scrollHeight - view) : 1;
    el.scrollTop = Math.max(0, (${row} * 24 - view / 2) / scale);
    const end = performance.now() + 30000;
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const r = document.getElementById('tree-row-${row}');
      if (r && r.dataset.entryId) return { id: r.dataset.entryId, selected: r.classList.contains('selected-leaf') };
      if (performance.now() > end) return null;
    }
  })()`)) as { id: string; selected: boolean } | null;
}

const panesFor = (id: string): string => `window.__vakBench.panesFor(${JSON.stringify(id)})`;

async function clickRows(page: Page, log: Log): Promise<{ ms: number[]; errors: number; counts: Counts }> {
  const rows = Number(await page.evaluate(`document.querySelector('.tree-scroll').dataset.rows`));
  const ms: number[] = [];
  let errors = 0;
  const sum: Counts[] = [];
  const when: string[] = [];
  for (let k = 0; k < CLICKS; k++) {
    let row = Math.floor(((k + 0.5) / CLICKS) * (rows - 1));
    let shown = await showRow(page, row);
    if (shown?.selected) shown = await showRow(page, ++row);
    if (!shown) {
      errors++;
      continue;
    }
    await clickRowUntilPanes(page, row, shown.id);
    const m = await armed(page);
    const t = took(m);
    if (t === null) errors++;
    else ms.push(t);
    if (m.at !== null) when.push(`${m.at.toFixed(0)}+${t === null ? '?' : t.toFixed(0)}`);
    await idle(page, 300);
    // What the click asked for (not the rows the scroll to it fetched).
    sum.push(await counts(page, m.wsFrom));
    if (process.argv.includes('--verbose') && k < 3) log(await requestsSince(page, m.wsFrom));
  }
  log(`    clicks: ${ms.map((x) => x.toFixed(0)).join(' ')} ms${errors ? ` (${errors} not drawn)` : ''}`);
  if (process.argv.includes('--verbose')) log(`      clicks at (page ms) + took: ${when.join(' ')}`);
  return { ms, errors, counts: merge(sum) };
}

/** Once the page is idle, clicks tree row `row` (entry `id`) and waits until both panes show it (or the step fails). */
async function clickRowUntilPanes(page: Page, row: number, id: string): Promise<void> {
  await idle(page, 200);
  await page.evaluate(armScript('click', panesFor(id), STEP_TIMEOUT_MS));
  await page.locator(`#tree-row-${row}`).click();
  await until(
    page,
    'window.__vakBench.eye.doneAt !== null || window.__vakBench.eye.error !== null',
    STEP_TIMEOUT_MS + 5000,
  );
}

/**
 * `--leaf`: one click on a row a third of the way down before the reload, so the reloaded URL
 * names a leaf other than the active one (as after the full run's clicks) and the tab kept its row.
 */
async function chooseLeaf(page: Page): Promise<void> {
  const rows = Number(await page.evaluate(`document.querySelector('.tree-scroll').dataset.rows`));
  const row = Math.floor(rows / 3);
  const shown = await showRow(page, row);
  if (!shown) throw new Error('--leaf: the row was not drawn');
  await clickRowUntilPanes(page, row, shown.id);
  await until(page, `location.href.includes(${JSON.stringify('leaf=' + shown.id)})`, STEP_TIMEOUT_MS);
  await idle(page, 300);
}

/** Single `j` presses with pauses: the key's timeStamp → the frame whose DOM has the cursor on the next row. */
async function keyCursor(page: Page): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < KEYS; k++) {
    const at = (await page.evaluate(CURSOR_ROW)) as number | null;
    if (at === null) break;
    await page.evaluate(
      armScript('keydown', `!!document.querySelector('#tree-row-${at + 1}.cursor')`, STEP_TIMEOUT_MS),
    );
    await page.keyboard.press('j');
    await until(
      page,
      'window.__vakBench.eye.doneAt !== null || window.__vakBench.eye.error !== null',
      STEP_TIMEOUT_MS + 5000,
    );
    const t = took(await armed(page));
    if (t !== null) out.push(t);
    await idle(page, 300);
  }
  return out;
}

/** Five quick `j` from a clicked row → the 5th row's panes, from the first key. */
async function jFive(page: Page, log: Log): Promise<{ ms: number[]; counts: Counts }> {
  const verbose = process.argv.includes('--verbose');
  const ms: number[] = [];
  const sum: Counts[] = [];
  for (let k = 0; k < J_RUNS; k++) {
    const at = (await page.evaluate(CURSOR_ROW)) as number | null;
    if (at === null) break;
    const target = await showRow(page, at + 5);
    if (!target) break;
    await page.evaluate(armScript('keydown', panesFor(target.id), STEP_TIMEOUT_MS));
    if (verbose)
      await page.evaluate(`(() => { const B = window.__vakBench; B.keys = [];
        if (!B.keysOn) { B.keysOn = true; for (const t of ['keydown', 'keyup'])
          window.addEventListener(t, (e) => B.keys && B.keys.push(t.slice(3) + ' ' + e.timeStamp.toFixed(0)), true); } })()`);
    for (let n = 0; n < 5; n++) await page.keyboard.press('j');
    await until(
      page,
      'window.__vakBench.eye.doneAt !== null || window.__vakBench.eye.error !== null',
      STEP_TIMEOUT_MS + 5000,
    );
    const m = await armed(page);
    const t = took(m);
    if (t !== null) ms.push(t);
    await idle(page, 300);
    sum.push(await counts(page, m.wsFrom));
    if (verbose)
      log(
        `      five quick j: first key ${m.at?.toFixed(0)}, 5th leaf's panes ${m.doneAt?.toFixed(0)}; ` +
          `keys ${((await page.evaluate('window.__vakBench.keys')) as string[]).join(', ')}\n` +
          (await requestsSince(page, m.wsFrom)),
      );
  }
  return { ms, counts: merge(sum) };
}

/** A row clicked, then the tree scrolled from the middle for 2 s while its panes load: frame intervals. */
async function scrollWhileLoading(page: Page): Promise<number[]> {
  const rows = Number(await page.evaluate(`document.querySelector('.tree-scroll').dataset.rows`));
  const shown = await showRow(page, Math.floor(rows * 0.3));
  if (!shown) return [];
  await idle(page, 200);
  const r = (await page.evaluate(`(async () => {
    document.querySelector('.tree-row[data-entry-id="${shown.id}"]').click();
    return await ${scrollScript(2000, 'middle', 3000)};
  })()`)) as { frames: number[] };
  await idle(page, 300);
  return r.frames;
}

/**
 * `--verbose`: each task over 50 ms while selecting, with what its long animation frame says ran in
 * it (the scripts by their invoker, each one's forced style and layout) and the frame's own
 * rendering when that fell in the task: which work a long task was, without a trace's overhead.
 */
async function longTasksSaid(page: Page, since: number): Promise<string> {
  return (await page.evaluate(`(() => {
    const B = window.__vakBench;
    if (!B.longTasks || !B.loafs) return '    (no Long Tasks or Long Animation Frames API)';
    const tasks = B.longTasks.filter((t) => t.at >= ${since});
    const kinds = new Map();
    const lines = tasks.map((t) => {
      const end = t.at + t.ms;
      const scripts = B.loafs.flatMap((f) => f.scripts).filter((s) => s.at >= t.at - 1 && s.at < end);
      const frame = B.loafs.find((f) => f.renderAt !== null && f.renderAt >= t.at && f.renderAt < end);
      const render = frame ? Math.round(Math.min(end, frame.at + frame.ms) - frame.renderAt) : 0;
      const longest = scripts.reduce((a, s) => (a && a.ms >= s.ms ? a : s), null);
      const kind = longest && longest.ms >= render ? longest.what : render > 0 ? 'frame rendering' : 'unattributed';
      const k = kinds.get(kind) || { n: 0, max: 0 };
      kinds.set(kind, { n: k.n + 1, max: Math.max(k.max, t.ms) });
      const said = scripts.map((s) => s.what + ' ' + Math.round(s.ms) + (s.layout >= 1 ? ' (layout ' + Math.round(s.layout) + ')' : '')).join(', ');
      return '      ' + Math.round(t.ms) + ' ms at ' + Math.round(t.at) + ': ' + (said || '-') + (render ? ' · rendering ' + render : '');
    });
    const byKind = [...kinds].sort((a, b) => b[1].max - a[1].max).map(([k, v]) => k + ' ' + v.n + ' (max ' + Math.round(v.max) + ')');
    return '    long tasks by their longest part: ' + byKind.join('; ') + '\\n' + lines.join('\\n');
  })()`)) as string;
}

async function longTasksSince(page: Page, since: number): Promise<{ max: number | null; n: number }> {
  const tasks = (await page.evaluate(
    `window.__vakBench.longTasks && window.__vakBench.longTasks.filter((t) => t.at >= ${since}).map((t) => t.ms)`,
  )) as number[] | null;
  if (tasks === null) return { max: null, n: 0 };
  return { max: tasks.length ? Math.max(...tasks) : 0, n: tasks.length };
}

/** The trace's categories: the timeline's tasks, layout and paint, and the page's JavaScript samples. */
const TRACE = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'blink.user_timing',
  'toplevel',
];

/** With `--profile D`: a Chromium trace of `page` into D/name.json until traceEnd. */
async function traced(browser: Browser, page: Page, name: string): Promise<void> {
  const prof = argOf('--profile');
  if (!prof) return;
  mkdirSync(resolve(prof), { recursive: true });
  await browser.startTracing(page, {
    path: join(resolve(prof), `${name}.json`),
    screenshots: false,
    categories: TRACE,
  });
}
async function traceEnd(browser: Browser): Promise<void> {
  if (argOf('--profile')) await browser.stopTracing();
}

/** What `--link` measures: from the link's navigation, in ms; `moves`: distinct progress values drawn. */
interface LinkFigures {
  load: [number, number];
  rowsMs: number | null;
  /**
   * The page's DOMContentLoaded (its entry script compiled and run): before it, the browser's
   * and the compile's time; after it, the app's. The part after it varies less from run to run.
   */
  scriptMs: number | null;
  progressMs: number | null;
  moves: number;
  panesMs: number | null;
}

/** Records when the reading progress is first drawn and each value it shows (`--link`). */
const PROGRESS_WATCH = `(() => {
  const B = (window.__vakProgress = { at: null, values: [] });
  const end = performance.now() + ${OPEN_TIMEOUT_MS};
  const watch = () => {
    const p = document.querySelector('progress[aria-label="Reading the session"]');
    if (p) {
      if (B.at === null) B.at = performance.now();
      const v = Number(p.getAttribute('value'));
      if (B.values[B.values.length - 1] !== v) B.values.push(v);
    }
    if (performance.now() < end) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
})();`;

/** `--link`: a fresh server and data folder, a page opened on the session's link (it reads the session for it). */
async function runLink(browser: Browser, app: string, data: Real100, log: Log): Promise<LinkFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vak-eye-'));
  const load0 = loadavg()[0];
  const server = await serve(app, data.home, dataDir, 'link');
  try {
    const { ctx, page: first } = await signedIn(browser, server);
    await first.close();
    const page = await ctx.newPage();
    await page.addInitScript({ content: INIT_SCRIPT });
    await page.addInitScript({ content: PROGRESS_WATCH });
    await traced(browser, page, 'link');
    await page.goto(`${server.origin}/#${new URLSearchParams({ s: data.key }).toString()}`);
    const open = await settleOpen(page, '0', '0');
    await traceEnd(browser);
    if (process.argv.includes('--verbose')) log((await pageLoadTimes(page)) + '\n' + (await requestsSince(page, 0)));
    const p = (await page.evaluate('window.__vakProgress')) as { at: number | null; values: number[] };
    const scriptMs = (await page.evaluate(
      `performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? null`,
    )) as number | null;
    await ctx.close();
    return {
      load: [load0, loadavg()[0]],
      rowsMs: open.rowsMs,
      scriptMs: scriptMs && scriptMs > 0 ? scriptMs : null,
      progressMs: p.at,
      moves: p.values.length,
      panesMs: open.panesMs,
    };
  } finally {
    await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One whole script on a fresh data folder. */
async function runOnce(browser: Browser, app: string, data: Real100, log: Log): Promise<EyeRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vak-eye-'));
  const load0 = loadavg()[0];
  let server: ServeProcess | null = await serve(app, data.home, dataDir, 'first');
  try {
    let { ctx, page } = await signedIn(browser, server);
    log('    first open …');
    await traced(browser, page, 'first');
    const firstOpen = await openFromLibrary(page, data.key);
    await traceEnd(browser);
    if (process.argv.includes('--verbose')) log(await requestsSince(page, 'window.__vakBench.openFrom'));
    // The clicks are measured once the session is read (and its hash check is done).
    await until(page, READ_DONE, OPEN_TIMEOUT_MS);
    await idle(page, 1500, 60_000);
    const selectFrom = (await page.evaluate('performance.now()')) as number;
    // `--start`: only the ways in (first open, reload, reopen), for the start path's own runs.
    const selecting = !process.argv.includes('--start');
    if (selecting) log('    clicks …');
    if (selecting) await traced(browser, page, 'clicks');
    const clicks = selecting ? await clickRows(page, log) : { ms: [], errors: 0, counts: merge([]) };
    if (selecting) await traceEnd(browser);
    if (selecting) log('    keys …');
    const keys = selecting ? await keyCursor(page) : [];
    if (selecting) await traced(browser, page, 'jfive');
    const j = selecting ? await jFive(page, log) : { ms: [], counts: merge([]) };
    if (selecting) await traceEnd(browser);
    const tasks = await longTasksSince(page, selectFrom);
    if (process.argv.includes('--verbose')) log(await longTasksSaid(page, selectFrom));
    if (selecting) log('    scroll while a leaf loads …');
    const scrollFrames = selecting ? await scrollWhileLoading(page) : [];
    const figures = (reload: OpenFigures, reloadAgain: OpenFigures, reopen: OpenFigures) => ({
      load: [load0, loadavg()[0]] as [number, number],
      firstOpen,
      clicks: clicks.ms,
      clickErrors: clicks.errors,
      clickCounts: clicks.counts,
      keyCursor: keys,
      jFive: j.ms,
      jCounts: j.counts,
      longestTaskMs: tasks.max,
      longTasks: tasks.n,
      scrollFrames,
      reload,
      reloadAgain,
      reopen,
    });
    // `--select`: only the clicks and keys (no reload, no reopen), for the click path's own runs.
    if (process.argv.includes('--select')) {
      await ctx.close();
      const none: OpenFigures = { rowsMs: null, panesMs: null, counts: merge([]) };
      return figures(none, none, none);
    }
    if (process.argv.includes('--leaf')) await chooseLeaf(page);
    log('    reload …');
    await traced(browser, page, 'reload');
    await page.reload();
    const reload = await settleOpen(page, '0', '0');
    await traceEnd(browser);
    if (process.argv.includes('--verbose')) log((await pageLoadTimes(page)) + '\n' + (await requestsSince(page, 0)));
    log('    reload again …');
    await traced(browser, page, 'reload-again');
    await page.reload();
    const reloadAgain = await settleOpen(page, '0', '0');
    await traceEnd(browser);
    if (process.argv.includes('--verbose')) log((await pageLoadTimes(page)) + '\n' + (await requestsSince(page, 0)));
    await ctx.close();
    await stop(server.child);
    server = null;
    log('    reopen in a fresh server …');
    server = await serve(app, data.home, dataDir, 'reopen');
    ({ ctx, page } = await signedIn(browser, server));
    await traced(browser, page, 'reopen');
    const reopen = await openFromLibrary(page, data.key);
    await traceEnd(browser);
    if (process.argv.includes('--verbose')) log(await requestsSince(page, 'window.__vakBench.openFrom'));
    await ctx.close();
    return figures(reload, reloadAgain, reopen);
  } finally {
    if (server) await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- report

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number): number | null =>
  xs.length ? sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * p))] : null;
const f = (n: number | null | undefined, d = 0): string => (n === null || n === undefined ? '—' : n.toFixed(d));
/** How many runs met `goal`, of how many ("5 of 6"). */
const within = (xs: (number | null)[], goal: number): string =>
  xs.every((x) => x === null) ? '—' : `${xs.filter((x) => x !== null && x <= goal).length} of ${xs.length}`;
const range = (xs: (number | null)[], d = 0, unit = 'ms'): string => {
  const v = xs.filter((x): x is number => x !== null);
  if (!v.length) return '—';
  const lo = Math.min(...v),
    hi = Math.max(...v);
  return lo === hi || v.length === 1 ? `${f(lo, d)} ${unit}` : `${f(lo, d)}–${f(hi, d)} ${unit}`;
};
/** Requests per method (per input when `per` > 1), each with its answers' size per request. */
const countLine = (c: Counts, per = 1): string =>
  Object.entries(c.byMethod)
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => {
      const bytes = c.bytesByMethod?.[m];
      const size = bytes === undefined ? '' : ` (${(bytes / n / 1024).toFixed(bytes / n < 10_240 ? 1 : 0)} KB)`;
      return `${m} ${per === 1 ? n : (n / per).toFixed(1)}${size}`;
    })
    .join(', ') + ` · repeated ${c.repeats}, cancelled ${c.cancels}`;

function report(runs: EyeRun[], big: boolean, log: Log): void {
  const all = (g: (r: EyeRun) => number[]): number[] => runs.flatMap(g);
  const clicks = all((r) => r.clicks);
  const frames = all((r) => r.scrollFrames);
  log('');
  log(`  ${runs.length} run(s) · load average ${runs.map((r) => `${f(r.load[0], 1)}→${f(r.load[1], 1)}`).join(', ')}`);
  log('  what (input event → painted)            figure                                   goal');
  const row = (what: string, fig: string, goal: string): void => log(`  ${what.padEnd(40)} ${fig.padEnd(40)} ${goal}`);
  // How many runs met a goal ("at a quiet moment, in most runs"): a run with no figure did not.
  // A goal of null: none in numbers (the 1 GiB first open's panes: "as soon as the read reaches them").
  const ways = (what: string, pick: (r: EyeRun) => OpenFigures, rowsGoal: number, panesGoal: number | null): void => {
    const rows = runs.map((r) => pick(r).rowsMs);
    const panes = runs.map((r) => pick(r).panesMs);
    const panesWithin = panesGoal === null ? '—' : within(panes, panesGoal);
    row(
      what,
      `${range(rows)} / ${range(panes)}`,
      `≤ ${rowsGoal} / ${panesGoal === null ? '—' : `≤ ${panesGoal}`} ms (within: ${within(rows, rowsGoal)} / ${panesWithin})`,
    );
  };
  const jFive = all((r) => r.jFive);
  row(
    'click a leaf → both panes (p50 / p95)',
    `${f(pct(clicks, 0.5))} / ${f(pct(clicks, 0.95))} ms (${clicks.length} clicks, ${range(clicks)})`,
    '≤ 100 / ≤ 200 ms',
  );
  row('five quick j → 5th leaf’s panes', range(jFive), `≤ 200 ms (within: ${within(jFive, 200)})`);
  row(
    'key → cursor drawn (p50 / max)',
    `${f(
      pct(
        all((r) => r.keyCursor),
        0.5,
      ),
      1,
    )} / ${f(
      pct(
        all((r) => r.keyCursor),
        1,
      ),
      1,
    )} ms`,
    '≤ 16 ms',
  );
  row(
    'longest task while selecting',
    // The Long Tasks API reports only tasks over 50 ms: a run with none is "< 50", not 0.
    `${runs.map((r) => (r.longestTaskMs === null ? '?' : r.longTasks === 0 ? '< 50' : `${Math.round(r.longestTaskMs)}`)).join(', ')} ms (${runs.map((r) => r.longTasks).join(', ')} over 50 ms)`,
    '≤ 50 ms',
  );
  // The 1 GiB session's first open: first rows while it is read (≤ 500 ms); the 100 MB one's goals.
  if (big) ways('first open → first rows / panes', (r) => r.firstOpen, 500, null);
  else ways('first open → first rows / panes', (r) => r.firstOpen, 300, 1000);
  ways('reopen, fresh server → rows / panes', (r) => r.reopen, 200, 400);
  ways('page reload → rows / panes', (r) => r.reload, 200, 400);
  ways('reload again → rows / panes', (r) => r.reloadAgain, 200, 400);
  row(
    'chart drawn: open / reopen / reloads',
    (['firstOpen', 'reopen', 'reload', 'reloadAgain'] as const)
      .map((k) => range(runs.map((r) => r[k].chartMs ?? null)))
      .join(' / '),
    '—',
  );
  const dropped = frames.filter((x) => x > 25).length;
  row(
    'tree scroll while panes load',
    `frames p50 ${f(pct(frames, 0.5), 1)} · p95 ${f(pct(frames, 0.95), 1)} ms, ${dropped}/${frames.length} > 25 ms`,
    '60 fps',
  );
  log('\n  requests the page sent (run 1):');
  const r = runs[0];
  log(`    first open:        ${countLine(r.firstOpen.counts)}`);
  log(`    per click:         ${countLine(r.clickCounts, r.clicks.length + r.clickErrors)}`);
  log(`    five quick j (×${J_RUNS}): ${countLine(r.jCounts)}`);
  log(`    reload:            ${countLine(r.reload.counts)}`);
  log(`    reload again:      ${countLine(r.reloadAgain.counts)}`);
  log(`    reopen:            ${countLine(r.reopen.counts)}`);
}

// ---------------------------------------------------------------- entry

const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

export async function runEyeBench(log: Log): Promise<void> {
  const chromiumLookup = findChromiumHere();
  if (!chromiumLookup.found) return log(`  (not measured: ${chromiumLookup.message})`);
  const app = resolve(argOf('--app') ?? process.env['VAK_EYE_APP'] ?? ROOT);
  if (!existsSync(join(app, 'out', 'renderer', 'index.html')) || !existsSync(join(app, 'dist', 'cli'))) {
    return log(`  (not measured: no build in ${app}: run \`npm run build\` there)`);
  }
  const big = argOf('--size') === '1g';
  const data = big ? prepareEye1g(log) : prepareReal100(log);
  const runs = Number(argOf('--runs') ?? 1);
  log(
    `  at the eye · ${(data.bytes / 2 ** 20).toFixed(0)} MB, ${data.entries.toLocaleString('en-US')} entries · build ${app}` +
      ` · ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(2)}`,
  );
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: chromiumLookup.path, args: CHROMIUM_ARGS });
  try {
    if (process.argv.includes('--link')) {
      const rows: (number | null)[] = [];
      const afterScript: (number | null)[] = [];
      for (let k = 0; k < runs; k++) {
        const r = await runLink(browser, app, data, log);
        rows.push(r.rowsMs);
        const after = r.rowsMs !== null && r.scriptMs !== null ? r.rowsMs - r.scriptMs : null;
        afterScript.push(after);
        log(
          `  run ${k + 1}/${runs}, a link opened in a fresh server (load ${r.load.map((l) => l.toFixed(1)).join(' → ')}): ` +
            `first rows ${f(r.rowsMs)} ms (${f(after)} after DOMContentLoaded at ${f(r.scriptMs)}), ` +
            `reading progress shown ${f(r.progressMs)} ms (${r.moves} values drawn), panes ${f(r.panesMs)} ms`,
        );
      }
      // The 1 GiB session's goal: first rows while it is read, ≤ 500 ms.
      if (big)
        log(
          `  first rows ${range(rows)} (within ≤ 500 ms: ${within(rows, 500)}), of which after DOMContentLoaded ${range(afterScript)}`,
        );
      return;
    }
    const out: EyeRun[] = [];
    for (let k = 0; k < runs; k++) {
      log(`  run ${k + 1}/${runs}`);
      out.push(await runOnce(browser, app, data, log));
    }
    report(out, big, log);
    if (process.argv.includes('--json')) log(JSON.stringify(out));
  } catch (e) {
    log(`  (eye bench failed: ${(e as Error).stack ?? String(e)})`);
    process.exitCode = 1;
  } finally {
    await browser.close().catch(() => undefined);
  }
}
