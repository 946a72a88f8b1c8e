/**
 * A built series' points, kept as columns while it is built and while its pages are asked
 * (`context-series.ts`). As one object each (with its parts, counts, markers and measured input)
 * a point took ~660 bytes of the core worker's heap; a 1 GiB chain's 39,000 points held ~26 MiB
 * there, old-generation memory that V8 then grew the heap around. Here a point is a row of
 * numbers in one typed array and of references in one array (its ids and time are strings the
 * index and the chain's scan hold already): ~250 bytes. A point is made an object again only
 * for the page that travels (`page`), exactly as it was pushed (series-columns.test.ts).
 */
import type { ContextParts, ContextPoint } from '../../shared/api-series';
import type { PointList } from '../../shared/series-packed';

/** Where each number of a point is in its row of `nums`. */
const N_POS = 0;
/** A point's nine parts, from system to open in the order `ContextParts` declares them (`writeParts`, `readParts`). */
const N_PARTS = 1;
const N_TOTAL = N_PARTS + 9;
const N_AVAILABLE = N_TOTAL + 1;
const N_OVER = N_AVAILABLE + 1;
const N_FULL = N_OVER + 1;
const N_CARD = N_FULL + 1;
const N_PACKET = N_CARD + 1;
/** Bit 1: markers.overBudget; bit 2: a measured input. */
const N_FLAGS = N_PACKET + 1;
const N_M_TOKENS = N_FLAGS + 1;
const N_M_ESTIMATED = N_M_TOKENS + 1;
const N_PACKETS = N_M_ESTIMATED + 1;
const N_DEGRADED = N_PACKETS + 1;
/** Where the point's marker ids start in `lists`. */
const N_LISTS = N_DEGRADED + 1;
/** What the point's answer may take as it travels (`pointBytes` of context-series.ts, given at push). */
const N_BYTES = N_LISTS + 1;
const NUMS = N_BYTES + 1;

const F_OVER = 1;
const F_MEASURED = 2;

/** The string fields of a point, in row order. */
const S_LEAF = 0;
const S_TS = 1;
const S_TURN = 2;
const S_RESET = 3;
const S_M_ENTRY = 4;
const S_M_ANSWERED = 5;
const STRS = 6;

export class PointColumns {
  private n = 0;
  /** NUMS numbers a point (Float64: every safe integer exactly, whatever its size). */
  private nums = new Float64Array(NUMS * 64);
  private strs: (string | null)[] = [];
  /** Every point's marker packets then degraded turns, in order. */
  private lists: string[] = [];

  get length(): number {
    return this.n;
  }

  /** Adds `p` as the next point; `bytes` is what it may take as it travels. */
  push(p: ContextPoint, bytes: number): void {
    if ((this.n + 1) * NUMS > this.nums.length) {
      const grown = new Float64Array(this.nums.length * 2);
      grown.set(this.nums);
      this.nums = grown;
    }
    const o = this.n * NUMS;
    const v = this.nums;
    const m = p.measured;
    v[o + N_POS] = p.pos;
    writeParts(v, o + N_PARTS, p.parts);
    v[o + N_TOTAL] = p.total;
    v[o + N_AVAILABLE] = p.available;
    v[o + N_OVER] = p.overBudget;
    v[o + N_FULL] = p.turns.full;
    v[o + N_CARD] = p.turns.card;
    v[o + N_PACKET] = p.turns.packet;
    v[o + N_FLAGS] = (p.markers.overBudget ? F_OVER : 0) | (m ? F_MEASURED : 0);
    v[o + N_M_TOKENS] = m ? m.tokens : 0;
    v[o + N_M_ESTIMATED] = m ? m.estimated : 0;
    v[o + N_PACKETS] = p.markers.packets.length;
    v[o + N_DEGRADED] = p.markers.degraded.length;
    v[o + N_LISTS] = this.lists.length;
    v[o + N_BYTES] = bytes;
    for (const id of p.markers.packets) this.lists.push(id);
    for (const id of p.markers.degraded) this.lists.push(id);
    this.strs.push(p.leaf, p.ts, p.turnId, p.markers.reset, m ? m.entryId : null, m ? m.answeredId : null);
    this.n++;
  }

  /** The chain position of point i. */
  pos(i: number): number {
    return this.nums[i * NUMS + N_POS];
  }

  /** What point i may take as it travels (as given to `push`). */
  bytes(i: number): number {
    return this.nums[i * NUMS + N_BYTES];
  }

  /** Every point's chain position, in order. */
  positions(): Float64Array {
    const out = new Float64Array(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.pos(i);
    return out;
  }

  /** Points [from, to), each made the object it was pushed as when it is read (`packPoints` reads one at a time). */
  page(from: number, to: number): PointList {
    const start = Math.max(0, from);
    const length = Math.max(0, Math.min(to, this.n) - start);
    return { length, point: (i) => this.point(start + i) };
  }

  /** Point i as the object it was pushed as. */
  point(i: number): ContextPoint {
    if (!(Number.isInteger(i) && i >= 0 && i < this.n)) throw new RangeError(`no series point ${i} (${this.n} kept)`);
    const o = i * NUMS;
    const v = this.nums;
    const s = i * STRS;
    const str = this.strs;
    const l = v[o + N_LISTS];
    const packets = v[o + N_PACKETS];
    const degraded = v[o + N_DEGRADED];
    const flags = v[o + N_FLAGS];
    return {
      leaf: str[s + S_LEAF] as string,
      pos: v[o + N_POS],
      ts: str[s + S_TS] as string,
      turnId: str[s + S_TURN],
      parts: readParts(v, o + N_PARTS),
      total: v[o + N_TOTAL],
      available: v[o + N_AVAILABLE],
      overBudget: v[o + N_OVER],
      turns: { full: v[o + N_FULL], card: v[o + N_CARD], packet: v[o + N_PACKET] },
      markers: {
        reset: str[s + S_RESET],
        packets: this.lists.slice(l, l + packets),
        degraded: this.lists.slice(l + packets, l + packets + degraded),
        overBudget: (flags & F_OVER) !== 0,
      },
      measured:
        (flags & F_MEASURED) !== 0
          ? {
              entryId: str[s + S_M_ENTRY] as string,
              tokens: v[o + N_M_TOKENS],
              answeredId: str[s + S_M_ANSWERED] as string,
              estimated: v[o + N_M_ESTIMATED],
            }
          : null,
    };
  }
}

function writeParts(v: Float64Array, at: number, parts: ContextParts): void {
  v[at] = parts.system;
  v[at + 1] = parts.tools;
  v[at + 2] = parts.full;
  v[at + 3] = parts.card;
  v[at + 4] = parts.packet;
  v[at + 5] = parts.reset;
  v[at + 6] = parts.preamble;
  v[at + 7] = parts.tail;
  v[at + 8] = parts.open;
}

function readParts(v: Float64Array, at: number): ContextParts {
  return {
    system: v[at],
    tools: v[at + 1],
    full: v[at + 2],
    card: v[at + 3],
    packet: v[at + 4],
    reset: v[at + 5],
    preamble: v[at + 6],
    tail: v[at + 7],
    open: v[at + 8],
  };
}
