// One measurement in its own process, so peak RSS belongs to it alone:
//   node bin/run-ts.mjs bench/open-one.ts ours|baseline FILE
import { Ledger } from '../src/main/core/ledger';
import { baselineRead } from './baseline-read';

const [mode, file] = process.argv.slice(2);
const rssBefore = process.resourceUsage().maxRSS;
const t0 = performance.now();
let entries: number;
if (mode === 'baseline') entries = baselineRead(file).lines;
else {
  const l = await Ledger.open(file);
  entries = l.index.count;
  l.close();
}
const ms = performance.now() - t0;
console.log(
  JSON.stringify({ mode, ms, entries, maxRssMB: process.resourceUsage().maxRSS / 1024, startRssMB: rssBefore / 1024 }),
);
