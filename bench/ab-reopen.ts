/**
 * Two builds of the CLI, alternately, on the 100 MB session's second open ("second open
 * of the same file ≤ 200 ms"): each build first opens the session once in a serve process of its
 * own to keep its index (a user data folder per build), then, per round, a fresh `serve` process
 * opens it from that kept index → first rows (openSession + the first 256 tree rows), then the
 * active leaf's panes. Alternating, and the order swapped every round: on a noisy 2-core machine one
 * run per build says little.
 *   node bin/run-ts.mjs bench/ab-reopen.ts ROUNDS before=PATH/vak-explorer.mjs after=PATH/vak-explorer.mjs
 * (a build of another commit: see bench/ab-first-open.ts). The session is the real100 bench's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareReal100 } from './real100-data';
import { freshOpen } from './real100-reopen';

const [roundsArg, ...builds] = process.argv.slice(2);
const rounds = Number(roundsArg);
const variants = builds.map((b) => {
  const at = b.indexOf('=');
  return { name: b.slice(0, at), cli: b.slice(at + 1), rows: [] as number[], panes: [] as number[], dataDir: '' };
});
if (!(rounds > 0) || variants.length !== 2 || variants.some((v) => !v.name || !v.cli)) {
  console.error('usage: bench/ab-reopen.ts ROUNDS NAME=CLI NAME=CLI');
  process.exit(2);
}

const data = prepareReal100((s) => console.log(s));
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
try {
  for (const v of variants) {
    v.dataDir = mkdtempSync(join(tmpdir(), 'vak-ab-reopen-'));
    process.env['VAK_BENCH_CLI'] = v.cli;
    await freshOpen(data.home, data.key, { dataDir: v.dataDir }); // reads whole, keeps the index
  }
  for (let r = 0; r < rounds; r++) {
    for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
      process.env['VAK_BENCH_CLI'] = v.cli;
      const o = await freshOpen(data.home, data.key, { dataDir: v.dataDir });
      v.rows.push(Math.round(o.firstRowsMs));
      v.panes.push(Math.round(o.activeLeafMs));
      console.log(`round ${r + 1} ${v.name}: first rows ${v.rows.at(-1)} ms, then the panes +${v.panes.at(-1)} ms`);
    }
  }
  for (const label of ['rows', 'panes'] as const) {
    for (const v of variants) {
      const xs = v[label];
      console.log(`${label} ${v.name}: ${[...xs].sort((a, b) => a - b).join(' ')} (median ${median(xs)} ms)`);
    }
    const [a, b] = variants.map((v) => v[label]);
    console.log(
      `${label} ${variants[1].name} − ${variants[0].name}, paired: median ${median(a.map((x, k) => b[k] - x))} ms`,
    );
  }
} finally {
  for (const v of variants) if (v.dataDir) rmSync(v.dataDir, { recursive: true, force: true });
}
