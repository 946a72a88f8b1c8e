/**
 * Two builds of the CLI, alternately, on the 100 MB session's first open ("open → the
 * active leaf's panes"): a fresh `serve` process and user data folder per round, open → first
 * rows → the active leaf's panes, as the renderer asks (open → first rows is printed too). On a noisy 2-core machine one run of the
 * real100 bench per build says little; pairs taken minutes apart say more.
 *   node bin/run-ts.mjs bench/ab-first-open.ts ROUNDS before=PATH/vak-explorer.mjs after=PATH/vak-explorer.mjs
 * (a build of another commit: `git worktree add --detach DIR REV`, link node_modules and out/,
 * `node scripts/build-cli.mjs --force` in it). The session is the real100 bench's (run that once).
 * Prints each build's wall times, the serving process's CPU time (all its threads) and its
 * backend thread's own CPU time and wait for a core (thread-times.ts: steadier than wall time
 * here) from open to panes, the time the host took from this machine's CPUs meanwhile (steal),
 * and the paired differences, each later build minus the first. With AB_SECRETS=1, each round
 * then asks `getSecretCounts` every 20 ms until the session's scan is done: open → counts complete
 * (after the panes' figures, so those are not moved by it). With AB_SIZE=1g the session is the 1 GiB
 * one (`ui --size 1g`'s) instead of the 100 MB one, and each round prints the serving process's
 * peak RSS (VmHWM) once its counts are complete (or after the panes).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareReal100 } from './real100-data';
import { procMB } from './real100-serve';
import { prepareEye1g } from './real1g-data';
import { stopServe } from './real100-reopen';
import { openToPanes } from './real100-selection';
import { startApiServe } from './serve-child';
import { describeThreads, sampleThreads, threadFigures } from './thread-times';
import { WsApiClient } from './ws-api-client';

const [roundsArg, ...builds] = process.argv.slice(2);
const rounds = Number(roundsArg);
const variants = builds.map((b) => {
  const at = b.indexOf('=');
  return { name: b.slice(0, at), cli: b.slice(at + 1) };
});
if (!(rounds > 0) || variants.length < 2 || variants.some((v) => !v.name || !v.cli)) {
  console.error('usage: bench/ab-first-open.ts ROUNDS NAME=CLI NAME=CLI [NAME=CLI …]');
  process.exit(2);
}

/** CPU time of a process so far, in ms (Linux /proc, 10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const add = (m: Map<string, number[]>, name: string, v: number): void => void m.set(name, [...(m.get(name) ?? []), v]);

const big = process.env['AB_SIZE'] === '1g';
const data = big ? prepareEye1g((s) => console.log(s)) : prepareReal100((s) => console.log(s));
const wall = new Map<string, number[]>();
const rowsWall = new Map<string, number[]>();
const cpu = new Map<string, number[]>();
const backendCpu = new Map<string, number[]>();
const backendWait = new Map<string, number[]>();
const hostSteal = new Map<string, number[]>();
const secretsDone = new Map<string, number[]>();
const peakRss = new Map<string, number[]>();
const watchSecrets = process.env['AB_SECRETS'] === '1';
for (let r = 0; r < rounds; r++) {
  for (const { name, cli } of variants) {
    process.env['VAK_BENCH_CLI'] = cli;
    const dataDir = mkdtempSync(join(tmpdir(), 'vak-ab-'));
    const server = await startApiServe(data.home, { dataDir, ...(big ? { timeoutMs: 120_000 } : {}) });
    try {
      const c = await WsApiClient.connect(server.url);
      await new Promise((done) => setTimeout(done, 300)); // the process settles after its start
      const pid = server.child.pid ?? 0;
      const c0 = cpuMs(pid);
      const threads0 = sampleThreads(pid);
      const t0 = performance.now();
      let rowsAt = 0;
      await openToPanes(async (m, r) => {
        const v = await c.call(m, r);
        if (m === 'getTreeRows' && rowsAt === 0) rowsAt = performance.now();
        return v;
      }, data.key);
      const ms = Math.round(performance.now() - t0);
      add(rowsWall, name, Math.round(rowsAt - t0));
      const used = cpuMs(pid) - c0;
      const threads = threadFigures(pid, threads0, sampleThreads(pid));
      let secrets = '';
      if (watchSecrets) {
        for (;;) {
          const { sessions } = (await c.call('getSecretCounts', {})).res;
          const mine = sessions.find((x) => x.key === data.key);
          if (mine && !mine.scanning) {
            add(secretsDone, name, Math.round(performance.now() - t0));
            secrets = `, secret counts complete ${Math.round(performance.now() - t0)} ms (${mine.count})`;
            break;
          }
          await new Promise((done) => setTimeout(done, 20));
        }
      }
      if (big) {
        const peak = procMB(pid, 'VmHWM');
        if (peak !== null) add(peakRss, name, Math.round(peak));
        secrets += `, peak RSS ${peak === null ? '—' : Math.round(peak)} MiB`;
      }
      add(wall, name, ms);
      add(cpu, name, used);
      if (threads) {
        add(backendCpu, name, threads.backendCpuMs);
        add(backendWait, name, threads.backendWaitMs);
        if (threads.hostStealMs !== null) add(hostSteal, name, threads.hostStealMs);
      }
      console.log(
        `round ${r + 1} ${name}: open → first rows ${Math.round(rowsAt - t0)} ms, → panes ${ms} ms, CPU ${used} ms; ${describeThreads(threads)}${secrets}`,
      );
      c.close();
    } finally {
      await stopServe(server.child);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
for (const [label, m] of [
  ['open → first rows', rowsWall],
  ['open → panes', wall],
  ['CPU', cpu],
  ['backend thread CPU', backendCpu],
  ['backend thread wait', backendWait],
  ['host steal (both cores)', hostSteal],
  ['open → secret counts complete', secretsDone],
  ['peak RSS (MiB)', peakRss],
] as const) {
  for (const { name } of variants) {
    const v = m.get(name) ?? [];
    console.log(`${label} ${name}: ${[...v].sort((a, b) => a - b).join(' ')} (median ${median(v)} ms)`);
  }
  const [a, ...others] = variants.map((v) => m.get(v.name) ?? []);
  if (a.length === 0) continue;
  others.forEach((b, k) => {
    const diff = a.map((x, r) => b[r] - x);
    console.log(`${label} ${variants[k + 1].name} − ${variants[0].name}, paired: median ${median(diff)} ms`);
  });
}
