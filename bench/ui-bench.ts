/**
 * UI speed on the 1M-entry session, for `npm run bench -- ui --1m` (`npm run bench -- ui` alone
 * is the eye bench on the 100 MB session: ui-eye.ts): the built renderer in Chromium, through
 * the real serve mode, on a generated 1,000,000-entry session and, as the baseline measured
 * in the same run, on the 308-entry demo session:
 *   1. navigation to the session → first tree rows drawn (and when the server answered openSession);
 *   2. frame times while the tree is scrolled top → bottom (requestAnimationFrame timestamps in the page);
 *   3. click on a tree row → History and Projected context drawn for that leaf (median over ~10 rows);
 *   5. the History and Projected lists at 2,000,000 rows (ui-pane-scale.ts; alone: `-- ui --panes`).
 * `npm run bench -- ui --build` rebuilds the renderer first (otherwise only when out/ is missing).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { generateSession } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { sessionKey } from '../src/shared/session-key';
import { findChromiumHere } from '../src/test-support/find-chromium';
import { CHROMIUM_ARGS, ROOT, startServe, type ServeProcess } from '../src/test-support/serve-process';
import {
  armClickScript,
  CLICK_TIMEOUT_MS,
  INIT_SCRIPT,
  OPEN_TIMEOUT_MS,
  ROW_HEIGHT,
  scrollScript,
  showRowScript,
} from './ui-page-scripts';
import { measureChartDraw } from './chart-bench';
import { measurePaneScale } from './ui-pane-scale';

const DATA = join(ROOT, 'bench', '.data');
const HOME = join(DATA, 'ui-home');
const MARKER = join(DATA, 'ui-home.json');
const RENDERER_INDEX = join(ROOT, 'out', 'renderer', 'index.html');
const CWD = '/home/ana/projects/vak';
const ENTRIES = 1_000_000;
/** The 308-entry demo session (turn cards, packets): small, but tall enough to scroll. */
const DEMO_KEY = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';
const DEMO_HOME = fileURLToPath(new URL('../../shared/fixtures/demo-home', import.meta.url));

/** The speed targets; null where none is set. */
const TARGET = { openMs: null as number | null, frameMedianMs: 16, clickMs: 200 };
const SCROLL_MS = 6000;
/** A second, slower pass from the middle: about a fast mouse wheel (3,000 px/s, 125 rows/s). */
const WHEEL_MS = 3000;
const WHEEL_PX = 9000;
/** One frame at 60 Hz: what requestAnimationFrame intervals cannot go below. */
const VSYNC_MS = 1000 / 60;
const CLICKS = 10;
/** How long one measurement may take before it is reported as not reached. */
const MB = 1 << 20;

type Log = (line: string) => void;

interface OpenResult {
  firstRowsAt: number | null;
  panesAt: number | null;
  openSent: number | null;
  openAnswered: number | null;
  firstProgressAt: number | null;
  rows: number;
}
interface ScrollResult {
  frames: number[];
  work: number[];
  blankFrames: number;
  fromPx: number;
  toPx: number;
  reachedEnd: boolean;
  filledAfter: number | null;
}
interface ClickResult {
  row: number;
  id: string;
  ms: number | null;
  leafViewMs: number | null;
  leafViewBytes: number;
  error: string | null;
}
interface SessionFigures {
  label: string;
  key: string;
  entries: number;
  bytes: number;
  open: OpenResult;
  scroll: ScrollResult | null;
  wheel: ScrollResult | null;
  clicks: ClickResult[];
  /** The longest main-thread task while the rows were clicked (ms; null: no Long Tasks API), and how many passed 50 ms. */
  longestTaskMs: number | null;
  longTasks: number;
}

// ---------------------------------------------------------------- stats and printing

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const median = (xs: number[]): number => {
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs: number[], p: number): number => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (n: number | null, d = 0): string => (n === null ? '—' : n.toFixed(d));
const okMiss = (v: number | null, target: number | null): string =>
  v === null ? 'MISS (not reached)' : target === null ? '(no target set)' : v < target ? 'ok' : 'MISS';
