import { createHash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  readFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache';

let dir: string;
let cache: SessionCache;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-cache-'));
  cache = new SessionCache(dir, 2);
});
afterEach(() => {
  cache.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Lines of a linear ledger (header, then `n` messages), hash-linked. */
function ledgerLines(n: number, pad = 0): string[] {
  let prev: string | null = null;
  const out: string[] = [];
  for (let k = 0; k <= n; k++) {
    const e: Record<string, unknown> =
      k === 0
        ? { id: 'e0', parent_id: null, ts: '2026-01-01T00:00:00.000Z', prev_hash: prev, kind: 'header', cwd: '/w' }
        : {
            id: `e${k}`,
            parent_id: `e${k - 1}`,
            ts: '2026-01-01T00:00:01.000Z',
            prev_hash: prev,
            kind: 'message',
            message: { role: k % 2 ? 'user' : 'assistant', content: [{ type: 'text', text: 'x'.repeat(pad) }] },
          };
    const line: string = JSON.stringify(e);
    prev = createHash('sha256').update(line).digest('hex');
    out.push(line + '\n');
  }
  return out;
}

function put(name: string, text: string): string {
  const d = join(dir, 'agents/vak/sessions/h');
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, `${name}.jsonl`), text);
  return `agents/vak/sessions/h/${name}.jsonl`;
}

describe('SessionCache', () => {
  it('opens once, keeps an LRU of a few, and never evicts a pinned session', async () => {
    const keys = ['a', 'b', 'c', 'd'].map((n) => put(n, ledgerLines(3).join('')));
    const a = await cache.acquire(keys[0]);
    expect(await cache.acquire(keys[0])).toBe(a);
    cache.pin(keys[0]);
    for (const k of keys.slice(1)) await cache.acquire(k);
    expect(cache.keys().sort()).toEqual([keys[0], keys[2], keys[3]].sort());
    cache.unpin(keys[0]);
    expect(cache.keys()).toHaveLength(2);
  });

  it('reports progress while opening a big file', async () => {
    const key = put('big', ledgerLines(90_000, 200).join(''));
    const seen: number[] = [];
    const s = await cache.acquire(key, (p) => seen.push(p.bytesRead));
    expect(s.ledger.index.count).toBe(90_001);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[seen.length - 1]).toBe(readFileSync(join(dir, key)).length);
  });

  it('extends the index and layout on append', async () => {
    const lines = ledgerLines(6);
    const key = put('s', lines.slice(0, 4).join(''));
    const s = await cache.acquire(key);
    appendFileSync(join(dir, key), lines.slice(4).join(''));
    expect(await cache.refresh(key)).toMatchObject({ kind: 'appended', firstNew: 4, newEntries: 3 });
    expect(s.layout.count).toBe(7);
    expect(s.revision).toBe(1);
    expect(await cache.refresh(key)).toEqual({ kind: 'unchanged' });
  });

  it('reloads a shrunk, rewritten or replaced file, and notices removal', async () => {
    const lines = ledgerLines(6);
    const key = put('s', lines.join(''));
    const path = join(dir, key);
    const s = await cache.acquire(key);
    truncateSync(path, lines.slice(0, 5).join('').length);
    expect(await cache.refresh(key)).toEqual({ kind: 'reloaded', reason: 'shrunk' });
    expect(s.ledger.index.count).toBe(5);
    expect(s.layout.count).toBe(5);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, -5) + 'ZZZZ\n');
    expect(await cache.refresh(key)).toEqual({ kind: 'reloaded', reason: 'rewritten' });
    writeFileSync(path + '.new', lines.join(''));
    renameSync(path + '.new', path);
    expect(await cache.refresh(key)).toEqual({ kind: 'reloaded', reason: 'replaced' });
    expect(s.ledger.index.count).toBe(7);
    expect(s.ledger.appendOnlyBreaks.map((b) => b.reason)).toEqual(['shrunk', 'rewritten', 'rewritten']);
    rmSync(path);
    expect(await cache.refresh(key)).toEqual({ kind: 'removed' });
    expect(cache.get(key)).toBeUndefined();
  });

  it("a branch that catches up on an agent's append: views follow at once, the next refresh announces both", async () => {
    const lines = ledgerLines(5);
    const key = put('s', lines.slice(0, 5).join(''));
    const s = await cache.acquire(key);
    appendFileSync(join(dir, key), lines[5]); // the agent's e5, not yet seen
    const r = await cache.branch(key, 'e5', 'from the agent’s line');
    expect(s.layout.count).toBe(6); // e5 placed; the branch line is read by the next refresh
    expect(await cache.refresh(key)).toMatchObject({ kind: 'appended', firstNew: 5, newEntries: 2 });
    expect(s.ledger.index.ids.slice(5)).toEqual(['e5', r.id]);
    expect(s.layout.count).toBe(7);
    expect(await cache.refresh(key)).toEqual({ kind: 'unchanged' });
  });

  it('a branch that finds the file rewritten reads it again, and the next refresh says so', async () => {
    const lines = ledgerLines(5);
    const key = put('s', lines.join(''));
    const s = await cache.acquire(key);
    const text = readFileSync(join(dir, key), 'utf8');
    const at = text.lastIndexOf('00:01.000Z'); // the last line's time: same size, other bytes
    writeFileSync(join(dir, key), text.slice(0, at) + '00:02.000Z' + text.slice(at + 10));
    await cache.branch(key, 'e2', 'after the rewrite');
    expect(s.layout.count).toBe(s.ledger.index.count);
    expect(await cache.refresh(key)).toEqual({ kind: 'reloaded', reason: 'rewritten' });
    expect(s.layout.count).toBe(7);
    expect(await cache.refresh(key)).toEqual({ kind: 'unchanged' });
  });

  it('rejects a missing session with ENOENT', async () => {
    await expect(cache.acquire('agents/vak/sessions/h/none.jsonl')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
