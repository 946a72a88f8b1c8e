import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flockCalls } from '../core/flock';
import { SessionLibrary } from './session-library';

const FIXTURE_HOME = join(__dirname, '../../../../shared/fixtures/demo-home');
const BIG = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';
const CHILD = 'agents/reviewer/sessions/70929a3c84065db2/01a1f82c-5b45-725c-805f-4b4c88f15899.jsonl';

let dir: string;
function writable(p: string): void {
  chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
  if (statSync(p).isDirectory()) for (const n of readdirSync(p)) writable(join(p, n));
}
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-lib-'));
  cpSync(FIXTURE_HOME, dir, { recursive: true });
  writable(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SessionLibrary', () => {
  it('lists every session, reading heads and tails once, then nothing while unchanged', async () => {
    const lib = new SessionLibrary(dir);
    const list = await lib.list();
    expect(list).toHaveLength(7);
    const total = list.reduce((n, s) => n + s.sizeBytes, 0);
    const first = lib.bytesRead;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(total);
    await lib.list();
    expect(lib.bytesRead).toBe(first);
  });

  it('re-reads a changed session only, and resolves parents', async () => {
    const lib = new SessionLibrary(dir);
    await lib.list();
    expect(lib.get(CHILD)!.parentSession!.key).toBe(BIG);
    expect(lib.keyOf('01a1f82c-5b45-725c-805f-4b4c88f15899', 'reviewer')).toBe(CHILD);
    const before = lib.bytesRead;
    appendFileSync(join(dir, BIG), '{"torn":');
    const s = lib.refresh(BIG)!;
    expect(lib.bytesRead).toBeGreaterThan(before);
    expect(lib.bytesRead - before).toBeLessThan(s.sizeBytes / 4);
    expect(s.sizeBytes).toBe(statSync(join(dir, BIG)).size);
  });

  it('applies exact counts from an opened ledger while the size matches', async () => {
    const lib = new SessionLibrary(dir);
    await lib.list();
    const size = lib.get(BIG)!.sizeBytes;
    lib.setExact(BIG, { entries: 308, branches: 3, warnings: 0, sizeBytes: size });
    expect(lib.get(BIG)).toMatchObject({ entries: 308, entriesExact: true, branches: 3, warnings: 0 });
    lib.setExact(BIG, { entries: 1, branches: 0, warnings: 0, sizeBytes: size - 1 });
    expect(lib.get(BIG)!.entriesExact).toBe(false);
  });

  it('forgets deleted sessions', async () => {
    const lib = new SessionLibrary(dir);
    await lib.list();
    rmSync(join(dir, CHILD));
    expect(lib.refresh(CHILD)).toBeNull();
    expect((await lib.list()).map((s) => s.key)).not.toContain(CHILD);
    expect(lib.keyOf('01a1f82c-5b45-725c-805f-4b4c88f15899')).toBeNull();
  });

  it.runIf(process.platform === 'linux' && spawnSync('flock', ['--version']).status === 0)(
    'refreshLocks sees an agent take and leave the lock, opening and reading nothing, locking nothing',
    async () => {
      const lib = new SessionLibrary(dir);
      await lib.list();
      const bytes = lib.bytesRead;
      const calls = flockCalls();
      expect(lib.refreshLocks()).toEqual([]);
      const holder = spawn('flock', ['-n', join(dir, BIG), '-c', 'echo locked; sleep 30'], {
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
      });
      try {
        await new Promise<void>((resolve, reject) => {
          holder.stdout.once('data', () => resolve());
          holder.once('exit', (code) => reject(new Error(`flock exited ${code}`)));
        });
        const changed = lib.refreshLocks();
        expect(changed.map((s) => [s.key, s.lock])).toEqual([[BIG, 'held']]);
        expect(lib.get(BIG)?.lock).toBe('held');
      } finally {
        const exited = new Promise((r) => holder.once('exit', r));
        process.kill(-holder.pid!, 'SIGKILL');
        await exited;
      }
      let changed = lib.refreshLocks();
      for (let k = 0; k < 100 && changed.length === 0; k++) {
        await new Promise((r) => setTimeout(r, 20));
        changed = lib.refreshLocks();
      }
      expect(changed.map((s) => [s.key, s.lock])).toEqual([[BIG, 'free']]);
      expect(lib.bytesRead).toBe(bytes);
      expect(flockCalls()).toBe(calls);
    },
  );
});