const ratio = (a: number | null, b: number | null): string =>
  a === null || b === null || b <= 0 ? '' : ` · ${(a / b).toFixed(1)}× the demo`;

// ---------------------------------------------------------------- the home: 1M generated + the demo session

/** What the 1M session is generated from; a cached session made from other options is remade. */
const GENERATE = {
  seed: 1,
  entries: ENTRIES,
  cwd: CWD,
  toolResultBytes: [60, 200] as [number, number],
  bigLines: false,
};

export interface Prepared {
  options: string;
  home: string;
  bigKey: string;
  bigEntries: number;
  bigBytes: number;
}

/** Generates (once, cached in bench/.data/ui-home) the 1M-entry session and copies the demo session beside it. */
export function prepareHome(log: Log): Prepared {
  mkdirSync(DATA, { recursive: true });
  const dir = join(HOME, 'agents', 'vak', 'sessions', cwdHash(CWD));
  let cached: Prepared | null = null;
  if (existsSync(MARKER)) {
    const m = JSON.parse(readFileSync(MARKER, 'utf8')) as Prepared;
    const file = join(HOME, m.bigKey);
    const same = m.options === JSON.stringify(GENERATE);
    if (same && existsSync(file) && statSync(file).size === m.bigBytes) cached = { ...m, home: HOME };
  }
  if (!cached) {
    if (existsSync(MARKER)) {
      // A session from other options: remove it, so the home holds one big session.
      const old = JSON.parse(readFileSync(MARKER, 'utf8')) as Prepared;
      rmSync(join(HOME, old.bigKey), { force: true });
    }
    const partial = join(DATA, 'ui-1m.partial.jsonl');
    log(`  generating a ${ENTRIES.toLocaleString('en-US')}-entry session (≈530 MB, ~15 s) …`);
    const t0 = performance.now();
    const g = generateSession({ ...GENERATE, path: partial });
    mkdirSync(dir, { recursive: true });
    const bigKey = sessionKey('vak', cwdHash(CWD), g.sessionId);
    renameSync(partial, join(HOME, bigKey));
    cached = {
      options: JSON.stringify(GENERATE),
      home: HOME,
      bigKey,
      bigEntries: g.entries,
      bigBytes: statSync(join(HOME, bigKey)).size,
    };
    writeFileSync(MARKER, JSON.stringify(cached));
    log(`  generated in ${f((performance.now() - t0) / 1000, 1)} s → ${join(HOME, bigKey)}`);
  }
  const demoSrc = join(DEMO_HOME, DEMO_KEY);
  if (!existsSync(demoSrc)) throw new Error(`the demo session is missing: ${demoSrc}`);
  mkdirSync(join(HOME, DEMO_KEY, '..'), { recursive: true });
  copyFileSync(demoSrc, join(HOME, DEMO_KEY));
  return cached;
}

// ---------------------------------------------------------------- the server

type Server = ServeProcess;

async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Peak resident memory of a process (Linux), in MiB. */
function peakRssMB(pid: number | undefined): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- one session, measured

/**
 * Polls a condition inside the page. (page.waitForFunction evaluates its string with eval,
 * which the app's CSP forbids; an evaluated expression is not subject to it.)
 */
async function waitInPage(page: Page, condition: string, timeoutMs: number): Promise<boolean> {
  return (await page.evaluate(`(async () => {
    const until = performance.now() + ${timeoutMs};
    while (!(${condition})) {
      if (performance.now() > until) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  })()`)) as boolean;
}

