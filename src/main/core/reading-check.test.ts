import { appendFileSync, closeSync, openSync, readFileSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ledgerBytes, userMsg } from '../../reliability/ledger-lines';
import { useTempDir } from '../../test-support/temp-dir';
import { FileSource, type FileStamp } from './byte-source';
import { Ledger, LedgerChangedError } from './ledger';
import { PerReading } from './per-reading';
import { readAgain, readingDifference } from './reading-check';
import { turnCacheOf } from './turn-cache';

const tmp = useTempDir('vak-reading-check-');

/** h ← e1 ← … ← e40, line k+1 holds ek. */
function chainFile(): string {
  const entries: Record<string, unknown>[] = [
    { id: 'h', parent_id: null, kind: 'header', system_prompt: 's', tools: [] },
  ];
  for (let k = 1; k <= 40; k++)
    entries.push({ id: `e${k}`, parent_id: k === 1 ? 'h' : `e${k - 1}`, kind: 'message', message: userMsg(`m${k}`) });
  const file = join(tmp(), 'c.jsonl');
  writeFileSync(file, ledgerBytes(entries));
  return file;
}

function overwrite(file: string, find: string, replace: string): void {
  const at = readFileSync(file).indexOf(find);
  expect(at).toBeGreaterThan(0);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.from(replace), 0, Buffer.byteLength(replace), at);
  closeSync(fd);
}

/** Sets the file's times well in the past: a stamp taken now is no racy one. */
function age(file: string): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
}

