// npm run bench — speed, as ratios and targets measured in one run (never in unit tests).
//   npm run bench                 everything
//   npm run bench -- core         only the ledger core (open / append / project)
//   npm run bench -- cli          the built command: start-up vs node -e 0, verify 100 MB vs the baseline
//   npm run bench -- cli-stream   the built command on 1 GiB: verify vs project --json and export (time, RSS)
//   npm run bench -- ui           at the eye: the 100 MB session in Chromium (--size 1g, --app DIR, --runs N;
//                                 --1m the 1M-entry session's scroll and clicks, --panes the 2M-row panes)
//   npm run bench -- real100      the 100 MB session (serve mode, event-loop delay, memory)
//   npm run bench -- memory       memory on the 1M-entry session (serve mode)
//   npm run bench -- chart        the context chart's draw, 10,000 turns in Chromium
//   npm run bench -- series       context over time on a 10,000-turn chain
//   npm run bench -- fate         an entry's fate and search in what the model saw, on the 100 MB session
//   npm run bench -- search       full-text search over ~1 GB of ledgers
//   npm run bench -- --sizes 10,100   smaller ledgers (the default is 10,100,500)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { benchAppend, benchBranchLock, benchOpen, benchProject } from './core-bench';

const args = process.argv.slice(2);
const only = args.find((a) => !a.startsWith('--') && !/^\d/.test(a));
const sizesArg = args.indexOf('--sizes');
const sizes = sizesArg >= 0 ? args[sizesArg + 1].split(',').map(Number) : [10, 100, 500];
const log = (s: string): void => console.log(s);
const want = (part: string): boolean => only === undefined || only === part;

log(`vak-explorer bench · node ${process.version} · ${new Date().toISOString()}`);
if (want('core')) {
  log('\n== ledger core');
  benchOpen(sizes, log);
  await benchAppend(log);
  await benchProject(log);
  await benchBranchLock([100, 400], log);
}
for (const [part, file, fn] of [
  ['library', 'library-bench.ts', 'runLibraryBench'],
  ['ui', 'ui-bench.ts', 'runUiBench'],
  ['chart', 'chart-bench.ts', 'runChartBench'],
  ['cli', 'cli-bench.ts', 'runCliBench'],
  ['cli-stream', 'cli-stream-bench.ts', 'runCliStreamBench'],
  ['series', 'series-bench.ts', 'runSeriesBench'],
  ['fate', 'fate-bench.ts', 'runFateBench'],
  ['search', 'search-bench.ts', 'runSearchBench'],
  ['real100', 'real100-bench.ts', 'runReal100Bench'],
  ['memory', 'memory-bench.ts', 'runMemoryBench'],
] as const) {
  if (!want(part)) continue;
  const path = join(import.meta.dirname, file);
  log(`\n== ${part}`);
  if (!existsSync(path)) {
    log(`  (not measured: ${file} is not there yet)`);
    continue;
  }
  const mod = (await import(path)) as Record<string, (log: (s: string) => void) => Promise<void>>;
  await mod[fn](log);
}