async function measureSession(
  browser: Browser,
  server: Server,
  label: string,
  key: string,
  entries: number,
  bytes: number,
  log: Log,
): Promise<SessionFigures> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 900 } });
  try {
    // Sign in (the token is exchanged for a cookie), then load the app once so the measured
    // navigation finds the bundle in the HTTP cache, as a second visit would.
    const warm = await context.newPage();
    await warm.goto(server.url);
    await warm.getByRole('navigation', { name: 'Library' }).waitFor({ timeout: 30_000 });
    await warm.close();

    const page = await context.newPage();
    await page.addInitScript({ content: INIT_SCRIPT });
    log(`  ${label}: opening …`);
    await page.goto(`${server.origin}/#s=${encodeURIComponent(key)}`);
    await waitInPage(
      page,
      'window.__vakBench.firstRowsAt !== null || !!document.querySelector(".tree.error")',
      OPEN_TIMEOUT_MS,
    );
    // The active leaf's panes load right after the open; let them land before scrolling.
    await waitInPage(
      page,
      'window.__vakBench.panesAt !== null || window.__vakBench.leafError() !== null',
      OPEN_TIMEOUT_MS,
    );
    const open = await page.evaluate(`(() => {
      const B = window.__vakBench;
      const o = B.ws.find((e) => e.method === 'openSession');
      return { firstRowsAt: B.firstRowsAt, panesAt: B.panesAt, openSent: o ? o.sentAt : null,
        openAnswered: o ? o.answeredAt : null, firstProgressAt: B.firstProgressAt,
        rows: document.querySelector('.tree-scroll') ? Number(document.querySelector('.tree-scroll').dataset.rows) : 0 };
    })()`);
    const o = open as OpenResult;
    if (o.firstRowsAt === null) {
      const text = await page.locator('.tree').first().textContent();
      throw new Error(`${label}: no tree rows (${text?.trim().slice(0, 200)})`);
    }

    log(`  ${label}: scrolling ${o.rows.toLocaleString('en-US')} rows top → bottom in ${SCROLL_MS / 1000} s …`);
    const scroll = (await page.evaluate(scrollScript(SCROLL_MS, 'top', null))) as ScrollResult;
    log(
      `  ${label}: scrolling ${WHEEL_PX.toLocaleString('en-US')} px from the middle in ${WHEEL_MS / 1000} s (a fast mouse wheel) …`,
    );
    const wheel = (await page.evaluate(scrollScript(WHEEL_MS, 'middle', WHEEL_PX))) as ScrollResult;

    const clicksFrom = (await page.evaluate('performance.now()')) as number;
    const clicks: ClickResult[] = [];
    const rowsToClick = Array.from({ length: CLICKS }, (_, k) => Math.floor(((k + 0.5) / CLICKS) * (o.rows - 1)));
    log(`  ${label}: clicking ${CLICKS} rows (${rowsToClick.join(', ')}) …`);
    for (let row of rowsToClick) {
      type Shown = { id: string; selected: boolean } | null;
      let shown = (await page.evaluate(showRowScript(row))) as Shown;
      // A click on the leaf already shown changes nothing: take the next row.
      if (shown?.selected) shown = (await page.evaluate(showRowScript(++row))) as Shown;
      if (!shown) {
        clicks.push({ row, id: '', ms: null, leafViewMs: null, leafViewBytes: 0, error: 'row never drawn' });
        continue;
      }
      await page.evaluate(armClickScript(shown.id));
      await page.locator(`#tree-row-${row}`).click();
      await waitInPage(
        page,
        'window.__vakBench.click.drawnAt !== null || window.__vakBench.click.error !== null',
        CLICK_TIMEOUT_MS + 10_000,
      );
      const c = (await page.evaluate(`(() => {
        const B = window.__vakBench, c = B.click;
        const lv = B.ws.slice(c.wsFrom).filter((e) => e.method === 'getLeafView').pop();
        return { clickAt: c.clickAt, drawnAt: c.drawnAt, error: c.error,
          leafViewMs: lv && lv.answeredAt !== null ? lv.answeredAt - lv.sentAt : null, leafViewBytes: lv ? lv.bytes : 0 };
      })()`)) as {
        clickAt: number;
        drawnAt: number | null;
        error: string | null;
        leafViewMs: number | null;
        leafViewBytes: number;
      };
      const ms = c.drawnAt === null ? null : c.drawnAt - c.clickAt;
      clicks.push({
        row,
        id: shown.id,
        ms,
        leafViewMs: c.leafViewMs,
        leafViewBytes: c.leafViewBytes,
        error: c.error,
      });
      if (c.error) {
        log(`    row ${row}: ${c.error}`);
        // One leaf that never arrives will not be faster the next time: stop after two.
        if (clicks.filter((k) => k.error).length >= 2) break;
      }
    }
    const tasks = (await page.evaluate(
      `window.__vakBench.longTasks && window.__vakBench.longTasks.filter((t) => t.at >= ${clicksFrom}).map((t) => t.ms)`,
    )) as number[] | null;
    const longestTaskMs = tasks === null ? null : tasks.length ? Math.max(...tasks) : 0;
    return { label, key, entries, bytes, open: o, scroll, wheel, clicks, longestTaskMs, longTasks: tasks?.length ?? 0 };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------- report

function scrollLine(label: string, sc: ScrollResult | null, log: Log): void {
  if (!sc || sc.frames.length === 0) return log(`     ${label.padEnd(20)} not measured`);
  const dropped = sc.frames.filter((x) => x > VSYNC_MS * 1.5).length;
  const rows = Math.round((sc.toPx - sc.fromPx) / ROW_HEIGHT);
  log(
    `     ${label.padEnd(20)} interval median ${f(median(sc.frames), 1)} · p95 ${f(pct(sc.frames, 0.95), 1)} · max ${f(Math.max(...sc.frames), 1)} ms` +
      ` · ${sc.frames.length} frames, ${dropped} longer than 1.5 frames` +
      `
     ${''.padEnd(20)} work     median ${f(sc.work.length ? median(sc.work) : null, 1)} · p95 ${f(sc.work.length ? pct(sc.work, 0.95) : null, 1)} · max ${f(sc.work.length ? Math.max(...sc.work) : null, 1)} ms` +
      `
     ${''.padEnd(20)} ${rows.toLocaleString('en-US')} rows scrolled${sc.reachedEnd ? '' : ' (did NOT reach the end)'}` +
      ` · ${sc.blankFrames}/${sc.frames.length} frames showed unfilled "…" rows in view` +
      ` · rows in view filled ${sc.filledAfter === null ? 'not within 10 s' : `${f(sc.filledAfter)} ms`} after the scroll stopped`,
  );
}

function report(big: SessionFigures, demo: SessionFigures, log: Log): void {
  log('');
  log('  session                 entries        size   rows (tree)');
  for (const s of [big, demo]) {
    log(
      `  ${s.label.padEnd(20)} ${s.entries.toLocaleString('en-US').padStart(10)} ${(f(s.bytes / MB, 1) + ' MB').padStart(11)}   ${s.open.rows.toLocaleString('en-US')}`,
    );
  }

  log('\n  1. open the session (navigation to #s=…) → first tree rows drawn');
  for (const s of [big, demo]) {
    const o = s.open;
    const server = o.openSent !== null && o.openAnswered !== null ? o.openAnswered - o.openSent : null;
    log(
      `     ${s.label.padEnd(20)} ${f(o.firstRowsAt).padStart(7)} ms ${s === big ? ratio(o.firstRowsAt, demo.open.firstRowsAt) : ''}` +
        `\n       server: openSession answered ${f(server)} ms after it was sent (sent at ${f(o.openSent)} ms, ${o.firstProgressAt === null ? 'no progress events' : `first progress event at ${f(o.firstProgressAt)} ms`})` +
        `\n       the active leaf's panes drawn at ${f(o.panesAt)} ms after navigation`,
    );
  }
  log(
    `     target: ${TARGET.openMs === null ? 'none set' : `< ${TARGET.openMs} ms`} → ${okMiss(big.open.firstRowsAt, TARGET.openMs)}`,
  );

  log(`\n  2. scroll the tree top → bottom in ${SCROLL_MS / 1000} s (one scrollTop step per animation frame)`);
  log(`     interval = between rAF timestamps (at 60 Hz, ${f(VSYNC_MS, 1)} ms = every frame drawn, its floor)`);
  log(
    '     work     = main-thread time of a frame: its scroll event (React renders the new rows) → style, layout, paint done',
  );
  for (const s of [big, demo]) scrollLine(s.label, s.scroll, log);
  const sc = big.scroll;
  const interval = sc?.frames.length ? median(sc.frames) : null;
  const work = sc?.work.length ? median(sc.work) : null;
  const smooth = interval !== null && interval <= VSYNC_MS + 1;
  log(
    `     target: median < ${TARGET.frameMedianMs} ms → ${work === null || interval === null ? 'MISS (not measured)' : smooth && work < TARGET.frameMedianMs ? 'ok' : 'MISS'}` +
      ` (median interval ${f(interval, 1)} ms${smooth ? ' = one 60 Hz frame' : ''}, median work ${f(work, 1)} ms${ratio(work, demo.scroll?.work.length ? median(demo.scroll.work) : null)})`,
  );
  log(
    `\n  2b. a fast mouse wheel: ${WHEEL_PX.toLocaleString('en-US')} px (${WHEEL_PX / ROW_HEIGHT} rows) from the middle in ${WHEEL_MS / 1000} s`,
  );
  for (const s of [big, demo]) scrollLine(s.label, s.wheel, log);

  log('\n  3. click a tree row → History and Projected context drawn for that leaf');
  let bigClick: number | null = null;
  for (const s of [big, demo]) {
    const ok = s.clicks.filter((c) => c.ms !== null);
    const ms = ok.map((c) => c.ms!);
    const m = ms.length ? median(ms) : null;
    if (s === big) bigClick = ok.length === s.clicks.length && ok.length > 0 ? m : null;
    const lv = ok.filter((c) => c.leafViewMs !== null);
    log(
      `     ${s.label.padEnd(20)} median ${f(m)} ms · min ${f(ms.length ? Math.min(...ms) : null)} · max ${f(ms.length ? Math.max(...ms) : null)} ms over ${ok.length}/${s.clicks.length} clicks` +
        (s === big && m !== null && demo.clicks.some((c) => c.ms !== null)
          ? ratio(m, median(demo.clicks.filter((c) => c.ms !== null).map((c) => c.ms!)))
          : '') +
        (lv.length
          ? `\n       getLeafView answered in median ${f(median(lv.map((c) => c.leafViewMs!)))} ms (sent → received in the page), answers of ${f(median(lv.map((c) => c.leafViewBytes)) / MB, 2)} MB median`
          : ''),
    );
    for (const c of s.clicks)
      log(
        `       row ${String(c.row).padStart(7)} ${c.id.padEnd(12)} ${c.ms === null ? `— ${c.error ?? ''}` : `${f(c.ms)} ms`}` +
          (c.leafViewMs !== null ? ` (getLeafView ${f(c.leafViewMs)} ms, ${f(c.leafViewBytes / MB, 2)} MB)` : ''),
      );
  }
  log(`     target: median < ${TARGET.clickMs} ms → ${okMiss(bigClick, TARGET.clickMs)}`);

  log('\n  4. the renderer never blocks: the longest main-thread task while selecting leaves (Long Tasks API)');
  for (const s of [big, demo])
    log(
      `     ${s.label.padEnd(20)} ${s.longestTaskMs === null ? 'not measured (no Long Tasks API)' : s.longTasks === 0 ? 'no task over 50 ms (the Long Tasks API reports none shorter)' : `longest ${f(s.longestTaskMs)} ms · ${s.longTasks} task(s) over 50 ms`}`,
    );
  log(
    `     target: no task over 50 ms → ${big.longestTaskMs === null ? 'MISS (not measured)' : big.longestTaskMs <= 50 ? 'ok' : 'MISS'}`,
  );
}

// ---------------------------------------------------------------- entry

function ensureBuild(log: Log): boolean {
  const force = process.argv.includes('--build');
  if (existsSync(RENDERER_INDEX) && !force) {
    log(`  renderer build: out/renderer from ${statSync(RENDERER_INDEX).mtime.toISOString()} (--build to rebuild)`);
    return true;
  }
  log(`  ${force ? 'rebuilding' : 'no build in out/renderer: building'} (npx electron-vite build) …`);
  const r = spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(RENDERER_INDEX)) {
    log(`  (not measured: the build failed; run \`npm run build\` and look at its errors)`);
    log(
      (r.stderr || r.stdout || '')
        .trim()
        .split('\n')
        .slice(-15)
        .map((l) => `    ${l}`)
        .join('\n'),
    );
    return false;
  }
  return true;
}

