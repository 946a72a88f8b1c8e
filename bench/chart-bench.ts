/**
 * The context chart's drawing (10,000 turns under 100 ms), for `npm run bench -- chart`
 * and as the `chart` part of `npm run bench -- ui`: the renderer's own chart code, bundled
 * by vite, run in Chromium on a canvas as wide as the strip at 1500×900, on synthetic series
 * of 1,000 and 10,000 turn ends (the smaller one is the baseline of the same run).
 */
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { findChromiumHere } from '../src/test-support/find-chromium';
import { CHROMIUM_ARGS, ROOT } from '../src/test-support/serve-process';

const TARGET_MS = 100;
const WIDTH = 1270;
const HEIGHT = 108;
const REPEAT = 15;

type Log = (line: string) => void;
interface Measured {
  n: number;
  columns: number;
  full: number[];
  redraw: number[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const worst = (xs: number[]): number => Math.max(...xs);

/** The page entry as one script (an IIFE setting `window.VakChartBench`). */
async function bundle(): Promise<string> {
  const { build } = await import('vite');
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    root: ROOT,
    build: {
      write: false,
      minify: false,
      lib: { entry: join(ROOT, 'bench', 'browser', 'chart-page-entry.ts'), formats: ['iife'], name: 'VakChartBench' },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => ('output' in o ? o.output : []));
  const chunk = outputs.find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('vite built no script');
  return chunk.code;
}

/** Measures the chart's draw in an open browser (the ui bench passes its own). */
export async function measureChartDraw(browser: Browser, log: Log): Promise<void> {
  const script = await bundle();
  const context = await browser.newContext({ viewport: { width: 1500, height: 900 } });
  try {
    const page = await context.newPage();
    await page.setContent('<!doctype html><body></body>');
    await page.addScriptTag({ content: script });
    // A string: the page's globals are not this (Node) program's.
    const run = async (n: number) =>
      (await page.evaluate(`window.VakChartBench.measureChart(${n}, ${WIDTH}, ${HEIGHT}, ${REPEAT})`)) as Measured;
    await run(1000); // warm-up: the JIT compiles the loops once
    const small = await run(1000);
    const big = await run(10_000);
    for (const m of [small, big]) {
      log(
        `  ${m.n.toLocaleString('en-US')} turns → ${m.columns} columns: new series (model + columns + draw) median ${median(m.full).toFixed(1)} ms, worst ${worst(m.full).toFixed(1)} ms · redraw (hover) median ${median(m.redraw).toFixed(1)} ms`,
      );
    }
    const ratio = median(big.full) / Math.max(0.01, median(small.full));
    log(`  10,000 vs 1,000 turns: ${ratio.toFixed(1)}× (columns per pixel keep the draw flat)`);
    log(
      `  target: 10,000 turns under ${TARGET_MS} ms (median of ${REPEAT}; one run may meet a collection or a busy core) → ${median(big.full) < TARGET_MS ? 'ok' : 'MISS'}`,
    );
  } finally {
    await context.close();
  }
}

/** `npm run bench -- chart`: launches Chromium for the chart alone. */
export async function runChartBench(log: Log): Promise<void> {
  const found = findChromiumHere();
  if (!found.found) {
    log(`  (not measured: ${found.message})`);
    return;
  }
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
  try {
    log(`  Chromium ${browser.version()} (headless, software rendering) · canvas ${WIDTH}×${HEIGHT} CSS px`);
    await measureChartDraw(browser, log);
  } finally {
    await browser.close();
  }
}
