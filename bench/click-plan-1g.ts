// A click's backend work on a long chain, in one process (no socket, no page): the active leaf's view,
// then 20 leaves spread down its chain as the ui bench clicks them, each a leaf view and a window of
// plan turns, timed one by one. PROFILE, when given, gets a CPU profile of the clicks alone.
//   node bin/run-ts.mjs bench/click-plan-1g.ts FILE [PROFILE.cpuprofile]
// FILE: the `-- ui --size 1g` session (bench/.data/eye-1g-home/agents/…/*.jsonl).
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { Ledger } from '../src/main/core/ledger';
import { chainToRoot } from '../src/main/core/chain';
import { leafView } from '../src/main/api/leaf-view';
import { planTurns } from '../src/main/api/plan-turns';
import { DEFAULT_PROFILE } from '../src/main/core/tokens';
import type { OpenSession } from '../src/main/library/session-cache';

const file = process.argv[2];
const t0 = performance.now();
const ledger = await Ledger.open(file);
console.log(
  `open ${(performance.now() - t0).toFixed(0)} ms, ${ledger.index.count} entries, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
);
const s = { ledger, key: 'k' } as unknown as OpenSession;
const chain = chainToRoot(ledger.index, ledger.index.activeLeaf);
const base = { key: 'k', plan: 'auto' as const, profile: DEFAULT_PROFILE, overrides: {} };
leafView(s, { ...base, leaf: null, pagedMessages: true });
const ins = new Session();
const prof = process.argv[3];
if (prof) {
  ins.connect();
  await ins.post('Profiler.enable');
  await ins.post('Profiler.setSamplingInterval', { interval: 200 });
  await ins.post('Profiler.start');
}
const ms: number[] = [];
for (let k = 0; k < 20; k++) {
  const pos = Math.floor(((k + 0.5) / 20) * (chain.length - 1));
  const id = ledger.index.ids[chain[pos]];
  const t = performance.now();
  leafView(s, { ...base, leaf: id, pagedMessages: true });
  const t1 = performance.now();
  planTurns(s, { ...base, leaf: id, start: 0, count: 40 });
  const t2 = performance.now();
  ms.push(t2 - t);
  console.log(`pos ${pos}: view ${(t1 - t).toFixed(1)} ms, turns ${(t2 - t1).toFixed(1)} ms`);
}
if (prof) writeFileSync(prof, JSON.stringify((await ins.post('Profiler.stop')).profile));
ms.sort((a, b) => a - b);
console.log(`p50 ${ms[10].toFixed(1)} ms`);
