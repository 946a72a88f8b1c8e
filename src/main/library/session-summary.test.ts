import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanHome, type SessionFile } from '../core/home';
import { flockCalls } from '../core/flock';
import { Ledger } from '../core/ledger';
import { parseProcLocks } from '../core/proc-locks';
import { readSessionSummary } from './session-summary';

const FIXTURES = join(__dirname, '../../../../shared/fixtures');
const BIG = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';
const SMALL = 'agents/vak/sessions/70929a3c84065db2/01a202b8-4340-760b-95da-2b05292cd070.jsonl';
const CHILD = 'agents/reviewer/sessions/70929a3c84065db2/01a1f82c-5b45-725c-805f-4b4c88f15899.jsonl';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-summary-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fixtureFile(key: string): SessionFile {
  return scanHome(join(FIXTURES, 'demo-home')).find((f) => f.key === key)!;
}

/** A session file in the temp home with the given bytes. */
function session(bytes: Buffer | string, hash = 'cbf29ce484222325', id = 'sess'): SessionFile {
  const d = join(dir, 'agents/vak/sessions', hash);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, `${id}.jsonl`), bytes);
  return scanHome(dir).find((f) => f.sessionId === id)!;
}

function lastTsOf(path: string): string {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1]).ts;
}

describe('readSessionSummary', () => {
  it('summarizes a big session from its head and tail only', () => {
    const f = fixtureFile(BIG);
    const r = readSessionSummary(f)!;
    const size = readFileSync(f.path).length;
    const exact = Ledger.openSync(f.path);
    expect(r.summary.cwd).toBe('/home/ana/projects/vak');
    expect(r.summary.cwdMismatch).toBe(false);
    expect(r.summary.model).toBeTruthy();
    expect(r.summary.title).toBeTruthy();
    expect(r.summary.title!.length).toBeLessThanOrEqual(120);
    expect(r.summary.title).not.toMatch(/\n/);
    expect(r.summary.firstTs).toBe(exact.entry(0).ts);
    expect(r.summary.lastTs).toBe(lastTsOf(f.path));
    expect(r.summary.entriesExact).toBe(false);
    expect(r.summary.branches).toBeNull();
    expect(Math.abs(r.summary.entries - exact.index.count) / exact.index.count).toBeLessThan(0.5);
    expect(r.summary.sizeBytes).toBe(size);
    expect(r.bytesRead).toBeLessThan(size / 4);
    expect(r.summary.lock).toBe(process.platform === 'linux' ? 'free' : 'unknown');
    expect(r.summary.unreadable).toBeNull();
    expect(r.summary.tailUnterminated).toBe(false);
    exact.close();
  });

  it('tells a file whose last line has no \\n from its last byte, big or small', () => {
    const big = readFileSync(fixtureFile(BIG).path);
    const torn = Buffer.concat([big, Buffer.from('{"id":"x","parent_id":"y","ts":"2026-')]);
    const r = readSessionSummary(session(torn, 'cbf29ce484222325', 'torn-big'))!;
    expect(r.summary.entriesExact).toBe(false);
    expect(r.summary.tailUnterminated).toBe(true);
    const small = readFileSync(fixtureFile(SMALL).path);
    expect(readSessionSummary(session(small, 'cbf29ce484222325', 'ok-small'))!.summary.tailUnterminated).toBe(false);
    const smallTorn = small.subarray(0, small.length - 1);
    expect(readSessionSummary(session(smallTorn, 'cbf29ce484222325', 'torn-small'))!.summary.tailUnterminated).toBe(
      true,
    );
    expect(readSessionSummary(session('', 'cbf29ce484222325', 'empty'))!.summary.tailUnterminated).toBe(false);
  });

  it('gives exact figures when the whole file was read', () => {
    const r = readSessionSummary(fixtureFile(SMALL))!;
    expect(r.summary.entriesExact).toBe(true);
    expect(r.summary.entries).toBe(13);
    expect(r.summary.warnings).toBe(0);
    expect(r.summary.branches).toBeGreaterThanOrEqual(0);
  });

  it('reads the parent session link from the header', () => {
    const r = readSessionSummary(fixtureFile(CHILD))!;
    expect(r.summary.agent).toBe('reviewer');
    expect(r.summary.parentSession).toEqual({
      sessionId: '01a1f7f8-3000-7bce-9f84-9a13f02868af',
      entryId: '01a1f82c-8453-7a28-b69c-f604fd936efd',
      key: null,
    });
  });

  it('flags a folder that is not the hash of the header cwd', () => {
    const f = session(readFileSync(fixtureFile(SMALL).path), '0000000000000000');
    expect(readSessionSummary(f)!.summary.cwdMismatch).toBe(true);
  });

  it('copes with an empty file', () => {
    const s = readSessionSummary(session(''))!.summary;
    expect(s).toMatchObject({ cwd: null, title: null, model: null, firstTs: null, lastTs: null, entries: 0 });
  });

  it('copes with a torn header and garbage', () => {
    const big = readFileSync(fixtureFile(BIG).path);
    const s1 = readSessionSummary(session(big.subarray(0, 100), undefined, 'torn'))!.summary;
    expect(s1).toMatchObject({ cwd: null, title: null, model: null, entries: 0 });
    const s2 = readSessionSummary(session(Buffer.from([0xff, 0xfe, 10, 0x7b, 10]), undefined, 'junk'))!.summary;
    expect(s2.cwd).toBeNull();
    expect(s2.warnings).toBeGreaterThan(0);
  });

  it('reads the damaged fixture without throwing', () => {
    const s = readSessionSummary(session(readFileSync(join(FIXTURES, 'damaged.jsonl'))))!.summary;
    expect(s.warnings).toBeGreaterThan(0);
    expect(s.title).not.toBeNull();
  });

  it('takes the last ts from a tail whose last line is torn', () => {
    const big = readFileSync(fixtureFile(BIG).path);
    const torn = Buffer.concat([big, Buffer.from('{"id":"x","ts":"2099')]);
    const s = readSessionSummary(session(torn))!.summary;
    expect(s.lastTs).toBe(lastTsOf(fixtureFile(BIG).path));
  });

  it('reads nothing but the lock when size and mtime are unchanged', () => {
    const f = fixtureFile(BIG);
    const first = readSessionSummary(f)!;
    const again = readSessionSummary(f, {}, first.summary)!;
    expect(again.bytesRead).toBe(0);
    expect(again.summary).toBe(first.summary);
  });

  it('returns null for a file that is gone, and a row saying why for one that may not be read', () => {
    expect(readSessionSummary({ ...fixtureFile(BIG), path: join(dir, 'missing.jsonl') })).toBeNull();
    mkdirSync(join(dir, 'dir.jsonl'));
    const d = readSessionSummary({ ...fixtureFile(BIG), path: join(dir, 'dir.jsonl') })!;
    expect(d.summary.unreadable).toMatch(/directory, not a regular file/);
    expect(d.bytesRead).toBe(0);
  });

  it('lists a FIFO and a link to a FIFO without opening them for reading (never blocks)', () => {
    const f = session('', 'cbf29ce484222325', 'pipe');
    rmSync(f.path);
    execFileSync('mkfifo', [f.path]);
    const r = readSessionSummary(f)!;
    expect(r.summary.unreadable).toMatch(/FIFO/);
    expect(r.summary).toMatchObject({ entries: 0, lock: 'unknown', title: null });
    const link = join(dir, 'agents/vak/sessions/cbf29ce484222325/linked-pipe.jsonl');
    symlinkSync(f.path, link);
    const viaLink = scanHome(dir).find((x) => x.sessionId === 'linked-pipe')!;
    expect(readSessionSummary(viaLink)!.summary.unreadable).toMatch(/FIFO/);
  });

  it('follows a link only to a ledger of its own session (header session_id = the link name)', () => {
    const outside = mkdtempSync(join(tmpdir(), 'vak-outside-'));
    try {
      const passwd = join(outside, 'passwd');
      writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\n');
      const ledger = join(outside, '01a202b8-4340-760b-95da-2b05292cd070.jsonl');
      copyFileSync(fixtureFile(SMALL).path, ledger);
      const d = join(dir, 'agents/vak/sessions/cbf29ce484222325');
      mkdirSync(d, { recursive: true });
      symlinkSync(passwd, join(d, 'passwd.jsonl'));
      symlinkSync(ledger, join(d, '01a202b8-4340-760b-95da-2b05292cd070.jsonl'));
      symlinkSync(ledger, join(d, 'someone-else.jsonl'));
      const byId = new Map(scanHome(dir).map((f) => [f.sessionId, f]));
      const p = readSessionSummary(byId.get('passwd')!)!;
      expect(p.summary.unreadable).toMatch(/not a ledger of session passwd/);
      expect(p.bytesRead).toBe(0);
      expect(JSON.stringify(p.summary)).not.toMatch(/root/);
      const ok = readSessionSummary(byId.get('01a202b8-4340-760b-95da-2b05292cd070')!)!;
      expect(ok.summary.unreadable).toBeNull();
      expect(ok.summary.entries).toBe(13);
      expect(readSessionSummary(byId.get('someone-else')!)!.summary.unreadable).toMatch(/not a ledger of session/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  describe('lock state, from /proc/locks, never by taking the lock', () => {
    let holder: ChildProcess | null = null;
    // flock runs the command through a shell that inherits the locked descriptor: end the whole group.
    const stop = (c: ChildProcess): void => {
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    afterEach(() => {
      if (holder) stop(holder);
      holder = null;
    });

    it('says unknown where there is no lock table, and reads the one it is given', () => {
      const f = fixtureFile(SMALL);
      expect(readSessionSummary(f, {}, undefined, null)!.summary.lock).toBe('unknown');
      expect(readSessionSummary(f, {}, undefined, parseProcLocks(''))!.summary.lock).toBe('free');
    });

    it.runIf(process.platform === 'linux')(
      'sees an agent holding the flock, and never calls flock itself',
      async () => {
        const calls = flockCalls();
        const d = join(dir, 'agents/vak/sessions/x');
        mkdirSync(d, { recursive: true });
        const path = join(d, 'locked.jsonl');
        copyFileSync(fixtureFile(SMALL).path, path);
        const f = scanHome(dir)[0];
        const first = readSessionSummary(f)!.summary;
        expect(first.lock).toBe('free');

        holder = spawn('flock', ['-n', path, '-c', 'echo locked; sleep 30'], {
          stdio: ['ignore', 'pipe', 'ignore'],
          detached: true,
        });
        await new Promise<void>((resolve, reject) => {
          holder!.stdout!.once('data', () => resolve());
          holder!.once('exit', (code) => reject(new Error(`flock exited ${code}`)));
        });
        expect(readSessionSummary(f)!.summary.lock).toBe('held');
        // Unchanged bytes: the cached row, with the lock state looked up again.
        expect(readSessionSummary(f, {}, first)!.summary.lock).toBe('held');
        const exited = new Promise((r) => holder!.on('exit', r));
        stop(holder);
        await exited;
        holder = null;
        // The shell and its sleep die with the group; the lock goes with the last of them.
        let lock = 'held';
        for (let k = 0; k < 100 && lock === 'held'; k++) {
          await new Promise((r) => setTimeout(r, 20));
          lock = readSessionSummary(f)!.summary.lock;
        }
        expect(lock).toBe('free');
        expect(flockCalls()).toBe(calls);
      },
    );
  });
});
