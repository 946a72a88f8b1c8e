/**
 * Library and live-update speed, for `npm run bench`:
 * (a) an append by another process → session event at an API subscriber: median and p95;
 * (b) listing a home of 3,000 sessions (copies of the demo home): time and bytes read.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, linkSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiEvent } from '../src/shared/api';
import { scanHome } from '../src/main/core/home';
import { ExplorerBackend } from '../src/main/api/explorer-backend';
import { SessionLibrary } from '../src/main/library/session-library';

const DEMO = fileURLToPath(new URL('../resources/demo-home', import.meta.url));
const APPENDS = 50;
const SESSIONS = 3000;

const now = (): number => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const verdict = (ok: boolean): string => (ok ? 'ok' : 'MISSED');

/**
 * The appending process: on each line of stdin it appends one valid entry (hash-linked
 * to the file's last line) and prints the entry id and its wall-clock time just before
 * the write, so node's start-up is not in the figure.
 */
const APPENDER = `
const fs = require('fs'), crypto = require('crypto');
const path = process.argv[1];
const text = fs.readFileSync(path, 'utf8').replace(/\\n$/, '');
let last = text.slice(text.lastIndexOf('\\n') + 1);
let parent = JSON.parse(last).id, k = 0;
require('readline').createInterface({ input: process.stdin }).on('line', () => {
  const id = 'bench-' + process.pid + '-' + (++k);
  const line = JSON.stringify({ id, parent_id: parent, ts: new Date().toISOString(),
    prev_hash: crypto.createHash('sha256').update(last).digest('hex'), kind: 'message',
    message: { role: 'user', content: [{ type: 'text', text: 'bench append ' + k }] } });
  const t = performance.timeOrigin + performance.now();
  fs.appendFileSync(path, line + '\\n');
  last = line; parent = id;
  process.stdout.write(id + ' ' + t + '\\n');
});`;

async function appendLatency(log: (line: string) => void, root: string): Promise<void> {
  const home = join(root, 'append-home');
  cpSync(DEMO, home, { recursive: true });
  const key = scanHome(home)
    .map((f) => ({ f, size: statSync(f.path).size }))
    .sort((a, b) => b.size - a.size)[0].f.key;
  const backend = await ExplorerBackend.create({ home, isDemo: false, label: 'bench', lockPollMs: 0 });
  const arrived = new Map<string, number>();
  const client = {
    id: 'bench',
    push(e: ApiEvent) {
      if (e.type === 'session' && e.change === 'appended') for (const id of e.newIds) arrived.set(id, now());
    },
  };
  await backend.call('subscribe', { topic: 'session', key }, client);
  const child = spawn(process.execPath, ['-e', APPENDER, join(home, key)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const written = new Map<string, number>();
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const [id, t] = buf.slice(0, nl).split(' ');
      written.set(id, Number(t));
      buf = buf.slice(nl + 1);
    }
  });
  const lat: number[] = [];
  try {
    for (let k = 1; k <= APPENDS; k++) {
      const before = written.size;
      child.stdin.write('go\n');
      const end = Date.now() + 5000;
      let id: string | undefined;
      while (Date.now() < end) {
        id = written.size > before ? [...written.keys()][written.size - 1] : undefined;
        if (id !== undefined && arrived.has(id)) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      if (id === undefined || !arrived.has(id)) throw new Error(`append ${k}: no event within 5 s`);
      lat.push(arrived.get(id)! - written.get(id)!);
      await new Promise((r) => setTimeout(r, 20)); // appends apart, as an agent writes them
    }
  } finally {
    child.kill();
    await backend.close();
  }
  const med = pct(lat, 50);
  const p95 = pct(lat, 95);
  log(
    `append → event (another process, ${APPENDS} appends): median ${med.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms ` +
      `(target < 50 ms: ${verdict(p95 < 50)})`,
  );
}

/** A home of `n` sessions: the demo home's files again and again, under agents named apart. */
function bigHome(dir: string, n: number): { files: number; bytes: number; linked: boolean } {
  const demo = scanHome(DEMO);
  let files = 0;
  let bytes = 0;
  let linked = true;
  for (let copy = 0; files < n; copy++) {
    for (const f of demo) {
      if (files >= n) break;
      const d = join(dir, 'agents', `${f.agent}-${String(copy).padStart(4, '0')}`, 'sessions', f.cwdHash);
      mkdirSync(d, { recursive: true });
      const to = join(d, `${f.sessionId}.jsonl`);
      // Hard links give 3,000 files without writing gigabytes; the reads are the same.
      try {
        if (linked) linkSync(f.path, to);
        else copyFileSync(f.path, to);
      } catch {
        linked = false;
        copyFileSync(f.path, to);
      }
      bytes += statSync(f.path).size;
      files++;
    }
  }
  return { files, bytes, linked };
}

async function listing(log: (line: string) => void, root: string): Promise<void> {
  const home = join(root, 'big-home');
  const made = bigHome(home, SESSIONS);
  const lib = new SessionLibrary(home);
  const t0 = performance.now();
  const list = await lib.list();
  const ms = performance.now() - t0;
  const t1 = performance.now();
  await lib.list();
  const again = performance.now() - t1;
  const share = lib.bytesRead / made.bytes;
  log(
    `list ${list.length} sessions (${(made.bytes / 1048576).toFixed(0)} MiB${made.linked ? ', hard links' : ''}): ` +
      `${ms.toFixed(0)} ms (target < 1000 ms: ${verdict(ms < 1000)}); ` +
      `read ${(lib.bytesRead / 1048576).toFixed(1)} MiB = ${(share * 100).toFixed(1)}% of the bytes; ` +
      `listing again (cached, locks re-probed) ${again.toFixed(0)} ms`,
  );
}

/** Runs both library benchmarks and logs one line each. */
export async function runLibraryBench(log: (line: string) => void): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'vak-library-bench-'));
  try {
    await appendLatency(log, root);
    await listing(log, root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runLibraryBench((l) => process.stdout.write(l + '\n'));
}
