// npm run bench -- fate: an entry's fate and search in what the model saw, on the 100 MB session.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { contextSeries } from '../src/main/api/context-series';
import { entryFateOf, projectedSearchOf } from '../src/main/api/entry-fate-handler';
import { atOnce } from '../src/main/core/cancel';
import { chainToRoot } from '../src/main/core/chain';
import { Ledger } from '../src/main/core/ledger';
import { F_MESSAGE, F_USER } from '../src/main/core/ledger-index';
import { prepareReal100 } from './real100-data';

const ms = (t0: number): number => performance.now() - t0;

/** Median of `n` runs of `f`, in ms. */
function median(n: number, f: () => void): number {
  const t: number[] = [];
  for (let k = 0; k < n; k++) {
    const t0 = performance.now();
    f();
    t.push(ms(t0));
  }
  return t.sort((a, b) => a - b)[Math.floor(n / 2)];
}

export async function runFateBench(log: (s: string) => void): Promise<void> {
  const r = prepareReal100(log);
  const ledger = await Ledger.open(join(r.home, r.key));
  const leaf = ledger.index.activeLeaf;
  const chain = chainToRoot(ledger.index, leaf);
  const firstDirective = chain.find((i) => (ledger.index.flags[i] & (F_MESSAGE | F_USER)) === (F_MESSAGE | F_USER))!;
  const middle = chain[Math.floor(chain.length / 2)];
  const profile = { window: 200_000, reserve: 16_000, bytes_per_token: 4 };
  const req = { key: 'bench', leaf: null, plan: 'auto' as const, profile };
  const fateOf = (i: number) => atOnce(entryFateOf(ledger, leaf, { ...req, entry: ledger.index.ids[i] }));

  // Cold: no chart drawn yet, so the fate scans every turn of the chain (the chart's scan, then kept).
  let t0 = performance.now();
  const cold = fateOf(firstDirective);
  const coldMs = ms(t0);
  log(
    `  ${(r.bytes / 1e6).toFixed(0)} MB, ${ledger.index.count} entries, chain ${chain.length}; ` +
      `fate of the first directive over ${cold.rows.length} turn ends, first call (scans the chain): ${coldMs.toFixed(0)} ms`,
  );
  // Warm: the per-turn costs are kept (as after the chart was drawn).
  t0 = performance.now();
  contextSeries(ledger, leaf, req);
  log(`  the context chart's series on the kept scan, for comparison: ${ms(t0).toFixed(0)} ms`);
  const warmFirst = median(5, () => fateOf(firstDirective));
  const warmMiddle = median(5, () => fateOf(middle));
  log(
    `  fate, per-turn costs kept: first directive (${cold.rows.length} turn ends) ${warmFirst.toFixed(0)} ms · ` +
      `an entry half way (${fateOf(middle).rows.length} turn ends) ${warmMiddle.toFixed(0)} ms · target ≤ 500 ms`,
  );
  const tight = median(3, () =>
    atOnce(
      entryFateOf(ledger, leaf, {
        ...req,
        profile: { ...profile, window: 60_000 },
        entry: ledger.index.ids[firstDirective],
      }),
    ),
  );
  log(`  fate under another window (60,000: the plan differs, the scan is the same): ${tight.toFixed(0)} ms`);
  for (const [query, across] of [
    ['estimate_tokens', 'turn-ends'],
    ['estimate_tokens', 'leaf'],
  ] as const) {
    t0 = performance.now();
    const s = atOnce(projectedSearchOf(ledger, leaf, { ...req, query, across, limit: 200 }));
    log(
      `  search in what the model saw, "${query}" ${across === 'leaf' ? 'at the leaf' : 'across every turn end'}: ` +
        `${ms(t0).toFixed(0)} ms, ${s.hits.length} hits${s.truncated ? ' (first 200 entries)' : ''}`,
    );
  }
  ledger.close();
}
