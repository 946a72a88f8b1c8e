/**
 * The active chain's work fold at a first read's end, from the reader's notes (work-notes.ts)
 * against reading and parsing every work entry's line again (as before them), on one session read
 * whole as a first open reads it. In process, three rounds, each on a freshly read ledger.
 *   node bin/run-ts.mjs bench/work-fold-time.ts SESSION.jsonl
 */
import { Ledger } from '../src/main/core/ledger';
import { chainToRoot } from '../src/main/core/chain';
import { KIND } from '../src/main/core/ledger-index';
import { foldWork } from '../src/main/core/work-fold';
const f = process.argv[2];
if (!f) {
  console.error(
    'usage: bench/work-fold-time.ts SESSION.jsonl (the real100 bench session: bench/.data/real100-home.json)',
  );
  process.exit(2);
}
for (let r = 0; r < 3; r++) {
  const l = Ledger.openSync(f, { noteFullCosts: 4 });
  const chain = chainToRoot(l.index, l.index.activeLeaf);
  const work = chain.filter((i) => l.index.kind[i] === KIND.work).length;
  let t = performance.now();
  const a = foldWork(l, chain);
  const notes = performance.now() - t;
  const orig = l.workEvent.bind(l);
  l.workEvent = (i: number) => {
    const e = l.entry(i);
    return e.kind === 'work' ? { ts: e.ts, work: e.work } : null;
  };
  t = performance.now();
  const b = foldWork(l, chain);
  const lines = performance.now() - t;
  l.workEvent = orig;
  console.log(
    `round ${r}: chain ${chain.length}, work ${work}, items ${a.length}; fold from notes ${notes.toFixed(1)} ms, from lines (as before) ${lines.toFixed(1)} ms, same ${JSON.stringify(a) === JSON.stringify(b)}`,
  );
  l.close();
}
