import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, statSync, copyFileSync } from 'node:fs';
import { hash } from 'node:crypto';
import { join } from 'node:path';
import { generateSession } from '../src/generator';
import { appendBranch, type BranchLockStats } from '../src/main/core/branch-append';
import { Ledger } from '../src/main/core/ledger';
import { project } from '../src/main/core/projection';

const DATA = join(import.meta.dirname, '.data');
const MB = 1 << 20;

interface OneRun {
  ms: number;
  entries: number;
  maxRssMB: number;
}

/** Generates (once, cached in bench/.data) a realistic ledger of about `mb` MiB. */
export function ledgerOfSize(mb: number, log: (s: string) => void): string {
  mkdirSync(DATA, { recursive: true });
  const path = join(DATA, `ledger-${mb}mb.jsonl`);
  if (!existsSync(path)) {
    log(`  generating ${path} …`);
    generateSession({ seed: 42 + mb, bytes: mb * MB, cwd: '/home/ana/projects/vak', path });
  }
  return path;
}

function runOne(mode: 'ours' | 'baseline', file: string): OneRun {
  const r = spawnSync(process.execPath, ['bin/run-ts.mjs', 'bench/open-one.ts', mode, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`open-one ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as OneRun;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (n: number, d = 1): string => n.toFixed(d);

/** Opening (index + verified chain) vs the one-pass baseline, at 10/100/500 MiB. */
export function benchOpen(sizes: number[], log: (s: string) => void): void {
  log('open a ledger (index + verified chain) vs baseline (one reused buffer, sha256 + JSON.parse per line)');
  log('  size     entries   baseline ms   ours ms   ratio (≤1.5)   baseline RSS MB   ours RSS MB (≤250 at 500 MB)');
  for (const mb of sizes) {
    const file = ledgerOfSize(mb, log);
    const runs = mb >= 500 ? 2 : 3;
    const base: OneRun[] = [];
    const ours: OneRun[] = [];
    for (let k = 0; k < runs; k++) {
      base.push(runOne('baseline', file));
      ours.push(runOne('ours', file));
    }
    const b = median(base.map((r) => r.ms));
    const o = median(ours.map((r) => r.ms));
    const ratio = o / b;
    const rss = Math.max(...ours.map((r) => r.maxRssMB));
    const rssOk = mb < 500 || rss <= 250;
    log(
      `  ${String(mb).padStart(4)} MB ${String(ours[0].entries).padStart(9)} ${f(b, 0).padStart(12)} ${f(o, 0).padStart(9)} ${f(ratio, 2).padStart(8)} ${ratio <= 1.5 ? 'ok  ' : 'MISS'} ${f(Math.max(...base.map((r) => r.maxRssMB)), 0).padStart(14)} ${f(rss, 0).padStart(14)} ${rssOk ? 'ok' : 'MISS'}`,
    );
  }
}

/** An appended line: read and indexed through refresh(), on an open 100 MiB ledger. */
export async function benchAppend(log: (s: string) => void): Promise<void> {
  const src = ledgerOfSize(100, log);
  const file = join(DATA, 'append-target.jsonl');
  copyFileSync(src, file);
  const ledger = await Ledger.open(file);
  const times: number[] = [];
  for (let k = 0; k < 50; k++) {
    const last = ledger.index.activeLeaf;
    const line = JSON.stringify({
      id: `bench-${k}-${Date.now()}`,
      parent_id: ledger.index.ids[last],
      ts: new Date().toISOString(),
      prev_hash: ledger.lastLineHash,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: `appended directive ${k}` }] },
    });
    appendFileSync(file, line + '\n');
    const t0 = performance.now();
    const r = await ledger.refresh();
    times.push(performance.now() - t0);
    if (r.kind !== 'appended' || r.newEntries !== 1) throw new Error(`append ${k} not seen: ${JSON.stringify(r)}`);
  }
  const warnings = ledger.warnings().length;
  ledger.close();
  const m = median(times);
  log(
    `append one line to an open ${f(statSync(file).size / MB, 0)} MB ledger → read and indexed: median ${f(m, 3)} ms, p95 ${f(pct(times, 0.95), 3)} ms (target ≤ 1 ms: ${m <= 1 ? 'ok' : 'MISS'}); warnings after 50 appends: ${warnings}`,
  );
  void hash;
}

/** Projecting the active leaf of a 100k-entry ledger (cold: a fresh open; warm: again). */
export async function benchProject(log: (s: string) => void): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  const file = join(DATA, 'ledger-100k-entries.jsonl');
  if (!existsSync(file)) generateSession({ seed: 7, entries: 100_000, cwd: '/home/ana/projects/vak', path: file });
  const cold: number[] = [];
  const warm: number[] = [];
  let msgs = 0;
  for (let k = 0; k < 5; k++) {
    const l = await Ledger.open(file);
    let t0 = performance.now();
    const p = project(l, l.index.activeLeaf, { plan: 'auto' });
    cold.push(performance.now() - t0);
    msgs = p.messages.length;
    t0 = performance.now();
    project(l, l.index.activeLeaf, { plan: 'auto' });
    warm.push(performance.now() - t0);
    l.close();
  }
  const m = median(cold);
  log(
    `project the active leaf of a 100k-entry ledger (${msgs} messages): cold median ${f(m)} ms, warm median ${f(median(warm))} ms (target ≤ 50 ms: ${m <= 50 ? 'ok' : 'MISS'})`,
  );
}

/**
 * How long a branch holds the agent's lock, on big ledgers: under the lock it
 * reads only the bytes appended since the ledger was last read, so the time should not
 * grow with the file. Compared, in the same run, with reading the whole file once (what
 * the old branch did twice under the lock). An agent's line is appended before each
 * branch, as a running agent would.
 */
export async function benchBranchLock(sizes: number[], log: (s: string) => void): Promise<void> {
  log('branch append: lock held (under the lock: read the new bytes, write, fsync, read back) vs one whole-file read');
  log('  size     lock held ms (median / max of 20)   bytes read under lock (max)   whole-file read ms   ratio');
  for (const mb of sizes) {
    const file = join(DATA, `branch-target-${mb}mb.jsonl`);
    copyFileSync(ledgerOfSize(mb, log), file);
    const t0 = performance.now();
    const ledger = await Ledger.open(file);
    const fullRead = performance.now() - t0;
    const held: number[] = [];
    let maxBytes = 0;
    for (let k = 0; k < 20; k++) {
      const leaf = ledger.index.ids[ledger.index.activeLeaf];
      const agentLine = JSON.stringify({
        id: `agent-${mb}-${k}`,
        parent_id: leaf,
        ts: new Date().toISOString(),
        prev_hash: ledger.lastPhysicalLine().hash,
        kind: 'message',
        message: { role: 'assistant', content: [{ type: 'text', text: `the agent's answer ${k}` }] },
      });
      appendFileSync(file, agentLine + '\n');
      await ledger.refresh(); // the cache follows the agent's appends as the watcher reports them
      const stats: BranchLockStats = { bytesReadUnderLock: 0, lockHeldMs: 0, attempts: 0 };
      await appendBranch(ledger, `agent-${mb}-${k}`, `try another way ${k}`, { stats });
      held.push(stats.lockHeldMs);
      maxBytes = Math.max(maxBytes, stats.bytesReadUnderLock);
    }
    ledger.close();
    const m = median(held);
    log(
      `  ${String(mb).padStart(4)} MB ${f(m, 3).padStart(14)} / ${f(Math.max(...held), 3).padEnd(18)} ${String(maxBytes).padStart(16)} ${f(fullRead, 0).padStart(26)} ${(m / fullRead).toExponential(1).padStart(9)}`,
    );
  }
}
