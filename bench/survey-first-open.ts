/**
 * The secret survey's cost to the foreground: a first open of the 100 MB session ("open → the
 * active leaf's panes", as bench/ab-first-open.ts measures it) with the survey running and with
 * it off (`serve --no-secret-survey`), alternately, a fresh `serve` and user data folder per round.
 *   node bin/run-ts.mjs bench/survey-first-open.ts ROUNDS   (this checkout's built CLI)
 * The home holds the 100 MB session and a second, never opened one (a hard link to the same
 * file under another session id), so the survey is mid-way through a big file when the open
 * comes: each round waits SETTLE_MS after the start (the survey starts after 3 s) before it
 * opens. Also prints the process's CPU during that wait (the survey's share of a core) and,
 * after the open, what getSecretCounts says (the survey was running, and left the open session).
 */
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startServe } from '../src/test-support/serve-process';
import { prepareReal100 } from './real100-data';
import { stopServe } from './real100-reopen';
import { openToPanes } from './real100-selection';
import { describeThreads, sampleThreads, threadFigures } from './thread-times';
import { WsApiClient } from './ws-api-client';

const SETTLE_MS = 6000;

const statesOf = (list: { key: string; state: string; count: number }[], opened: string): string =>
  list.map((s) => `${s.key === opened ? 'target' : 'other'}=${s.state}:${s.count}`).join(' ');
const rounds = Number(process.argv[2]);
if (!(rounds > 0)) {
  console.error('usage: bench/survey-first-open.ts ROUNDS');
  process.exit(2);
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const data = prepareReal100((s) => console.log(s));
const home = mkdtempSync(join(tmpdir(), 'vak-survey-home-'));
const target = join(home, data.key);
mkdirSync(dirname(target), { recursive: true });
linkSync(join(data.home, data.key), target);
const otherKey = data.key.replace(/[0-9a-f]{4}\.jsonl$/, 'ffff.jsonl');
linkSync(join(data.home, data.key), join(home, otherKey));

const variants = [
  { name: 'off', args: ['--no-secret-survey'] },
  { name: 'on', args: [] as string[] },
];
const wall = new Map<string, number[]>();
const add = (name: string, v: number): void => void wall.set(name, [...(wall.get(name) ?? []), v]);
try {
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const dataDir = mkdtempSync(join(tmpdir(), 'vak-survey-data-'));
      const env = { ...process.env, XDG_DATA_HOME: dataDir };
      const server = await startServe(home, 60_000, env, v.args);
      try {
        const c = await WsApiClient.connect(server.url);
        const pid = server.child.pid ?? 0;
        const idle0 = cpuMs(pid);
        // What the survey is doing 1 s before the open (the survey rests 300 ms after this call).
        await new Promise((done) => setTimeout(done, SETTLE_MS - 1000));
        const before = statesOf((await c.call('getSecretCounts', {})).res.sessions, data.key);
        await new Promise((done) => setTimeout(done, 1000));
        const idleCpu = cpuMs(pid) - idle0;
        const c0 = cpuMs(pid);
        const threads0 = sampleThreads(pid);
        const t0 = performance.now();
        await openToPanes((m, r) => c.call(m, r), data.key);
        const ms = Math.round(performance.now() - t0);
        const used = cpuMs(pid) - c0;
        const threads = threadFigures(pid, threads0, sampleThreads(pid));
        const after = statesOf((await c.call('getSecretCounts', {})).res.sessions, data.key);
        add(v.name, ms);
        console.log(
          `round ${r + 1} ${v.name}: open → panes ${ms} ms, CPU ${used} ms; CPU in the ${SETTLE_MS} ms before: ${idleCpu} ms; ` +
            `counts 1 s before: ${before}, after: ${after}; ${describeThreads(threads)}`,
        );
        c.close();
      } finally {
        await stopServe(server.child);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
for (const v of variants) {
  const x = wall.get(v.name) ?? [];
  console.log(`open → panes ${v.name}: ${[...x].sort((a, b) => a - b).join(' ')} (median ${median(x)} ms)`);
}
const off = wall.get('off') ?? [];
const diff = (wall.get('on') ?? []).map((x, r) => x - off[r]);
console.log(`open → panes on − off, paired: ${diff.join(' ')} (median ${median(diff)} ms)`);
