import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { EntryCache, ENTRY_CACHE_BYTES, ENTRY_CACHE_ENTRIES } from './entry-cache';
import { Ledger } from './ledger';

// Counted, not timed (memory follows the index, not the payloads).

describe('EntryCache holds parsed entries by the bytes of their lines', () => {
  it('never holds more than its bytes, dropping the least recently used first', () => {
    const c = new EntryCache<string>(100, 1000);
    for (let i = 0; i < 10; i++) c.set(i, `e${i}`, 30);
    expect(c.bytes).toBe(90);
    expect(c.size).toBe(3);
    expect(c.get(6)).toBeUndefined();
    expect(c.get(7)).toBe('e7'); // 7 is now the most recently used: 8 goes first
    c.set(10, 'e10', 30);
    expect(c.get(8)).toBeUndefined();
    expect([c.get(9), c.get(7), c.get(10)]).toEqual(['e9', 'e7', 'e10']);
    expect(c.bytes).toBe(90);
  });

  it('never holds more than its entries, however small they are', () => {
    const c = new EntryCache<number>(1 << 20, 4);
    for (let i = 0; i < 100; i++) c.set(i, i, 1);
    expect(c.size).toBe(4);
    expect(c.bytes).toBe(4);
  });

  it('keeps the newest entry even when it alone is over the bound, and counts a replaced entry once', () => {
    const c = new EntryCache<string>(100, 10);
    c.set(1, 'small', 10);
    c.set(2, 'huge', 500);
    expect(c.size).toBe(1);
    expect(c.get(2)).toBe('huge');
    c.set(2, 'huge again', 50);
    c.set(3, 'small', 10);
    expect(c.bytes).toBe(60);
    c.clear();
    expect([c.size, c.bytes]).toEqual([0, 0]);
  });
});

describe("Ledger.entry's cache", () => {
  it('never holds more than ENTRY_CACHE_BYTES of lines (or ENTRY_CACHE_ENTRIES entries) while every entry is read', () => {
    const g = generateSession({ seed: 3, bytes: 6 * ENTRY_CACHE_BYTES, cwd: '/home/ana/projects/vak' });
    const l = Ledger.fromBytes(g.bytes);
    expect(g.bytes.length).toBeGreaterThan(4 * ENTRY_CACHE_BYTES);
    let most = 0;
    for (let i = 0; i < l.index.count; i++) {
      l.entry(i);
      const held = l.cachedEntries;
      // Over the bound only while the newest entry alone is larger than it.
      if (held.entries > 1) most = Math.max(most, held.bytes);
      expect(held.entries).toBeLessThanOrEqual(ENTRY_CACHE_ENTRIES);
    }
    expect(most).toBeLessThanOrEqual(ENTRY_CACHE_BYTES);
    expect(most).toBeGreaterThan(ENTRY_CACHE_BYTES / 2);
    expect(l.stats.entriesMaterialised).toBe(l.index.count);
  });

  it('answers the entries it holds without parsing them again', () => {
    const g = generateSession({ seed: 4, entries: 400, cwd: '/home/ana/projects/vak' });
    const l = Ledger.fromBytes(g.bytes);
    const last = l.index.count - 1;
    for (let i = last - 20; i <= last; i++) l.entry(i);
    const parsed = l.stats.entriesMaterialised;
    for (let i = last; i >= last - 20; i--) l.entry(i);
    expect(l.stats.entriesMaterialised).toBe(parsed);
  });
});
