import { describe, expect, it } from 'vitest';
import { Ledger } from '../main/core/ledger';
import { verifyReport } from '../main/core/reports';
import { generateSession } from './session-generator';

describe('the ledger generator', () => {
  it('writes a clean, hash-linked, branching ledger with every kind of entry, the same for the same seed', () => {
    const a = generateSession({ seed: 5, entries: 4000, cwd: '/home/ana/projects/vak' });
    const b = generateSession({ seed: 5, entries: 4000, cwd: '/home/ana/projects/vak' });
    expect(a.bytes.equals(b.bytes)).toBe(true);
    const l = Ledger.fromBytes(a.bytes);
    expect(verifyReport(l).warnings).toEqual([]);
    expect(l.index.count).toBe(a.entries);
    expect(l.index.branchPoints().length).toBeGreaterThan(0);
    const kinds = new Set<string>();
    let toolResults = 0;
    for (let i = 0; i < l.index.count; i++) {
      kinds.add(l.index.kindName(i));
      if (l.index.flags[i] & 8) toolResults++;
    }
    for (const k of ['header', 'message', 'compaction', 'receipt', 'intent', 'turn_card', 'work', 'activity', 'goal']) {
      expect(kinds).toContain(k);
    }
    expect(toolResults / l.index.count).toBeGreaterThan(0.15);
    expect(toolResults / l.index.count).toBeLessThan(0.35);
  });

  it('writes an uncompacted shape: no turn cards, packets or resets, so every turn can only be Full', () => {
    const g = generateSession({ seed: 3, entries: 3000, cwd: '/x', shape: 'uncompacted', branchChance: 0.012 });
    const l = Ledger.fromBytes(g.bytes);
    expect(verifyReport(l).warnings).toEqual([]);
    const kinds = new Map<string, number>();
    for (let i = 0; i < l.index.count; i++) kinds.set(l.index.kindName(i), (kinds.get(l.index.kindName(i)) ?? 0) + 1);
    expect(kinds.get('turn_card')).toBeUndefined();
    expect(kinds.get('compaction')).toBeUndefined();
    expect(kinds.get('message')).toBeGreaterThan(1500);
    let chain = 0;
    for (let i = l.index.activeLeaf; i >= 0; i = l.index.parent[i]) chain++;
    // One long active chain: only the few branches' abandoned turns are off it.
    expect(chain / l.index.count).toBeGreaterThan(0.9);
  });
});
