/**
 * `npm run bench -- cli-stream`: the built command on the 1 GiB session (bench/real1g-data.ts):
 * `verify --json` vs `project --json` of the active leaf (stdout to a file) and `export --format json`,
 * each a whole process under /usr/bin/time -v: wall time, CPU time (user + system) and peak RSS.
 * Goals: project --json ≤ 2× verify's time, RSS ≤ 300 MB. On a shared machine compare the CPU
 * times; wall times follow the load.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../scripts/build-cli.mjs';
import { ROOT } from '../src/test-support/serve-process';
import { prepareReal1g } from './real1g-data';

const BIN = join(ROOT, 'bin', 'vak-explorer.mjs');
const TIME = '/usr/bin/time';
const GOAL = { ratio: 2, rssMb: 300 };

interface Run {
  wallS: number;
  cpuS: number;
  rssMb: number;
}

/** One process of the built command under GNU time; stdout into `out`. */
function measured(args: string[], out: string): Run {
  const r = spawnSync('bash', ['-c', `"$0" -f '%e %U %S %M' "$@" > "${out}"`, TIME, process.execPath, BIN, ...args], {
    encoding: 'utf8',
  });
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  const [wall, user, sys, kb] = last.split(' ').map(Number);
  if (![wall, user, sys, kb].every(Number.isFinite)) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { wallS: wall, cpuS: user + sys, rssMb: kb / 1024 };
}

const f = (n: number, d = 1): string => n.toFixed(d);

export async function runCliStreamBench(log: (s: string) => void): Promise<void> {
  if (!existsSync(TIME)) {
    log(`  (not measured: ${TIME} is not installed; apt-get install time)`);
    return;
  }
  if (await buildCli({ quiet: true })) log('  (built the CLI first: dist/cli was older than its sources)');
  const big = prepareReal1g(log);
  const dir = mkdtempSync(join(tmpdir(), 'vak-cli-stream-'));
  try {
    measured(['verify', big, '--json'], join(dir, 'warm.json')); // page cache warm for all
    const verify = measured(['verify', big, '--json'], join(dir, 'verify.json'));
    const project = measured(['project', big, '--json'], join(dir, 'project.json'));
    const exported = measured(['export', big, '--format', 'json'], join(dir, 'export.json'));
    const mb = (p: string): string => f(statSync(join(dir, p)).size / (1 << 20));
    log(`  ${f(statSync(big).size / (1 << 30), 2)} GiB session`);
    const row = (what: string, r: Run, extra = ''): void =>
      log(`  ${what.padEnd(26)} ${f(r.wallS)} s wall, ${f(r.cpuS)} s CPU, peak RSS ${f(r.rssMb, 0)} MB${extra}`);
    row('verify --json', verify);
    row('project --json', project, ` → ${mb('project.json')} MiB`);
    row('export --format json', exported, ` → ${mb('export.json')} MiB`);
    const ratio = project.cpuS / verify.cpuS;
    log(
      `  project --json / verify (CPU): ${f(ratio, 2)}× — goal ≤ ${GOAL.ratio}×${ratio <= GOAL.ratio ? ' ✓' : ' ✗'}; ` +
        `RSS ${f(project.rssMb, 0)} MB — goal ≤ ${GOAL.rssMb} MB${project.rssMb <= GOAL.rssMb ? ' ✓' : ' ✗'}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
