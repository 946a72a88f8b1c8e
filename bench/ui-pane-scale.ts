/**
 * The History and Projected lists past Chromium's element height, for `npm run bench
 * -- ui` (and alone: `npm run bench -- ui --panes`). A ledger whose active chain has 2M entries
 * is ~1 GB; instead the demo session is opened in serve mode and its leaf view's chain and
 * projection are swapped, in the page, for synthetic rows (synthRowsScript: the real panes,
 * paging, links and scrolling, in Chromium; only the rows are made up). Measured at 2,000,000
 * rows (scaled: data/scaled-list.ts) and, as the baseline in the same run, at 1,500 rows (below
 * the limit and below ANCHORED_FROM_ROWS: @tanstack/react-virtual, as before).
 */
import type { Browser } from '@playwright/test';
import { INIT_SCRIPT, OPEN_TIMEOUT_MS, paneLinkScript, paneScaleScript, synthRowsScript } from './ui-page-scripts';

const ROWS = 2_000_000;
const BASELINE_ROWS = 1_500;
/** Synthetic page answers come after this long (about a served page's round trip on a quiet machine). */
const LATENCY_MS = 5;
const THUMB_MS = 4000;
const WHEEL_MS = 3000;
const WHEEL_PX = 6000;
const VSYNC_MS = 1000 / 60;
const PANES = ['History', 'Projected context'] as const;

type Log = (line: string) => void;

interface Drive {
  frames: number[];
  work: number[];
  blankFrames: number;
}
interface PaneFigures {
  rows: number;
  contentPx: number;
  scaled: boolean;
  openedAtEnd: boolean;
  reachedFirst: boolean;
  reachedLast: boolean;
  reachedMiddle: boolean;
  thumb: Drive;
  wheel: Drive & { px: number; fromRow: number; toRow: number; skipped: number };
  endKey?: boolean;
  homeKey?: boolean;
}
interface LinkFigures {
  row?: number;
  back?: number;
  toMessage?: boolean;
  toMessageMs?: number;
  toEntry?: boolean;
  toEntryMs?: number;
  error?: string;
}
interface Run {
  rows: number;
  panes: Record<(typeof PANES)[number], PaneFigures>;
  links: LinkFigures;
  longestTaskMs: number | null;
  longTasks: number;
}

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs: number[], p: number): number | null =>
  xs.length ? sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * p))] : null;
const f = (n: number | null | undefined, d = 0): string => (n === null || n === undefined ? '—' : n.toFixed(d));
const yes = (b: boolean | undefined): string => (b === undefined ? '—' : b ? 'yes' : 'NO');
const int = (n: number): string => n.toLocaleString('en-US');

async function measureRun(browser: Browser, url: string, key: string, rows: number, log: Log): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: INIT_SCRIPT });
    await page.addInitScript({ content: synthRowsScript(rows, LATENCY_MS) });
    await page.goto(`${url}#s=${encodeURIComponent(key)}`);
    await page.locator('.leaf-panes[data-leaf-id][aria-busy="false"]').waitFor({ timeout: OPEN_TIMEOUT_MS });
    await page
      .locator('section[aria-label="Projected context"] .projected-msg')
      .first()
      .waitFor({ timeout: OPEN_TIMEOUT_MS });
    await page.waitForTimeout(500);
    const from = (await page.evaluate('performance.now()')) as number;
    const panes = {} as Run['panes'];
    for (const pane of PANES) {
      log(`  ${int(rows)} rows: ${pane} …`);
      panes[pane] = (await page.evaluate(paneScaleScript(pane, THUMB_MS, WHEEL_MS, WHEEL_PX))) as PaneFigures;
    }
    const row = Math.round(rows * 0.617);
    const back = Math.round(rows * 0.383);
    const links = (await page.evaluate(paneLinkScript(row, back))) as LinkFigures;
    const tasks = (await page.evaluate(
      `window.__vakBench.longTasks && window.__vakBench.longTasks.filter((t) => t.at >= ${from}).map((t) => t.ms)`,
    )) as number[] | null;
    return {
      rows,
      panes,
      links,
      longestTaskMs: tasks === null ? null : tasks.length ? Math.max(...tasks) : 0,
      longTasks: tasks?.length ?? 0,
    };
  } finally {
    await context.close();
  }
}

