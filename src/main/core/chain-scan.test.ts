import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { chainToRoot } from './chain';
import { Ledger } from './ledger';
import { F_RESET } from './ledger-index';
import { lastAtOrBefore, scanChainCosts, segmentAt, turnAt } from './chain-scan';

const ledger = Ledger.fromBytes(generateSession({ seed: 7, entries: 1500, cwd: '/w', branchChance: 0 }).bytes);

describe('series chain scan', () => {
  const chain = chainToRoot(ledger.index, ledger.index.activeLeaf);
  const scan = scanChainCosts(ledger, chain, 4);

  it('cuts the chain at every reset, and each segment into its preamble and contiguous turns', () => {
    const resets = chain.map((i, pos) => (ledger.index.flags[i] & F_RESET ? pos : -1)).filter((pos) => pos >= 0);
    expect(resets.length).toBeGreaterThan(0);
    expect(scan.segments.map((s) => s.resetPos)).toEqual([-1, ...resets]);
    scan.segments.forEach((s, k) => {
      expect(s.start).toBe(s.resetPos + 1);
      expect(s.end).toBe(k + 1 < scan.segments.length ? scan.segments[k + 1].resetPos - 1 : chain.length - 1);
      let pos = s.turns.length > 0 ? s.turns[0].firstPos : s.end + 1;
      for (const m of s.preamble) expect(m.pos).toBeLessThan(pos);
      s.turns.forEach((t, j) => {
        expect(t.firstPos).toBe(pos);
        expect(t.lastPos - t.firstPos + 1).toBe(t.entries.length);
        expect(s.byId.get(t.id)).toBe(j);
        expect(s.prefixFull[j + 1]).toBe(s.prefixFull[j] + s.full[j]);
        pos = t.lastPos + 1;
      });
      if (s.turns.length > 0) expect(pos).toBe(s.end + 1);
    });
  });

  it('finds the segment and turn of every chain position', () => {
    for (let p = 0; p < chain.length; p++) {
      const seg = segmentAt(scan, p);
      expect(seg.resetPos <= p && p <= seg.end).toBe(true);
      const j = turnAt(seg, p);
      if (j >= 0) expect(seg.turns[j].firstPos <= p && p <= seg.turns[j].lastPos).toBe(true);
      else expect(seg.turns.length === 0 || p < seg.turns[0].firstPos).toBe(true);
    }
  });

  it('keeps packets sorted by first turn, within their segment', () => {
    expect(scan.segments.some((s) => s.packets.length > 0)).toBe(true);
    for (const s of scan.segments) {
      for (const pk of s.packets) expect(0 <= pk.first && pk.first <= pk.last && pk.last < s.turns.length).toBe(true);
      for (let k = 1; k < s.packets.length; k++) expect(s.packets[k - 1].first).toBeLessThanOrEqual(s.packets[k].first);
    }
  });

  it('lastAtOrBefore is the last position at or before p, as a linear walk finds it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1, max: 60 }), { maxLength: 40 }),
        fc.integer({ min: -3, max: 70 }),
        (xs, p) => {
          const sorted = [...xs].sort((a, b) => a - b);
          let want = -1;
          sorted.forEach((x, k) => {
            if (x <= p) want = k;
          });
          expect(lastAtOrBefore(sorted.length, (k) => sorted[k], p)).toBe(want);
        },
      ),
    );
  });
});
