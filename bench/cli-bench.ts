/**
 * `npm run bench -- cli`: the built command as users run it ("The CLI is built").
 *   · start-up: `vak-explorer verify TINY --json` vs `node -e 0` (goal: < 100 ms over it)
 *   · `vak-explorer verify` of the 100 MB session as a whole process vs the one-pass baseline
 *     (bench/baseline-read.ts) as a whole process (goal: ≤ 1.1×)
 * Both sides of each ratio are plain-Node processes started the same way, interleaved.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { buildCli } from '../scripts/build-cli.mjs';
import { generateSession, realSizeUncompacted } from '../src/generator';
import { FIXTURES } from '../src/test-support/fixtures';
import { ROOT } from '../src/test-support/serve-process';

const DATA = join(ROOT, 'bench', '.data');
const BIN = join(ROOT, 'bin', 'vak-explorer.mjs');
const MB = 1 << 20;
const TARGET = { startupOverMs: 100, verifyRatio: 1.1 };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (n: number, d = 1): string => n.toFixed(d);

/** Wall time of one process, in ms; throws when it fails. */
function timed(args: string[], okCodes = [0]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status === null || !okCodes.includes(r.status)) {
    throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  return ms;
}

/** The 100 MB shape, generated once into bench/.data. */
function ledger100(log: (s: string) => void): string {
  const path = join(DATA, 'cli-real100.jsonl');
  if (existsSync(path) && statSync(path).size > 90 * MB) return path;
  mkdirSync(DATA, { recursive: true });
  log('  generating the 100 MB session (realSizeUncompacted) …');
  const partial = `${path}.partial`;
  generateSession(realSizeUncompacted(partial));
  renameSync(partial, path);
  return path;
}

/** The baseline as a plain .mjs (transpiled once), so it starts like the built CLI does. */
function baselineScript(): string {
  const out = join(DATA, 'baseline-read.mjs');
  const src = readFileSync(join(ROOT, 'bench', 'baseline-read.ts'), 'utf8');
  const js = ts.transpileModule(src, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  mkdirSync(DATA, { recursive: true });
  writeFileSync(out, `${js}\nconsole.log(JSON.stringify(baselineRead(process.argv[2])));\n`);
  return out;
}

export async function runCliBench(log: (s: string) => void): Promise<void> {
  if (await buildCli({ quiet: true })) log('  (built the CLI first: dist/cli was older than its sources)');
  const tiny = join(FIXTURES, 'linear.jsonl');

  const RUNS = 15;
  const node0: number[] = [];
  const cli: number[] = [];
  timed(['-e', '0']); // warm the file cache for both
  timed([BIN, 'verify', tiny, '--json']);
  for (let k = 0; k < RUNS; k++) {
    node0.push(timed(['-e', '0']));
    cli.push(timed([BIN, 'verify', tiny, '--json']));
  }
  const over = median(cli) - median(node0);
  log(
    `  start-up: verify of a ${statSync(tiny).size} B ledger ${f(median(cli))} ms vs node -e 0 ${f(median(node0))} ms` +
      ` (median of ${RUNS}): +${f(over)} ms, ${f(median(cli) / median(node0), 2)}× — goal < +${TARGET.startupOverMs} ms` +
      (over < TARGET.startupOverMs ? ' ✓' : ' ✗'),
  );

  const big = ledger100(log);
  const baseline = baselineScript();
  const ours: number[] = [];
  const base: number[] = [];
  timed([baseline, big]); // page cache warm for both
  for (let k = 0; k < 5; k++) {
    base.push(timed([baseline, big]));
    ours.push(timed([BIN, 'verify', big, '--json'], [0, 1]));
  }
  const ratio = median(ours) / median(base);
  log(
    `  verify ${f(statSync(big).size / MB)} MiB as a whole process: ${f(median(ours), 0)} ms vs the one-pass baseline ` +
      `${f(median(base), 0)} ms (median of 5): ${f(ratio, 2)}× — goal ≤ ${TARGET.verifyRatio}×` +
      (ratio <= TARGET.verifyRatio ? ' ✓' : ' ✗'),
  );
}
