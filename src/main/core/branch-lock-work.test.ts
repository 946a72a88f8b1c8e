import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import { appendBranch, appendBranchToFile, BranchError, type BranchLockStats } from './branch-append';
import { Ledger } from './ledger';

const tmp = useTempDir('vak-branch-work-');

/** A valid line under `parentId`, as an agent would append it after the ledger's last line. */
function agentLine(l: Ledger, id: string, parentId: string): string {
  return (
    JSON.stringify({
      id,
      parent_id: parentId,
      ts: '2026-11-30T12:00:00.000Z',
      prev_hash: l.lastPhysicalLine().hash,
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'written by the agent' }] },
    }) + '\n'
  );
}

async function refusal(p: Promise<unknown>): Promise<BranchError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(BranchError);
  return e as BranchError;
}

describe('branch append: work under the lock is the new bytes only (counted, not timed)', () => {
  it('on a 20 MB ledger, reads under the lock only a few bytes, never the file', async () => {
    const file = join(tmp(), 'big.jsonl');
    generateSession({ seed: 7, bytes: 20 * 1024 * 1024, cwd: '/home/ana/projects/vak', path: file });
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(19 * 1024 * 1024);
    const ledger = await Ledger.open(file);
    try {
      const leaf = ledger.index.ids[ledger.index.activeLeaf];
      // The agent appends after we read: caught up outside the lock, not under it.
      const line = agentLine(ledger, 'agent-1', leaf);
      appendFileSync(file, line);
      const stats: BranchLockStats = { bytesReadUnderLock: -1, lockHeldMs: -1, attempts: 0 };
      const r = await appendBranch(ledger, 'agent-1', 'from the agent’s answer', { stats });
      const written = readFileSync(file).subarray(r.offset);
      // Under the lock: one byte (the `\n` ending the last line read before the agent's), then the
      // proofs: the parent's line (here the agent's, the last line) and the last line, each with its
      // `\n`. The line written is read back after the lock is released (§7).
      expect(written.length).toBeGreaterThan(0);
      expect(stats.attempts).toBe(1);
      expect(stats.bytesReadUnderLock).toBe(1 + 2 * Buffer.byteLength(line));
      expect(stats.bytesReadUnderLock).toBeLessThan(4096);
      expect(r.offset).toBe(size + Buffer.byteLength(line));
      const after = Ledger.openSync(file);
      expect(after.index.ids[after.index.activeLeaf]).toBe(r.id);
      expect(after.index.line[after.indexOf(r.id)!]).toBe(r.line);
      expect(after.warnings()).toEqual(ledger.warnings());
      after.close();
    } finally {
      ledger.close();
    }
  });

  it('readAppendedSync reads exactly the appended bytes (plus the one `\\n` it checks), or nothing past its cap', () => {
    const file = join(tmp(), 'linear.jsonl');
    copyFileSync(join(FIXTURES, 'linear.jsonl'), file);
    const ledger = Ledger.openSync(file);
    try {
      const count = ledger.index.count;
      const line = agentLine(ledger, 'agent-2', ledger.index.ids[ledger.index.activeLeaf]);
      appendFileSync(file, line);
      const before = ledger.source.bytesRead;
      expect(ledger.readAppendedSync(Buffer.byteLength(line) - 1)).toBeNull(); // over the cap: nothing read
      expect(ledger.source.bytesRead).toBe(before);
      expect(ledger.readAppendedSync(1 << 20)).toBe(Buffer.byteLength(line));
      expect(ledger.source.bytesRead - before).toBe(Buffer.byteLength(line) + 1);
      expect(ledger.index.count).toBe(count + 1);
    } finally {
      ledger.close();
    }
  });

  it('refuses to write to a file that is no longer the one it read (renamed over), writing nothing', async () => {
    const d = tmp();
    const file = join(d, 'linear.jsonl');
    copyFileSync(join(FIXTURES, 'linear.jsonl'), file);
    const ledger = Ledger.openSync(file);
    try {
      copyFileSync(join(FIXTURES, 'branching.jsonl'), join(d, 'other.jsonl'));
      renameSync(join(d, 'other.jsonl'), file);
      const before = readFileSync(file);
      const e = await refusal(appendBranch(ledger, 'e0008', 'hello'));
      expect(e.reason).toBe('changed');
      expect(readFileSync(file).equals(before)).toBe(true);
    } finally {
      ledger.close();
    }
  });

  it('refuses a FIFO at once (never opens it for reading, never blocks)', async () => {
    const fifo = join(tmp(), 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const e = await refusal(appendBranchToFile(fifo, 'e0001', 'hello'));
    expect(e.reason).toBe('unreadable');
    expect(e.message).toMatch(/FIFO/);
  });
});