function driveLine(what: string, d: Drive): string {
  const dropped = d.frames.filter((x) => x > VSYNC_MS * 1.5).length;
  return (
    `${what.padEnd(30)} interval median ${f(median(d.frames), 1)} · p95 ${f(pct(d.frames, 0.95), 1)} · max ${f(d.frames.length ? Math.max(...d.frames) : null, 1)} ms` +
    ` · work median ${f(median(d.work), 1)} · p95 ${f(pct(d.work, 0.95), 1)} ms` +
    ` · ${d.frames.length} frames (${dropped} over 1.5 frames), ${d.blankFrames} with "…" rows in view`
  );
}

function report(big: Run, base: Run, log: Log): void {
  log(
    `\n  5. History and Projected lists past the element height: ${int(ROWS)} synthetic rows each (the demo session's leaf,` +
      `\n     its chain and projection swapped in the page), vs ${int(BASELINE_ROWS)} (below the limit: the virtualizer as before)`,
  );
  for (const pane of PANES) {
    for (const run of [big, base]) {
      const p = run.panes[pane];
      log(
        `     ${pane.padEnd(18)} ${int(p.rows).padStart(9)} rows · content ${int(p.contentPx)} px (${p.scaled ? 'scaled' : 'virtualizer, not scaled'})` +
          ` · opened at the leaf end ${yes(p.openedAtEnd)}` +
          `\n       scrollbar reaches: first row ${yes(p.reachedFirst)} · middle ${yes(p.reachedMiddle)} · last ${yes(p.reachedLast)}` +
          (p.scaled ? ` · keys: End ${yes(p.endKey)} · Home ${yes(p.homeKey)}` : ''),
      );
      log(`       ${driveLine(`scrollbar top → bottom ${THUMB_MS / 1000} s`, p.thumb)}`);
      log(
        `       ${driveLine(`wheel ${int(WHEEL_PX)} px in ${WHEEL_MS / 1000} s`, p.wheel)}` +
          `\n       ${''.padEnd(30)} rows ${int(p.wheel.fromRow)} → ${int(p.wheel.toRow)} passed through the view` +
          (p.scaled ? `, ${p.wheel.skipped} skipped` : ''),
      );
    }
  }
  for (const run of [big, base]) {
    const l = run.links;
    log(
      `     links at ${int(run.rows)} rows: entry c${int(l.row ?? 0)} → message #${int(l.row ?? 0)} drawn ${yes(l.toMessage)} (${f(l.toMessageMs)} ms)` +
        ` · message #${int(l.back ?? 0)} → entry c${int(l.back ?? 0)} ${yes(l.toEntry)} (${f(l.toEntryMs)} ms)${l.error ? ` · ${l.error}` : ''}` +
        ` · longest task ${f(run.longestTaskMs)} ms (${run.longTasks} over 50 ms)`,
    );
  }
  const ok = PANES.every((p) => {
    const x = big.panes[p];
    return x.scaled && x.openedAtEnd && x.reachedFirst && x.reachedMiddle && x.reachedLast && x.endKey && x.homeKey;
  });
  const noSkips = PANES.every((p) => big.panes[p].wheel.skipped === 0);
  log(
    `     target: every row reachable at ${int(ROWS)} rows (first, middle, last by the scrollbar; End, Home; links both ways; no row` +
      ` skipped by the wheel) → ${ok && noSkips && big.links.toMessage && big.links.toEntry ? 'ok' : 'MISS'}`,
  );
}

/**
 * Runs both sizes on the server at `url` (its printed URL, with the token; the demo session `key`
 * in its home), logging progress; returns what prints section 5 (after the other sections).
 */
export async function measurePaneScale(
  browser: Browser,
  url: string,
  key: string,
  log: Log,
): Promise<(log: Log) => void> {
  const base = await measureRun(browser, url, key, BASELINE_ROWS, log);
  const big = await measureRun(browser, url, key, ROWS, log);
  return (out) => report(big, base, out);
}
