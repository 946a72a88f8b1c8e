import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, copyFileSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import { appendBranchToFile, BranchError } from './branch-append';
import { tryLockExclusive, unlock } from './flock';
import { Ledger } from './ledger';
import { verifyReport } from './reports';

const tmp = useTempDir();
const holders: ChildProcess[] = [];
afterEach(() => {
  // flock runs `sleep` as its child, which inherits the lock: end the whole process group.
  for (const h of holders.splice(0)) {
    h.stdout?.destroy();
    if (h.pid !== undefined) process.kill(-h.pid, 'SIGKILL');
  }
});

const HAVE_FLOCK = spawnSync('flock', ['--version']).status === 0;

/** Holds the agent's lock from another process, as the Rust agent would (util-linux flock). */
async function holdLock(file: string): Promise<ChildProcess> {
  const child = spawn('flock', ['-n', file, '-c', 'echo locked; sleep 30'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  holders.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`flock exited ${code}`)));
  });
  return child;
}

function copyOf(name: string): string {
  const file = join(tmp(), `${name}.jsonl`);
  copyFileSync(join(FIXTURES, `${name}.jsonl`), file);
  return file;
}

async function expectRefused(fn: () => Promise<unknown>, reason: BranchError['reason']): Promise<BranchError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BranchError);
    expect((e as BranchError).reason).toBe(reason);
    return e as BranchError;
  }
  throw new Error('expected a refusal');
}

describe.runIf(HAVE_FLOCK)('branch append (§7) against a real flock holder', () => {
  it('refuses while another process holds the lock, and leaves the file byte-identical', async () => {
    const file = copyOf('branching');
    const before = readFileSync(file);
    await holdLock(file);
    const e = await expectRefused(() => appendBranchToFile(file, 'e0005', 'try another way'), 'locked');
    expect(e.message).toMatch(/agent holds the lock/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('our own lock is seen by util-linux flock -n (a real flock(2), not fcntl)', () => {
    const file = copyOf('linear');
    const fd = openSync(file, 'r');
    try {
      expect(tryLockExclusive(fd)).toBe('locked');
      expect(spawnSync('flock', ['-n', file, '-c', 'true']).status).not.toBe(0);
      unlock(fd);
      expect(spawnSync('flock', ['-n', file, '-c', 'true']).status).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});
if (!HAVE_FLOCK) console.log('SKIPPED flock tests: util-linux `flock` is not installed on this machine');

describe('branch append (§7)', () => {
  it('refuses an unknown parent and empty text, writing nothing', async () => {
    const file = copyOf('branching');
    const before = readFileSync(file);
    await expectRefused(() => appendBranchToFile(file, 'nope', 'hello'), 'unknown_parent');
    await expectRefused(() => appendBranchToFile(file, 'e0005', ''), 'empty_text');
    await expectRefused(() => appendBranchToFile(file, 'e0005', '  \n '), 'empty_text');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('closes a torn tail with \\n in the same write and links to the torn bytes', async () => {
    const file = copyOf('linear');
    appendFileSync(file, '{"id":"torn-one","par');
    const r = await appendBranchToFile(file, 'e0008', 'again, from here');
    const l = Ledger.openSync(file);
    const codes = l.warnings().map((w) => w.code);
    expect(codes).toEqual(['torn_line']); // the old torn line, now closed; no hash_mismatch
    expect(l.index.ids[l.index.activeLeaf]).toBe(r.id);
    l.close();
  });

  it('keeps the chain valid and makes the new entry the active leaf (property)', async () => {
    const file = copyOf('branching');
    const prefix = readFileSync(file);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim().length > 0),
        async (k, text) => {
          const l0 = Ledger.openSync(file);
          const parent = l0.index.ids[k % l0.index.count];
          const before = verifyReport(l0);
          l0.close();
          const r = await appendBranchToFile(file, parent, text);
          const after = Ledger.openSync(file);
          const v = verifyReport(after);
          expect(v.warnings).toEqual(before.warnings);
          expect(v.entries).toBe(before.entries + 1);
          expect(v.active_leaf).toBe(r.id);
          expect(after.index.parentId(after.index.activeLeaf)).toBe(parent);
          const e = after.entry(after.index.activeLeaf);
          expect(e.fields['message']).toEqual({ role: 'user', content: [{ type: 'text', text }] });
          after.close();
          // Never rewrites a byte that was there.
          expect(readFileSync(file).subarray(0, prefix.length).equals(prefix)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the CLI branch command prints the new id', () => {
    const file = copyOf('branching');
    const r = spawnSync(
      process.execPath,
      ['bin/vak-explorer.mjs', 'branch', file, '--at', 'e0005', '--text', 'try X'],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const v = spawnSync(process.execPath, ['bin/vak-explorer.mjs', 'verify', file, '--json'], { encoding: 'utf8' });
    expect(JSON.parse(v.stdout)).toMatchObject({ entries: 14, warnings: [], active_leaf: id });
  });
});
