// npm run bench -- series: context over time on a 10,000-turn chain.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateSession } from '../src/generator';
import { contextSeries } from '../src/main/api/context-series';
import { Ledger } from '../src/main/core/ledger';
import { project } from '../src/main/core/projection';

const DATA = join(import.meta.dirname, '.data');
const TURNS = 10_000;

/** A single-chain session of about TURNS turns (small tool results: the cost measured is per turn). */
function tenThousandTurns(log: (s: string) => void): string {
  mkdirSync(DATA, { recursive: true });
  const path = join(DATA, `series-${TURNS}-turns.jsonl`);
  if (!existsSync(path)) {
    log(`  generating ${path} …`);
    // About 8.5 entries per turn with these options (measured on the generator).
    generateSession({
      seed: 1011,
      entries: Math.round(TURNS * 8.5),
      cwd: '/home/ana/projects/vak',
      branchChance: 0,
      toolResultBytes: [300, 1200],
      bigLines: false,
      path,
    });
  }
  return path;
}

const ms = (t0: number): number => performance.now() - t0;

export async function runSeriesBench(log: (s: string) => void): Promise<void> {
  const file = tenThousandTurns(log);
  const ledger = await Ledger.open(file);
  const leaf = ledger.index.activeLeaf;
  const profile = { window: 200_000, reserve: 16_000, bytes_per_token: 4 };
  let t0 = performance.now();
  project(ledger, leaf, { plan: 'auto', profile });
  const oneProjection = ms(t0);
  // The floor: every entry of the chain parsed once by the core (the series must cost each turn).
  t0 = performance.now();
  for (let i = 0; i < ledger.index.count; i++) ledger.entry(i);
  const parseAll = ms(t0);
  t0 = performance.now();
  const cold = contextSeries(ledger, leaf, { key: 'bench', leaf: null, plan: 'auto', profile });
  const coldMs = ms(t0);
  log(
    `  ${ledger.index.count} entries, ${cold.points.length} points (${cold.points.filter((p) => p.measured).length} measured); ` +
      `one projection of the leaf ${oneProjection.toFixed(0)} ms; core parse of every entry ${parseAll.toFixed(0)} ms`,
  );
  log(
    `  series, first call (scans the chain): ${coldMs.toFixed(0)} ms = ${(coldMs / parseAll).toFixed(2)}× the parse of every entry`,
  );
  for (const [label, plan, window] of [
    ['auto, other window', 'auto', 120_000],
    ['none', 'none', 200_000],
  ] as const) {
    const runs: number[] = [];
    for (let k = 0; k < 3; k++) {
      t0 = performance.now();
      contextSeries(ledger, leaf, { key: 'bench', leaf: null, plan, profile: { ...profile, window: window + k } });
      runs.push(ms(t0));
    }
    const best = Math.min(...runs);
    log(`  series again, plan ${label} (kept scan): ${best.toFixed(0)} ms best of 3 (target < 500 ms)`);
  }
  // Overrides: every point plans them first (the same typed-array plan).
  const s0 = contextSeries(ledger, leaf, { key: 'bench', leaf: null, plan: 'auto', profile });
  const some = s0.points.find((p) => p.turnId && p.turns.full > 0);
  if (some?.turnId) {
    t0 = performance.now();
    const s = contextSeries(ledger, leaf, {
      key: 'bench',
      leaf: null,
      plan: 'auto',
      profile,
      overrides: { [some.turnId]: { fidelity: 'full' } },
    });
    log(`  series with one override (kept scan): ${ms(t0).toFixed(0)} ms, ${s.work.projections} projections`);
  }
  ledger.close();
}
