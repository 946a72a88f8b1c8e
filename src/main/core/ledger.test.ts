import { hash } from 'node:crypto';
import { appendFileSync, copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import { Ledger } from './ledger';

const tmp = useTempDir();

function line(id: string, parent: string, prevHash: string | null, text = 'hi'): string {
  return JSON.stringify({
    id,
    parent_id: parent,
    ts: '2026-11-29T12:00:00.000Z',
    prev_hash: prevHash,
    kind: 'message',
    message: { role: 'user', content: [{ type: 'text', text }] },
  });
}

describe('Ledger.refresh reads only what was appended', () => {
  it('indexes an appended line and reports it', async () => {
    const file = join(tmp(), 's.jsonl');
    copyFileSync(join(FIXTURES, 'linear.jsonl'), file);
    const l = await Ledger.open(file);
    const before = l.bytesRead;
    const added = line('new-1', 'e0021', l.lastLineHash) + '\n';
    appendFileSync(file, added);
    const r = await l.refresh();
    expect(r).toEqual({ kind: 'appended', firstNew: 21, newEntries: 1, bytes: Buffer.byteLength(added) });
    expect(l.bytesRead - before).toBe(Buffer.byteLength(added));
    expect(l.index.ids[l.index.activeLeaf]).toBe('new-1');
    expect(l.warnings()).toEqual([]);
    expect(await l.refresh()).toEqual({ kind: 'unchanged' });
    l.close();
  });

  it('a line written in two parts is pending until its \\n arrives', async () => {
    const file = join(tmp(), 's.jsonl');
    copyFileSync(join(FIXTURES, 'linear.jsonl'), file);
    const l = await Ledger.open(file);
    const full = line('new-1', 'e0021', l.lastLineHash);
    appendFileSync(file, full.slice(0, 30));
    await l.refresh();
    expect(l.index.count).toBe(21);
    expect(l.warnings().map((w) => w.code)).toEqual(['unterminated_tail']);
    appendFileSync(file, full.slice(30) + '\n');
    const r = await l.refresh();
    expect(r.kind).toBe('appended');
    expect(l.index.count).toBe(22);
    expect(l.warnings()).toEqual([]);
    l.close();
  });

  it('a file that shrinks, or whose last bytes change, is reloaded (append-only broken), never a crash', async () => {
    const file = join(tmp(), 's.jsonl');
    const bytes = readFileSync(join(FIXTURES, 'linear.jsonl'));
    writeFileSync(file, bytes);
    const l = await Ledger.open(file);
    truncateSync(file, bytes.length - 10);
    expect(await l.refresh()).toEqual({ kind: 'reloaded', reason: 'shrunk' });
    expect(l.index.count).toBe(20);
    expect(l.warnings().map((w) => w.code)).toEqual(['unterminated_tail']);

    writeFileSync(file, bytes);
    await l.refresh(); // grows back: the pending bytes changed → reloaded
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 5] = 'X'.charCodeAt(0);
    writeFileSync(file, tampered);
    expect(await l.refresh()).toEqual({ kind: 'reloaded', reason: 'rewritten' });
    expect(l.appendOnlyBreaks.map((b) => b.reason)).toContain('rewritten');
    l.close();
  });
});

describe('the reader on edge inputs', () => {
  it('an empty file: missing_header at line 1, offset 0; no entries', () => {
    const l = Ledger.fromBytes(Buffer.alloc(0));
    expect(l.warnings()).toMatchObject([{ code: 'missing_header', line: 1, offset: 0 }]);
    expect(l.index.count).toBe(0);
  });

  it('a torn line 1 gets torn_line then missing_header; the next line links to its bytes', () => {
    const torn = '{"id":"h","parent_id":null';
    const l2 = line('a', 'h', hash('sha256', torn, 'hex'));
    const l = Ledger.fromBytes(Buffer.from(torn + '\n' + l2 + '\n'));
    expect(l.warnings().map((w) => [w.code, w.line])).toEqual([
      ['torn_line', 1],
      ['missing_header', 1],
      ['orphan', 2],
    ]);
  });

  it('a \\r before the \\n is part of the hashed bytes', () => {
    const h = JSON.stringify({ id: 'h', parent_id: null, ts: 't', prev_hash: null, kind: 'header' }) + '\r';
    const next = line('a', 'h', hash('sha256', h, 'hex'));
    const l = Ledger.fromBytes(Buffer.from(h + '\n' + next + '\n'));
    expect(l.warnings()).toEqual([]);
    expect(l.index.count).toBe(2);
  });

  it('a non-header root is another root, not an orphan', () => {
    const h = JSON.stringify({ id: 'h', parent_id: null, ts: 't', prev_hash: null, kind: 'header' });
    const r2 = JSON.stringify({
      id: 'r',
      parent_id: null,
      ts: 't',
      prev_hash: hash('sha256', h, 'hex'),
      kind: 'goal',
      goal: {},
    });
    const l = Ledger.fromBytes(Buffer.from(h + '\n' + r2 + '\n'));
    expect(l.warnings()).toEqual([]);
    expect(l.index.parentId(1)).toBeNull();
  });
});

describe('entries for a one-pass scan (a first leaf parses its whole chain once)', () => {
  it('scanEntry parses what the cache lacks without keeping it, and takes what the cache has', () => {
    const l = Ledger.fromBytes(readFileSync(join(FIXTURES, 'branching.jsonl')));
    const parsed = (): number => l.stats.entriesMaterialised;
    const scanned = l.scanEntry(1);
    expect(parsed()).toBe(1);
    l.scanEntry(1);
    expect(parsed()).toBe(2); // not kept: parsed again
    const kept = l.entry(1);
    expect(kept).toEqual(scanned);
    expect(parsed()).toBe(3);
    expect(l.scanEntry(1)).toBe(kept); // from the cache: no parse
    expect(l.entry(1)).toBe(kept);
    expect(parsed()).toBe(3);
  });
});

describe('openSync with deferHashCheck (the CLI project)', () => {
  it('reads without checking the hash chain, and checks it when every warning is asked for', () => {
    const file = join(FIXTURES, 'damaged.jsonl');
    const inline = Ledger.openSync(file);
    const deferred = Ledger.openSync(file, { deferHashCheck: true });
    try {
      const mismatches = (ws: { code: string }[]) => ws.filter((w) => w.code === 'hash_mismatch').length;
      expect(mismatches(inline.warnings())).toBeGreaterThan(0);
      expect(deferred.hashCheckPending).toBe(true);
      expect(mismatches(deferred.warningsSoFar())).toBe(0);
      expect(deferred.warnings()).toEqual(inline.warnings());
      expect(deferred.hashCheckPending).toBe(false);
    } finally {
      inline.close();
      deferred.close();
    }
  });
});
