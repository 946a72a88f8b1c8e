import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KIND, LedgerIndex, NO_PARENT } from './ledger-index';
import { TreeLayout, type LayoutRow } from './tree-layout';

/** An index from a parent list (-1 = root) and optional kind names. */
function indexOf(parents: number[], kinds: number[] = []): LedgerIndex {
  const ix = new LedgerIndex();
  parents.forEach((p, i) => ix.add(`e${i}`, p < 0 ? NO_PARENT : p, kinds[i] ?? KIND.message, 0, i + 1, i * 10, 9));
  return ix;
}

/** Every row with the drawing invariants checked against the index. */
function checkInvariants(ix: LedgerIndex, layout: TreeLayout): LayoutRow[] {
  const rows = layout.rows(0, ix.count, false);
  expect(rows).toHaveLength(ix.count);
  const through = rows.map((r) => new Set(r.through));
  rows.forEach((r, i) => {
    expect(r.index).toBe(i);
    expect(new Set(r.through).size).toBe(r.through.length); // one line per lane
    expect(through[i].has(r.lane)).toBe(false); // no line crosses a dot
    const p = ix.parent[i];
    if (p >= 0) {
      // The edge p → i runs down i's lane over every row between them.
      for (let x = p + 1; x < i; x++) expect(through[x].has(r.lane)).toBe(true);
      if (layout.lane[p] !== r.lane) {
        expect(r.forkFrom).toBe(layout.lane[p]);
        expect(rows[p].forkTo).toContain(r.lane);
      } else expect(r.forkFrom).toBeNull();
    } else expect(r.forkFrom).toBeNull();
  });
  // No lane is claimed by two things on one row: through lanes are exactly the crossing edges.
  rows.forEach((r, x) => {
    const crossing = [];
    for (let i = x + 1; i < ix.count; i++) if (ix.parent[i] >= 0 && ix.parent[i] < x) crossing.push(layout.lane[i]);
    expect([...crossing].sort((a, b) => a - b)).toEqual(r.through);
  });
  return rows;
}

/** Random trees: each entry hangs under one of the entries before it (often the last). */
const trees = fc
  .array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 60 })
  .map((xs) => xs.map(([n, linear], i) => (i === 0 ? -1 : linear ? i - 1 : n % i)));

