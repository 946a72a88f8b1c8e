import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_KINDS } from './entry-types';
import { linkEntries, type EntryArrays, type LinkProblem } from './index-links';
import { LedgerIndex, NO_PARENT, ORPHAN, UNKNOWN_KIND } from './ledger-index';

/** An index's arrays as a reader leaves them: parents earlier, offsets and lines increasing. */
function indexOf(parents: number[], kinds: number[]): LedgerIndex {
  const ix = new LedgerIndex();
  let offset = 0;
  parents.forEach((p, i) => {
    const length = 10 + ((i * 7) % 13);
    ix.add(`e${i}`, p, kinds[i], 0, 2 * i + 1, offset, length);
    offset += length + 1 + (i % 3);
  });
  return ix;
}

/** Fresh arrays to check and link (links -1, counts 0), from an index's first `n` entries. */
function arraysOf(ix: LedgerIndex, n: number): EntryArrays {
  return {
    parent: ix.parent.slice(0, n),
    kind: ix.kind.slice(0, n),
    offset: ix.offset.slice(0, n),
    length: ix.length.slice(0, n),
    line: ix.line.slice(0, n),
    firstChild: new Int32Array(n).fill(-1),
    lastChild: new Int32Array(n).fill(-1),
    nextSibling: new Int32Array(n).fill(-1),
    childCount: new Uint32Array(n),
  };
}

const links = (a: EntryArrays): number[][] =>
  [a.firstChild, a.lastChild, a.nextSibling, a.childCount].map((x) => [...x]);

/** Random sessions: parents earlier (or none, or orphans), any kind code a reader writes. */
const sessions = fc
  .array(fc.tuple(fc.nat(), fc.nat({ max: 9 }), fc.nat({ max: KNOWN_KINDS.length })), { minLength: 1, maxLength: 80 })
  .map((xs) => ({
    parents: xs.map(([n, r], i) => (i === 0 || r === 0 ? NO_PARENT : r === 1 ? ORPHAN : r < 6 ? i - 1 : n % i)),
    kinds: xs.map(([, , k]) => (k === KNOWN_KINDS.length ? UNKNOWN_KIND : k)),
  }));

/** One change that breaks a check (or may not: a same-value write), at entry `at`. */
const damages = fc.tuple(fc.nat(), fc.nat({ max: 9 }), fc.integer({ min: -3, max: 3 }));

function damage(a: EntryArrays, n: number, [where, what, by]: [number, number, number]): void {
  const i = where % n;
  switch (what) {
    case 0:
      a.parent[i] = i + by; // itself or later, or an earlier one
      break;
    case 1:
      a.parent[i] = -3 + by; // a negative that is no NO_PARENT / ORPHAN (or is one)
      break;
    case 2:
      a.kind[i] = KNOWN_KINDS.length + Math.abs(by); // past the known kinds, or the last one
      break;
    case 3:
      a.offset[i] += by; // overlapping the line before, or leaving a gap
      break;
    case 4:
      a.offset[i] = [NaN, Infinity, 0.5, -1][Math.abs(by) % 4];
      break;
    case 5:
      a.length[i] += 1000 * by; // the line past the covered bytes
      break;
    case 6:
      a.line[i] = i > 0 ? a.line[i - 1] + by : by; // not increasing
      break;
    case 7:
      a.line[i] += 1_000_000; // past the lines read
      break;
    default:
      a.offset[i] = 2 ** 53 + by; // huge (and, past 2^53, still an integer)
  }
}

describe('index links (a kept index restored)', () => {
  it('links every entry as LedgerIndex.add does', () => {
    fc.assert(
      fc.property(sessions, ({ parents, kinds }) => {
        const ix = indexOf(parents, kinds);
        const n = ix.count;
        const covered = ix.offset[n - 1] + ix.length[n - 1] + 1;
        const lines = ix.line[n - 1];
        const want = links({ ...arraysOf(ix, n), ...ixLinks(ix, n) }); // (what add wrote)
        const a = arraysOf(ix, n);
        expect(linkEntries(a, n, covered, lines)).toBeNull();
        expect(links(a)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it('finds the first problem of arrays damaged anywhere, as the checks read one by one say', () => {
    const seen = new Set<string | null>();
    fc.assert(
      fc.property(sessions, fc.array(damages, { minLength: 1, maxLength: 3 }), fc.nat({ max: 2 }), (s, ds, slack) => {
        const ix = indexOf(s.parents, s.kinds);
        const n = ix.count;
        const covered = ix.offset[n - 1] + ix.length[n - 1] + slack; // 0 short of the last `\n` …
        const lines = ix.line[n - 1] + slack - 1;
        const damaged = arraysOf(ix, n);
        for (const d of ds) damage(damaged, n, d);
        const problem = linkEntries(damaged, n, covered, lines);
        expect(problem).toBe(firstProblem(damaged, n, covered, lines));
        if (problem === null) {
          // (a damage may leave the arrays valid, its parents other: as add links those)
          const again = new LedgerIndex();
          for (let i = 0; i < n; i++) again.add(`e${i}`, damaged.parent[i], damaged.kind[i], 0, 1, 0, 1);
          expect(links(damaged)).toEqual(links({ ...damaged, ...ixLinks(again, n) }));
        }
        seen.add(problem);
      }),
      { numRuns: 1000 },
    );
    // Every check was met failing (and passing).
    expect([...seen].sort()).toEqual([null, 'kind codes', 'line numbers', 'offsets', 'parent links'].sort());
  });
});

/** The first problem, the checks as the restore states them, entry by entry. */
function firstProblem(a: EntryArrays, n: number, covered: number, lines: number): LinkProblem | null {
  for (let i = 0; i < n; i++) {
    const p = a.parent[i];
    const previousEnd = i === 0 ? 0 : a.offset[i - 1] + a.length[i - 1] + 1;
    if (![NO_PARENT, ORPHAN].includes(p) && !(p >= 0 && p < i)) return 'parent links';
    if (a.kind[i] >= KNOWN_KINDS.length && a.kind[i] !== UNKNOWN_KIND) return 'kind codes';
    const off = a.offset[i];
    if (!Number.isInteger(off) || off < previousEnd || off + a.length[i] >= covered) return 'offsets';
    if (a.line[i] <= (i === 0 ? 0 : a.line[i - 1]) || a.line[i] > lines) return 'line numbers';
  }
  return null;
}

/** The links LedgerIndex.add made for the first `n` entries. */
function ixLinks(
  ix: LedgerIndex,
  n: number,
): Pick<EntryArrays, 'firstChild' | 'lastChild' | 'nextSibling' | 'childCount'> {
  return {
    firstChild: ix.firstChild.slice(0, n),
    lastChild: ix.lastChild.slice(0, n),
    nextSibling: ix.nextSibling.slice(0, n),
    childCount: ix.childCount.slice(0, n),
  };
}