describe('a reading checked against its file (reading-check.ts)', () => {
  it('a fresh read of the same bytes is the same reading; a rewrite in place is told, by line', async () => {
    const file = chainFile();
    const l = Ledger.openSync(file);
    try {
      const end = readFileSync(file).length;
      expect(await l.checkReading()).toBeNull();
      overwrite(file, '"id":"e20"', '"id":"x20"');
      expect(await l.checkReading()).toBe('the entry at line 21 changed');
      // The same comparison by hand: a fresh read of the bytes against this reading.
      const other = Ledger.openSync(file);
      expect(readingDifference(l.snapshot(), await readAgain(other.source, end))).toBe('the entry at line 21 changed');
      expect(readingDifference(other.snapshot(), await readAgain(other.source, end))).toBeNull();
      other.close();
      expect(l.bytesChecked).toBe(2 * end);
      expect(l.stats.bytesRead).toBe(end); // the checks are not the reading's work
    } finally {
      l.close();
    }
  });

  it('refresh with `changed`: a same-size rewrite is read again, exactly as a full read; a new generation', async () => {
    const file = chainFile();
    const l = await Ledger.open(file);
    try {
      const generation = l.generation;
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'unchanged' });
      overwrite(file, '"id":"e20"', '"id":"x20"');
      expect(await l.refresh()).toEqual({ kind: 'unchanged' }); // no event: only the last line is checked
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'reloaded', reason: 'rewritten' });
      expect(l.generation).not.toBe(generation);
      const fresh = Ledger.openSync(file);
      expect(l.warnings()).toEqual(fresh.warnings());
      expect(l.warnings().map((w) => `${w.code}@${w.line}`)).toEqual(['hash_mismatch@22', 'orphan@22']);
      fresh.close();
    } finally {
      l.close();
    }
  });

  it('a change event on a file whose stamp shows no write since the read checks nothing', async () => {
    const file = chainFile();
    age(file);
    const l = await Ledger.open(file);
    try {
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'unchanged' });
      expect(l.bytesChecked).toBe(0);
      // A rewrite changes the file's ctime whatever its mtime is set back to.
      overwrite(file, '"id":"e20"', '"id":"x20"');
      age(file);
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'reloaded', reason: 'rewritten' });
    } finally {
      l.close();
    }
  });

  it('a change event after an append was read checks nothing: the append read waits out a racy stamp', async () => {
    // Line 42 appended to the 41 lines of chainFile: the file's stamp is a moment old when it is read.
    const entries: Record<string, unknown>[] = [
      { id: 'h', parent_id: null, kind: 'header', system_prompt: 's', tools: [] },
    ];
    for (let k = 1; k <= 41; k++)
      entries.push({ id: `e${k}`, parent_id: k === 1 ? 'h' : `e${k - 1}`, kind: 'message', message: userMsg(`m${k}`) });
    const all = ledgerBytes(entries);
    const cut = all.lastIndexOf(10, all.length - 2) + 1;
    const file = join(tmp(), 'live.jsonl');
    writeFileSync(file, all.subarray(0, cut));
    const l = await Ledger.open(file);
    try {
      appendFileSync(file, all.subarray(cut));
      expect(await l.refresh({ changed: true })).toMatchObject({ kind: 'appended', newEntries: 1 });
      // The watcher's second event for that append (or the rescan's): nothing was written since.
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'unchanged' });
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'unchanged' });
      expect(l.bytesChecked).toBe(0);
      // The file once, and the last line once per refresh (the append-only check): lines as long as the new one.
      expect(l.stats.bytesRead).toBeLessThanOrEqual(all.length + 4 * (all.length - cut));
      // A same-size rewrite in place after it is still found.
      overwrite(file, '"id":"e20"', '"id":"x20"');
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'reloaded', reason: 'rewritten' });
      expect(l.indexOf('x20')).toBeDefined();
    } finally {
      l.close();
    }
  });

  it('whole-second stamps: a change event checks a racy reading once, and the check then stands as its proof', async () => {
    /** A file system that keeps whole seconds (ext3, HFS+): its stamps, from this one's. */
    class SecondsSource extends FileSource {
      override stamp(): FileStamp {
        const s = super.stamp();
        const second = (ns: bigint): bigint => (ns / 1_000_000_000n) * 1_000_000_000n;
        return { ...s, mtimeNs: second(s.mtimeNs), ctimeNs: second(s.ctimeNs) };
      }
    }
    const file = chainFile();
    const l = await Ledger.open(new SecondsSource(file)); // (not waited out: a wait of up to 2 s)
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // The read began within 2 s of the file's time: the first change event checks the reading,
      // from a stamp taken 3 s later, which then shows the next event that nothing was written.
      vi.setSystemTime(Date.now() + 3000);
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'unchanged' });
      const once = l.bytesChecked;
      expect(once).toBe(readFileSync(file).length);
      expect(await l.refresh({ changed: true })).toEqual({ kind: 'unchanged' });
      expect(l.bytesChecked).toBe(once);
    } finally {
      vi.useRealTimers();
      l.close();
    }
  });

  it('an entry read back whose line changed is never shown: LedgerChangedError, then a reload reads it right', async () => {
    const file = chainFile();
    const l = Ledger.openSync(file);
    try {
      const i = l.indexOf('e20')!;
      overwrite(file, '"id":"e20"', '"id":"x20"');
      expect(() => l.entry(i)).toThrow(LedgerChangedError);
      expect(l.lineHoldsEntry(i)).toBe(false);
      expect(l.lineHoldsEntry(l.indexOf('e19')!)).toBe(true);
      await l.reload('rewritten');
      expect(l.indexOf('e20')).toBeUndefined();
      expect(l.entry(l.indexOf('x20')!).id).toBe('x20');
    } finally {
      l.close();
    }
  });

  it('tailDiffers: the file must end with the line read, byte for byte', () => {
    const file = chainFile();
    const l = Ledger.openSync(file);
    try {
      expect(l.tailDiffers()).toBeNull();
      overwrite(file, '"text":"m40"', '"text":"M40"');
      expect(l.tailDiffers()).toBe('its last line (line 41) is not the one read');
    } finally {
      l.close();
    }
  });

  it('caches per reading (PerReading, the turn cache) start over on a new generation', async () => {
    const file = chainFile();
    const l = await Ledger.open(file);
    try {
      const kept = new PerReading<object>();
      const value = kept.getOrMake(l, () => ({}));
      const turns = turnCacheOf(l);
      expect(kept.get(l)).toBe(value);
      await l.reload('rewritten');
      expect(kept.get(l)).toBeUndefined();
      expect(turnCacheOf(l)).not.toBe(turns);
    } finally {
      l.close();
    }
  });
});