/** `--panes`: only section 5, on a home holding the demo session alone (no 1M session to generate or open). */
function prepareDemoHome(): string {
  const home = join(DATA, 'ui-panes-home');
  mkdirSync(join(home, DEMO_KEY, '..'), { recursive: true });
  copyFileSync(join(DEMO_HOME, DEMO_KEY), join(home, DEMO_KEY));
  return home;
}

export async function runUiBench(log: Log): Promise<void> {
  // At the eye on the 100 MB session unless the 1M-entry parts are asked for (`--1m`, `--panes`).
  if (!process.argv.includes('--1m') && !process.argv.includes('--panes')) {
    if (!process.argv.includes('--app') && !ensureBuild(log)) return;
    const { runEyeBench } = await import('./ui-eye');
    return runEyeBench(log);
  }
  const browserLookup = findChromiumHere();
  if (!browserLookup.found) {
    log(`  (not measured: ${browserLookup.message})`);
    return;
  }
  if (!ensureBuild(log)) return;
  if (process.argv.includes('--panes')) return runPanesOnly(browserLookup.path, log);
  const prepared = prepareHome(log);
  const load = (): string => loadavg()[0].toFixed(2);
  const loadBefore = loadavg()[0];
  const { chromium } = await import('@playwright/test');
  let server: Server | null = null;
  let browser: Browser | null = null;
  let printPanes: ((log: Log) => void) | null = null;
  try {
    server = await startServe(prepared.home, 60_000);
    browser = await chromium.launch({
      executablePath: browserLookup.path,
      args: CHROMIUM_ARGS,
    });
    log(
      `  load average ${load()} on ${availableParallelism()} cores${loadBefore > 1 ? ' — other work is running: expect noisy figures' : ''}`,
    );
    log(
      `  Chromium ${browser.version()} (headless, software rendering) · serve mode at ${server.origin} · viewport 1500×900`,
    );
    log("  chart (the context chart's draw, synthetic series):");
    await measureChartDraw(browser, (l) => log(`  ${l}`));
    const demoBytes = statSync(join(prepared.home, DEMO_KEY)).size;
    const demoEntries = readFileSync(join(prepared.home, DEMO_KEY), 'utf8').split('\n').filter(Boolean).length;
    // The baseline first: it also warms the server and the browser the same way for both.
    const demo = await measureSession(browser, server, 'demo session', DEMO_KEY, demoEntries, demoBytes, log);
    // Section 5 needs the demo session only: measured before the 1M session (printed whatever becomes of it).
    printPanes = await measurePaneScale(browser, server.url, DEMO_KEY, log);
    const big = await measureSession(
      browser,
      server,
      '1M generated',
      prepared.bigKey,
      prepared.bigEntries,
      prepared.bigBytes,
      log,
    );
    report(big, demo, log);
    printPanes(log);
    printPanes = null;
    const rss = peakRssMB(server.child.pid);
    log(`\n  serve process peak RSS: ${f(rss)} MB · load average at the end ${load()}`);
  } catch (e) {
    log(`  (ui bench failed: ${(e as Error).message})`);
    if (server?.stderr()) log(`  serve stderr:\n${server.stderr().trim()}`);
    printPanes?.(log);
    process.exitCode = 1;
  } finally {
    await browser?.close().catch(() => undefined);
    if (server) await stopServe(server.child);
  }
}

async function runPanesOnly(executablePath: string, log: Log): Promise<void> {
  const { chromium } = await import('@playwright/test');
  const server = await startServe(prepareDemoHome(), 60_000);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    log(
      `  load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores · Chromium ${browser.version()} (headless)`,
    );
    (await measurePaneScale(browser, server.url, DEMO_KEY, log))(log);
  } catch (e) {
    log(`  (ui bench failed: ${(e as Error).message})`);
    process.exitCode = 1;
  } finally {
    await browser.close().catch(() => undefined);
    await stopServe(server.child);
  }
}
