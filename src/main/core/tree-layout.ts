import { grow } from './growable';
import { STORY_KINDS } from '../../shared/ledger-types';
import { kindCode, type LedgerIndex } from './ledger-index';

/**
 * The git-graph lane layout of a session tree. Rows are entries in file order.
 *
 * Drawing model (what a row's fields mean):
 * - the dot sits in `lane`; a line comes into it from above when the entry has a
 *   parent, and leaves it downward when one of its children continues the lane
 *   (`children > forkTo.length`);
 * - `forkTo`: lanes of children that branch off here — the line leaves the dot at
 *   the bottom of this row, bends into that lane, and runs down it to the child;
 * - `through`: lanes whose line passes this row from top to bottom;
 * - `forkFrom`: the parent's lane when this entry sits in another lane.
 *
 * Lanes: the first child continues its parent's lane when nothing used that lane
 * since the parent; any other entry takes the lowest lane free from the row under
 * its parent down to its own row. A lane is held from there until its last entry,
 * and while a laid-out entry waits for its first child. Layout is one pass over
 * typed arrays; an append places only the new entries (`extend`), so an append
 * never moves an entry already drawn. Windows of rows are produced from sparse
 * checkpoints of the crossing edges, so a window costs O(window + CHECKPOINT).
 */

const CHECKPOINT = 512;

const STORY_CODES = STORY_KINDS.map(kindCode);

/** Audit kinds (shared/ledger-types.ts STORY_KINDS), by code: every kind but the story's, unknown kinds too. */
function isAuditKind(code: number): boolean {
  return !STORY_CODES.includes(code);
}

export interface LayoutRow {
  row: number;
  /** First entry of the row (the only one unless folded). */
  index: number;
  /** Last entry of the row (equals `index` unless folded). */
  lastIndex: number;
  lane: number;
  through: number[];
  forkFrom: number | null;
  forkTo: number[];
  folded: { count: number; kinds: string[] } | null;
}

/**
 * A layout as plain data, kept with a session's index (laying out a
 * 36k-entry session took 11-29 ms of a reopen's first rows, in code still cold). Only a layout
 * that is what `build` gives the index as it was is kept: restored, it is that build.
 */
export interface KeptLayout {
  count: number;
  /** Lane of each of the `count` entries. */
  lanes: Int32Array;
  /** Per lane, the last row it is held to (see TreeLayout.busy). */
  busy: number[];
  /** Folded mode: first entry of each row. */
  foldStart: Int32Array;
}

export class TreeLayout {
  /** Lane of each entry. */
  lane = new Int32Array(1024);
  /** Entries laid out so far. */
  count = 0;
  /**
   * Laid out as `build` lays the index out. Lanes depend on what was known when an entry was
   * placed: a build reserves an entry's lane down to its first child, and an append never moves
   * an entry already placed, so an append that gives its first child to an entry placed before
   * (other than the last one, whose reservation is made then) lays out otherwise than a build.
   * Only a layout that is a build's is kept, and a first read in steps is built again only if
   * its steps made it otherwise.
   */
  private whole = false;
  /** Entries this layout placed itself (the work-count tests: a restored one places only the new). */
  placed = 0;
  /** Per lane: the last row it is held to (a dot, a line, or a reservation for a first child). */
  private busy: number[] = [];
  /** Crossing edges (child indices) at row k * CHECKPOINT; computed lazily, dropped on a far append. */
  private checkpoints: Int32Array[] = [new Int32Array(0)];
  /** Folded mode: first entry of each row. */
  private foldStart = new Int32Array(1024);
  private foldRows = 0;

  private constructor(private readonly index: LedgerIndex) {}

  /** Lays out every entry of an index (once per opened ledger). */
  static build(index: LedgerIndex): TreeLayout {
    const t = new TreeLayout(index);
    t.whole = true;
    t.extend();
    return t;
  }

  /** Whether this is the layout `build` gives its index (see `whole`). */
  get isWhole(): boolean {
    return this.whole;
  }

  /**
   * This layout as plain data, or null when it is not a whole build. Its lanes are a view (a
   * placed entry's lane never changes; a kept index is written after this returns), its fold
   * rows a copy (an append folds rows again in place).
   */
  kept(): KeptLayout | null {
    if (!this.whole) return null;
    return {
      count: this.count,
      lanes: this.lane.subarray(0, this.count),
      busy: [...this.busy],
      foldStart: this.foldStart.slice(0, this.foldRows),
    };
  }

