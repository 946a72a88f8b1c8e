/**
 * The context series as it travels: its points as columns. As objects, a 100 MB session's series
 * was ~560 bytes a point, most of it the same keys again and ids written out twice (a point's leaf
 * is usually its measured answer's entry too); parsed on the page's main thread as ~3,800 objects.
 * As columns the keys are written once, each id once (points name it by index), numbers as the
 * difference to the point before (small), and a time as milliseconds. `unpackPoints` gives back
 * exactly the points `packPoints` was given (series-packed.test.ts), so the chart, the delta
 * (series-delta.ts) and every other reader keep working on `ContextPoint`s.
 */
import {
  PACKED_COLUMNS,
  type ContextPoint,
  type ContextSeries,
  type PackedColumn,
  type PackedContextSeries,
  type PackedPoints,
} from './api-series';
import { ownValue } from './own-key';

const isoOf = (ms: number): string | null => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);

/** Differences to the value before, in place; exact for safe integers only (checked by the caller). */
function deltas(values: number[]): number[] {
  for (let i = values.length - 1; i > 0; i--) values[i] -= values[i - 1];
  return values;
}

/** The running sums of `values`, or null when one is not a safe integer (nor a number at all). */
function sums(values: readonly number[]): number[] | null {
  const out = new Array<number>(values.length);
  let acc = 0;
  for (let i = 0; i < values.length; i++) {
    acc += values[i];
    if (!Number.isSafeInteger(acc)) return null;
    out[i] = acc;
  }
  return out;
}

/**
 * Points read one at a time: a built series' columns (the backend's `PointColumns`) are packed
 * without making every point of a page an object at once.
 */
export interface PointList {
  readonly length: number;
  point(i: number): ContextPoint;
}

/** The points as columns. Throws on a number that is not a safe integer (the series has none). */
export function packPoints(points: readonly ContextPoint[] | PointList): PackedPoints {
  const n = points.length;
  const pointAt = 'point' in points ? (i: number) => points.point(i) : (i: number) => points[i];
  const ids: string[] = [];
  const at = new Map<string, number>();
  const idOf = (id: string): number => {
    let i = at.get(id);
    if (i === undefined) {
      i = ids.length;
      ids.push(id);
      at.set(id, i);
    }
    return i;
  };
  const cols = PACKED_COLUMNS.map(() => new Array<number>(n));
  const lists: number[] = [];
  const ms: number[] = [];
  const texts = new Array<string>(n);
  let isoTs = true;
  for (let i = 0; i < n; i++) {
    const p = pointAt(i);
    const m = p.measured;
    // In the order of PACKED_COLUMNS.
    const row = [
      idOf(p.leaf),
      p.pos,
      p.turnId === null ? 0 : idOf(p.turnId) + 1,
      p.parts.system,
      p.parts.tools,
      p.parts.full,
      p.parts.card,
      p.parts.packet,
      p.parts.reset,
      p.parts.preamble,
      p.parts.tail,
      p.parts.open,
      p.total,
      p.available,
      p.overBudget,
      p.turns.full,
      p.turns.card,
      p.turns.packet,
      p.markers.reset === null ? 0 : idOf(p.markers.reset) + 1,
      p.markers.packets.length,
      p.markers.degraded.length,
      p.markers.overBudget ? 1 : 0,
      m === null ? 0 : idOf(m.entryId) + 1,
      m === null ? 0 : m.tokens,
      m === null ? 0 : idOf(m.answeredId),
      m === null ? 0 : m.estimated,
    ];
    row.forEach((v, k) => {
      if (!Number.isSafeInteger(v))
        throw new Error(`a series point's ${PACKED_COLUMNS[k]} is not a safe integer: ${v}`);
      cols[k][i] = v;
    });
    for (const id of p.markers.packets) lists.push(idOf(id));
    for (const id of p.markers.degraded) lists.push(idOf(id));
    texts[i] = p.ts;
    const t = Date.parse(p.ts);
    if (isoTs && isoOf(t) === p.ts) ms.push(t);
    else isoTs = false;
  }
  return {
    n,
    ids,
    cols: Object.fromEntries(PACKED_COLUMNS.map((c, k) => [c, deltas(cols[k])])) as Record<PackedColumn, number[]>,
    tsMs: isoTs ? deltas(ms) : null,
    tsText: isoTs ? null : texts,
    lists,
  };
}