describe('TreeLayout', () => {
  it('keeps a linear session in one lane', () => {
    const ix = indexOf([-1, 0, 1, 2, 3]);
    const t = TreeLayout.build(ix);
    expect(t.laneCount).toBe(1);
    expect([...t.lane.subarray(0, 5)]).toEqual([0, 0, 0, 0, 0]);
    checkInvariants(ix, t);
  });

  it('gives a later branch its own lane from under its parent', () => {
    // 0 → 1 → 2 → 3 ; 4 under 1 (a branch, drawn down lane 1 from row 2 to row 4)
    const ix = indexOf([-1, 0, 1, 2, 1]);
    const t = TreeLayout.build(ix);
    const rows = checkInvariants(ix, t);
    expect(t.lane[4]).toBe(1);
    expect(rows[1].forkTo).toEqual([1]);
    expect(rows[2].through).toEqual([1]);
    expect(rows[3].through).toEqual([1]);
    expect(rows[4].forkFrom).toBe(0);
  });

  it('reuses a lane once its branch ended', () => {
    // 0 → 1 ; 2 under 0 ; 3 under 2 ; then 4 under 1 after the branch in lane 1 ended? no: 4 under 3
    const ix = indexOf([-1, 0, 0, 2, 1, 4]);
    const t = TreeLayout.build(ix);
    checkInvariants(ix, t);
    expect(t.laneCount).toBeLessThanOrEqual(2);
  });

  it('satisfies the drawing invariants on random trees', () => {
    fc.assert(
      fc.property(trees, (parents) => {
        const ix = indexOf(parents);
        const t = TreeLayout.build(ix);
        checkInvariants(ix, t);
        // A first child continues its parent's lane when laid out with the whole file known.
        parents.forEach((p, i) => {
          if (p >= 0 && ix.firstChild[p] === i) expect(t.lane[i]).toBe(t.lane[p]);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('extends on append without moving a drawn entry, and stays valid', () => {
    fc.assert(
      fc.property(trees, fc.nat(), (parents, cut) => {
        const k = 1 + (cut % parents.length);
        const ix = indexOf(parents.slice(0, k));
        const t = TreeLayout.build(ix);
        t.rows(0, k, false); // compute checkpoints, which the append must invalidate
        const before = [...t.lane.subarray(0, k)];
        parents.slice(k).forEach((p, j) => ix.add(`e${k + j}`, p < 0 ? NO_PARENT : p, KIND.message, 0, 0, 0, 0));
        t.extend();
        expect([...t.lane.subarray(0, k)]).toEqual(before);
        checkInvariants(ix, t);
      }),
      { numRuns: 200 },
    );
  });

  it('gives windows equal to the full listing (checkpoints)', () => {
    const parents = Array.from({ length: 3000 }, (_, i) => (i === 0 ? -1 : i % 97 === 0 ? i - 50 : i - 1));
    const ix = indexOf(parents);
    const t = TreeLayout.build(ix);
    const all = t.rows(0, 3000, false);
    for (const start of [0, 511, 512, 513, 1500, 2990])
      expect(t.rows(start, 40, false)).toEqual(all.slice(start, start + 40));
  });

  it('folds straight runs of audit entries, and finds rows in both modes', () => {
    const M = KIND.message;
    const R = KIND.receipt;
    const A = KIND.activity;
    // 0 h, 1 m, 2 r, 3 a, 4 r, 5 m, 6 r (single), 7 m, 8 r, 9 r (active leaf: not folded in)
    const kinds = [KIND.header, M, R, A, R, M, R, M, R, R];
    const ix = indexOf([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8], kinds);
    const t = TreeLayout.build(ix);
    expect(t.rowCount(false)).toBe(10);
    const rows = t.rows(0, 100, true);
    expect(rows.map((r) => [r.index, r.lastIndex])).toEqual([
      [0, 0],
      [1, 1],
      [2, 4],
      [5, 5],
      [6, 6],
      [7, 7],
      [8, 8],
      [9, 9],
    ]);
    expect(rows[2].folded).toEqual({ count: 3, kinds: ['receipt', 'activity'] });
    expect(rows[4].folded).toBeNull();
    expect(t.findRow(3, true)).toBe(2);
    expect(t.findRow(5, true)).toBe(3);
    expect(t.findRow(3, false)).toBe(3);
    // An append lets the old leaf join its run: 8, 9 fold once 10 arrives.
    ix.add('e10', 9, M, 0, 11, 100, 9);
    t.extend();
    expect(
      t
        .rows(0, 100, true)
        .map((r) => [r.index, r.lastIndex])
        .slice(-2),
    ).toEqual([
      [8, 9],
      [10, 10],
    ]);
    // A branch from inside a run splits it.
    ix.add('e11', 3, M, 0, 12, 110, 9);
    t.extend();
    const after = t.rows(0, 100, true).map((r) => [r.index, r.lastIndex]);
    expect(after.slice(2, 4)).toEqual([
      [2, 3],
      [4, 4],
    ]);
    for (let i = 0; i < ix.count; i++) {
      const r = t.findRow(i, true);
      const [a, b] = t.rowEntries(r, true);
      expect(a <= i && i <= b).toBe(true);
    }
  });

  it('restores a kept layout, with the entries read since placed, exactly as a build of the index now', () => {
    const KINDS = [KIND.message, KIND.receipt, KIND.activity];
    let restored = 0;
    fc.assert(
      fc.property(trees, fc.nat(), fc.array(fc.nat({ max: 2 }), { maxLength: 60 }), (parents, cut, ks) => {
        const kinds = parents.map((_, i) => KINDS[ks[i] ?? 0]);
        const k = 1 + (cut % parents.length);
        const ix = indexOf(parents.slice(0, k), kinds);
        const keptNow = TreeLayout.build(ix).kept()!;
        // As a kept index holds it: copies, not views of the live layout.
        const copy = { ...keptNow, lanes: keptNow.lanes.slice(), foldStart: keptNow.foldStart.slice() };
        parents.slice(k).forEach((p, j) => ix.add(`e${k + j}`, p < 0 ? NO_PARENT : p, kinds[k + j], 0, 0, 0, 0));
        const t = TreeLayout.fromKept(ix, copy);
        // Refused only when a kept entry other than the last got its first child since.
        const gotFirstChild = parents.some((p, i) => i >= k && p >= 0 && p < k - 1 && ix.firstChild[p] === i);
        expect(t === null).toBe(gotFirstChild);
        if (t === null) return;
        restored++;
        const b = TreeLayout.build(ix);
        expect([...t.lane.subarray(0, ix.count)]).toEqual([...b.lane.subarray(0, ix.count)]);
        expect(t.laneCount).toBe(b.laneCount);
        for (const fold of [false, true]) {
          expect(t.rowCount(fold)).toBe(b.rowCount(fold));
          expect(t.rows(0, ix.count, fold)).toEqual(b.rows(0, ix.count, fold));
        }
        expect(t.kept()).not.toBeNull(); // a whole build again: kept again as it is
      }),
      { numRuns: 400 },
    );
    expect(restored).toBeGreaterThan(100);
  });

  it('grown in steps, is a build of the index exactly when it says so (a first read in steps)', () => {
    let whole = 0;
    fc.assert(
      fc.property(trees, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (parents, cuts) => {
        const ends = [...new Set(cuts.map((c) => 1 + (c % parents.length)))].sort((a, b) => a - b);
        const ix = indexOf(parents.slice(0, ends[0]));
        const t = TreeLayout.build(ix);
        for (const end of [...ends.slice(1), parents.length]) {
          for (let i = ix.count; i < end; i++)
            ix.add(`e${i}`, parents[i] < 0 ? NO_PARENT : parents[i], KIND.message, 0, 0, 0, 0);
          t.extend();
        }
        // Otherwise only when an entry placed in an earlier step, not its last, got its first child later.
        const late = parents.some((p, i) => p >= 0 && ix.firstChild[p] === i && ends.some((e) => p < e - 1 && i >= e));
        expect(t.isWhole).toBe(!late);
        if (!t.isWhole) return;
        whole++;
        const b = TreeLayout.build(ix);
        for (const fold of [false, true]) expect(t.rows(0, ix.count, fold)).toEqual(b.rows(0, ix.count, fold));
      }),
      { numRuns: 400 },
    );
    expect(whole).toBeGreaterThan(100);
  });

  it('keeps only a whole build, and refuses a kept layout that does not hold together', () => {
    const ix = indexOf([-1, 0, 1, 1, 3]);
    const t = TreeLayout.build(ix);
    const k = t.kept()!;
    expect(TreeLayout.fromKept(ix, k)?.rows(0, 5, false)).toEqual(t.rows(0, 5, false));
    const bad = (patch: Partial<typeof k>): boolean => TreeLayout.fromKept(ix, { ...k, ...patch }) === null;
    expect(bad({ lanes: Int32Array.from([0, 0, 0, 9, 1]) })).toBe(true); // a lane past the lane count
    expect(bad({ lanes: Int32Array.from([0, 0]) })).toBe(true); // not one per entry
    expect(bad({ count: 6, lanes: Int32Array.from([0, 0, 0, 1, 1, 0]) })).toBe(true); // more than the index
    expect(bad({ busy: [0, 7] })).toBe(true); // held past the entries
    expect(bad({ foldStart: Int32Array.from([0, 2, 2]) })).toBe(true); // rows out of order
    expect(bad({ foldStart: Int32Array.from([1, 2]) })).toBe(true); // not from the first entry
    // An append under the last entry keeps it a build's; one under an earlier leaf does not.
    ix.add('e5', 4, KIND.message, 0, 6, 50, 9);
    t.extend();
    expect(t.kept()?.count).toBe(6);
    ix.add('e6', 2, KIND.message, 0, 7, 60, 9);
    t.extend();
    expect(t.kept()).toBeNull();
  });

  it('lays out 1,000,000 entries and windows 60 rows deep inside them', () => {
    const n = 1_000_000;
    const ix = new LedgerIndex();
    for (let i = 0; i < n; i++) {
      const p = i === 0 ? NO_PARENT : i % 1000 === 0 ? i - 300 : i - 1;
      ix.add(`e${i}`, p, i % 7 === 3 || i % 7 === 4 ? KIND.receipt : KIND.message, 0, i + 1, i * 100, 99);
    }
    const t = TreeLayout.build(ix);
    const rows = t.rows(700_000, 60, false);
    expect(rows).toHaveLength(60);
    expect(t.rowCount(true)).toBeLessThan(n);
    expect(rows[0].index).toBe(700_000);
  });
});