  /**
   * The layout `build` gives `index`, from a layout kept when the index had `kept.count` of its
   * entries (a reopen: the ones read since are placed as `extend` places them), or null when that
   * is not a build's (see `whole`) or `kept` does not hold together: then build it.
   */
  static fromKept(index: LedgerIndex, kept: KeptLayout): TreeLayout | null {
    const n = kept.count;
    if (!isKeptLayout(kept, index.count)) return null;
    const t = new TreeLayout(index);
    t.lane = grow(t.lane, n, Int32Array);
    t.lane.set(kept.lanes);
    t.busy = [...kept.busy];
    t.foldStart = grow(t.foldStart, kept.foldStart.length, Int32Array);
    t.foldStart.set(kept.foldStart);
    t.foldRows = kept.foldStart.length;
    t.count = n;
    t.whole = true;
    t.extend();
    return t.whole ? t : null;
  }

  get laneCount(): number {
    return this.busy.length;
  }

  /**
   * Places the entries appended to the index since the last call, in file order; earlier rows keep
   * their lanes. Notes whether the layout is still a build's (see `whole`).
   */
  extend(): void {
    const ix = this.index;
    const from = this.count;
    if (ix.count <= from) return;
    this.lane = grow(this.lane, ix.count, Int32Array);
    this.placed += ix.count - from;
    if (from > 0) {
      // The last entry placed, now a parent: its reservation down to its first child, as a build
      // makes it (see place); nothing was placed after it that the reservation would have moved.
      const last = from - 1;
      const fc = ix.firstChild[last];
      const l = this.lane[last];
      if (fc > last && this.busy[l] === last) this.busy[l] = fc;
    }
    let refold = from > 0 ? from - 1 : 0;
    for (let i = from; i < ix.count; i++) {
      this.place(i);
      const p = ix.parent[i];
      if (p >= 0 && p < from) {
        // An earlier entry's first child: a build reserved its lane down to here (see `whole`).
        if (p < from - 1 && ix.firstChild[p] === i) this.whole = false;
        refold = Math.min(refold, p);
        // The new edge crosses rows p+1 .. i-1: checkpoints past p are stale.
        const keep = Math.floor(p / CHECKPOINT) + 1;
        if (this.checkpoints.length > keep) this.checkpoints.length = keep;
      }
    }
    this.count = ix.count;
    this.refoldFrom(from === 0 ? 0 : refold);
  }

  private place(i: number): void {
    const ix = this.index;
    const busy = this.busy;
    const p = ix.parent[i];
    let lane: number;
    if (p >= 0) {
      const lp = this.lane[p];
      // busy === i: reserved for us while the parent waited; busy === p: untouched since.
      if (ix.firstChild[p] === i && (busy[lp] === p || busy[lp] === i)) lane = lp;
      else lane = this.lowestFree(p);
    } else lane = this.lowestFree(i - 1);
    if (lane === busy.length) busy.push(i);
    this.lane[i] = lane;
    const fc = ix.firstChild[i];
    busy[lane] = fc > i ? fc : i;
  }

  /** The lowest lane not held after row `row`, or a new lane. */
  private lowestFree(row: number): number {
    const busy = this.busy;
    for (let l = 0; l < busy.length; l++) if (busy[l] <= row) return l;
    return busy.length;
  }

  /** Rows in a mode. */
  rowCount(foldAudit: boolean): number {
    return foldAudit ? this.foldRows : this.count;
  }