/** A packed answer that does not hold together (lengths, indexes): the backend and client disagree. */
function bad(what: string): never {
  throw new Error(`a packed context series is malformed: ${what}`);
}

/** The points `packPoints` was given; checks every length and index on the way (the answer crosses a process). */
export function unpackPoints(packed: PackedPoints): ContextPoint[] {
  const { n, ids } = packed;
  if (!Number.isSafeInteger(n) || n < 0) bad('point count');
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) bad('ids');
  if (typeof packed.cols !== 'object' || packed.cols === null) bad('columns');
  const col = PACKED_COLUMNS.map((c) => {
    const v = ownValue(packed.cols, c);
    if (!Array.isArray(v) || v.length !== n) bad(`column ${c}`);
    return sums(v) ?? bad(`column ${c}`);
  });
  let ts: string[];
  if (packed.tsMs) {
    if (packed.tsMs.length !== n) bad('ts');
    ts = (sums(packed.tsMs) ?? bad('ts')).map((t) => isoOf(t) ?? bad('ts'));
  } else {
    if (!packed.tsText || packed.tsText.length !== n || packed.tsText.some((t) => typeof t !== 'string')) bad('ts');
    ts = packed.tsText;
  }
  const id = (i: number): string => (Number.isInteger(i) && i >= 0 && i < ids.length ? ids[i] : bad(`id ${i}`));
  const idOrNull = (i: number): string | null => (i === 0 ? null : id(i - 1));
  const lists = packed.lists;
  if (!Array.isArray(lists)) bad('lists');
  let li = 0;
  const take = (count: number): string[] => {
    if (count < 0 || li + count > lists.length) bad('lists');
    const out = lists.slice(li, li + count).map(id);
    li += count;
    return out;
  };
  const {
    leaf,
    pos,
    turnId,
    system,
    tools,
    full,
    card,
    packet,
    reset,
    preamble,
    tail,
    open,
    total,
    available,
    overBudget,
    turnsFull,
    turnsCard,
    turnsPacket,
    markReset,
    markPackets,
    markDegraded,
    markOver,
    measuredEntry,
    measuredTokens,
    measuredAnswered,
    measuredEstimated,
  } = Object.fromEntries(PACKED_COLUMNS.map((c, k) => [c, col[k]])) as Record<PackedColumn, number[]>;
  const points = new Array<ContextPoint>(n);
  for (let i = 0; i < n; i++) {
    const packets = markPackets[i] === 0 ? [] : take(markPackets[i]);
    const degraded = markDegraded[i] === 0 ? [] : take(markDegraded[i]);
    points[i] = {
      leaf: id(leaf[i]),
      pos: pos[i],
      ts: ts[i],
      turnId: idOrNull(turnId[i]),
      parts: {
        system: system[i],
        tools: tools[i],
        full: full[i],
        card: card[i],
        packet: packet[i],
        reset: reset[i],
        preamble: preamble[i],
        tail: tail[i],
        open: open[i],
      },
      total: total[i],
      available: available[i],
      overBudget: overBudget[i],
      turns: { full: turnsFull[i], card: turnsCard[i], packet: turnsPacket[i] },
      markers: { reset: idOrNull(markReset[i]), packets, degraded, overBudget: markOver[i] === 1 },
      measured:
        measuredEntry[i] === 0
          ? null
          : {
              entryId: id(measuredEntry[i] - 1),
              tokens: measuredTokens[i],
              answeredId: id(measuredAnswered[i]),
              estimated: measuredEstimated[i],
            },
    };
  }
  if (li !== lists.length) bad('lists');
  return points;
}

/** The answer with its points as columns (the backend's side). */
export function packSeries(
  series: Omit<ContextSeries, 'points'> & { points: ContextSeries['points'] | PointList },
): PackedContextSeries {
  return { ...series, points: packPoints(series.points) };
}

/** The series an answer packs (the client's side); throws on an answer that does not hold together. */
export function unpackSeries(packed: PackedContextSeries): ContextSeries {
  return { ...packed, points: unpackPoints(packed.points) };
}
