/**
 * Five quick `j` on the backend, in one process (no socket, no page): the backend as the worker
 * creates it, the session opened and read whole, the active leaf's view asked first (as the app
 * opens). Then, at leaves spread down the active chain, the view of leaf i (the one on screen),
 * then of i+5 (the app's 5th key: the four before are cancelled), a deeper leaf of the same chain
 * kept (the active one); and, 10 entries further, every key i+1 … i+5 answered in turn, each timed.
 * Also timed: the view of leaf i itself (a click at the next place) and each way back to the active
 * leaf (the End key) after keys elsewhere. PROFILE, when given, gets a CPU profile of the keys.
 *   node bin/run-ts.mjs bench/jfive-in-process.ts HOME.json [SEQUENCES] [PROFILE.cpuprofile]
 * HOME.json: bench/.data/eye-1g-home.json (1 GiB) or bench/.data/real100-home.json (100 MB).
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { ChainItems, LeafView } from '../src/shared/api';
import { real100InProcess } from './real100-in-process';
import { leafRequest } from './real100-selection';

const sequences = Number(process.argv[3] ?? 12);
const prof = process.argv[4];
// (The home's description is read from bench/.data by its name.)
const { backend, client, key } = await real100InProcess({ firstReadBytes: Infinity }, basename(process.argv[2]));
/** The screen the page asks for in a 1600×1000 window (the bench's), as leaf-screen.ts sizes it. */
const screen = { chainRows: Math.ceil(1000 / 22) + 12, messages: Math.ceil(1000 / 40) + 6 };
const view = async (leaf: string | null): Promise<LeafView> =>
  (await backend.call('getLeafView', { ...leafRequest(key, leaf), pagedMessages: true, screen }, client)) as LeafView;
const t0 = performance.now();
await backend.call('openSession', { key }, client);
const active = await view(null);
console.log(`open + active view ${(performance.now() - t0).toFixed(0)} ms, chain ${active.chainLength}`);
const idAt = async (pos: number): Promise<string> => {
  const page = (await backend.call(
    'getChainItems',
    { ...leafRequest(key, null), start: pos, count: 1 },
    client,
  )) as ChainItems;
  return page.items[0].id;
};
const ins = new Session();
if (prof) {
  ins.connect();
  await ins.post('Profiler.enable');
  await ins.post('Profiler.setSamplingInterval', { interval: 200 });
  await ins.post('Profiler.start');
}
const fifth: number[] = [];
const keys: number[] = [];
/** A leaf at the next place (a click there: the active leaf and the last place's leaves kept), timed. */
const jumps: number[] = [];
/** Back to the active leaf (the End key) after keys elsewhere: its view, timed. */
const back: number[] = [];
const backToActive = async (): Promise<void> => {
  const t = performance.now();
  await view(null);
  back.push(performance.now() - t);
};
for (let k = 0; k < sequences; k++) {
  const pos = Math.floor(((k + 0.5) / sequences) * (active.chainLength - 20));
  const ids: string[] = [];
  for (let j = 0; j <= 15; j++) ids.push(await idAt(pos + j));
  // The 5th key as the app asks it: the four before it cancelled, the leaf shown (i) and a deeper
  // leaf of the same chain (the active one, or another click) kept.
  await backToActive();
  let t = performance.now();
  await view(ids[0]);
  jumps.push(performance.now() - t);
  t = performance.now();
  await view(ids[5]);
  fifth.push(performance.now() - t);
  // Every key answered, 10 entries further down (the same kept leaves first).
  await backToActive();
  await view(ids[10]);
  const ms: number[] = [];
  for (let j = 11; j <= 15; j++) {
    t = performance.now();
    await view(ids[j]);
    ms.push(performance.now() - t);
  }
  keys.push(...ms);
  console.log(`pos ${pos}: 5th ${fifth[k].toFixed(1)} ms; keys ${ms.map((m) => m.toFixed(1)).join(' ')} ms`);
}
if (prof) writeFileSync(prof, JSON.stringify((await ins.post('Profiler.stop')).profile));
const p = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))];
console.log(
  `per key p50 ${p(keys, 0.5).toFixed(1)} / max ${p(keys, 1).toFixed(1)} ms; 5th p50 ${p(fifth, 0.5).toFixed(1)} / max ${p(fifth, 1).toFixed(1)} ms; ` +
    `back to the active leaf p50 ${p(back, 0.5).toFixed(1)} / max ${p(back, 1).toFixed(1)} ms; ` +
    `a click at the next place p50 ${p(jumps, 0.5).toFixed(1)} / max ${p(jumps, 1).toFixed(1)} ms`,
);
await backend.close();