  /** The row an entry is drawn on (in folded mode, the row of its run). */
  findRow(i: number, foldAudit: boolean): number {
    if (!foldAudit) return i;
    let lo = 0;
    let hi = this.foldRows - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.foldStart[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** First and last entry of a row. */
  rowEntries(row: number, foldAudit: boolean): [number, number] {
    if (!foldAudit) return [row, row];
    const last = row + 1 < this.foldRows ? this.foldStart[row + 1] - 1 : this.count - 1;
    return [this.foldStart[row], last];
  }

  /**
   * Refolds from the row holding entry `from`: an append can extend the last run,
   * or split a run by giving one of its entries a second child.
   */
  private refoldFrom(from: number): void {
    const ix = this.index;
    // One row back: the old active leaf, kept unfolded, may now join the run above it.
    let row = this.foldRows > 0 ? Math.max(0, this.findRow(from, true) - 1) : 0;
    let i = row < this.foldRows ? this.foldStart[row] : 0;
    const n = this.count;
    this.foldStart = grow(this.foldStart, n, Int32Array);
    const leaf = n - 1;
    while (i < n) {
      let j = i;
      // A straight run: each the only child of the one before; the active leaf stays visible.
      if (isAuditKind(ix.kind[i]) && i !== leaf) {
        while (j + 1 < leaf && isAuditKind(ix.kind[j + 1]) && ix.parent[j + 1] === j && ix.childCount[j] === 1) j++;
      }
      this.foldStart[row++] = i;
      i = j + 1;
    }
    this.foldRows = row;
  }

  /** Edges (child indices) crossing row `r`: parent above r, child below. */
  private crossingAt(r: number): Set<number> {
    const k = Math.floor(r / CHECKPOINT);
    while (this.checkpoints.length <= k) {
      const c = this.checkpoints.length - 1;
      const s = new Set(this.checkpoints[c]);
      this.sweep(s, c * CHECKPOINT, (c + 1) * CHECKPOINT);
      this.checkpoints.push(Int32Array.from(s));
    }
    const s = new Set(this.checkpoints[k]);
    this.sweep(s, k * CHECKPOINT, r);
    return s;
  }

  /** Moves a crossing set from row `from` to row `to` (to ≥ from). */
  private sweep(s: Set<number>, from: number, to: number): void {
    const ix = this.index;
    for (let x = from; x < to; x++) {
      s.delete(x + 1);
      for (let c = ix.firstChild[x]; c >= 0; c = ix.nextSibling[c]) if (c > x + 1 && c < this.count) s.add(c);
    }
  }

  /** Lanes of the children of `i` that branch into another lane. */
  private forkTo(i: number): number[] {
    const ix = this.index;
    const out: number[] = [];
    for (let c = ix.firstChild[i]; c >= 0; c = ix.nextSibling[c]) {
      if (c < this.count && this.lane[c] !== this.lane[i]) out.push(this.lane[c]);
    }
    return out;
  }

  /** A window of rows with their lanes, in O(window + CHECKPOINT). */
  rows(start: number, count: number, foldAudit: boolean): LayoutRow[] {
    const total = this.rowCount(foldAudit);
    const end = Math.min(total, start + count);
    if (start >= end) return [];
    const ix = this.index;
    const out: LayoutRow[] = [];
    let [first] = this.rowEntries(start, foldAudit);
    const s = this.crossingAt(first);
    for (let row = start; row < end; row++) {
      const [a, b] = this.rowEntries(row, foldAudit);
      this.sweep(s, first, a);
      first = a;
      const p = ix.parent[a];
      const through = Array.from(s, (c) => this.lane[c]).sort((x, y) => x - y);
      let folded: LayoutRow['folded'] = null;
      if (b > a) {
        const kinds = new Set<string>();
        for (let j = a; j <= b; j++) kinds.add(ix.kindName(j));
        folded = { count: b - a + 1, kinds: [...kinds] };
      }
      out.push({
        row,
        index: a,
        lastIndex: b,
        lane: this.lane[a],
        through,
        forkFrom: p >= 0 && this.lane[p] !== this.lane[a] ? this.lane[p] : null,
        forkTo: this.forkTo(b),
        folded,
      });
    }
    return out;
  }
}

/** A kept layout of at most `count` entries that holds together: lanes in range, fold rows in order. */
function isKeptLayout(k: KeptLayout, count: number): boolean {
  const n = k.count;
  const lanes = k.busy.length;
  if (!Number.isInteger(n) || n < 0 || n > count || k.lanes.length !== n || lanes > n) return false;
  for (let l = 0; l < lanes; l++) {
    const b = k.busy[l];
    if (!Number.isInteger(b) || b < 0 || b >= n) return false;
  }
  // Plain loops (a reopen runs them cold): a lane is a number below the lane count.
  const ln = k.lanes;
  for (let i = 0; i < n; i++) if (ln[i] < 0 || ln[i] >= lanes) return false;
  const f = k.foldStart;
  if (f.length > n || (n > 0 && f[0] !== 0)) return false;
  for (let r = 1; r < f.length; r++) if (f[r] <= f[r - 1] || f[r] >= n) return false;
  return true;
}
