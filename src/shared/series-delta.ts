/**
 * The context series as a delta: a client names the series it holds (`HeldSeries`), the backend
 * answers how many of its leading points stay (`ContextSeries.kept`) and sends only the rest, or
 * as much of it as one reply carries (`ContextSeries.rest`: the client asks again for the others).
 * Both sides live here so that what the client asks with and what it puts together agree.
 */
import type { ContextSeries, HeldSeries } from './api-series';

/** What to name in a request for a series that may keep the points of `series` (null: hold nothing). */
export function heldOf(series: ContextSeries | null): HeldSeries | undefined {
  if (!series || series.kept !== 0 || series.points.length === 0) return undefined;
  return { basis: series.basis, leaf: series.leaf, points: series.points.length };
}

/**
 * The whole series an answer stands for: its own points after the `kept` leading points of `held`
 * (the series the request named). An answer that keeps none is the whole series already.
 */
export function withHeld(held: ContextSeries | null, answer: ContextSeries): ContextSeries {
  if (answer.kept === 0) return answer;
  if (!held || held.kept !== 0 || answer.kept > held.points.length) {
    // The backend keeps only what the request said the client holds: this is a client bug.
    throw new Error(`a series delta keeps ${answer.kept} points of a held series of ${held?.points.length ?? 0}`);
  }
  return { ...answer, points: held.points.slice(0, answer.kept).concat(answer.points), kept: 0 };
}

/** Pages one series may come in: far more than any chain needs (a page carries thousands of points). */
const MAX_PAGES = 10_000;

/**
 * The whole series: `ask`'s answer put together with `held` (the series the client holds, named in
 * the request), then, while an answer stops short of the end, asked again naming what it now holds.
 * An answer that keeps none starts over (the session was read again meanwhile).
 */
export async function wholeSeries(
  held: ContextSeries | null,
  ask: (held: HeldSeries | undefined) => Promise<ContextSeries>,
): Promise<ContextSeries> {
  let series = withHeld(held, await ask(heldOf(held)));
  for (let page = 1; series.rest > 0; page++) {
    if (page >= MAX_PAGES) throw new Error(`the series did not end after ${MAX_PAGES} pages`);
    series = withHeld(series, await ask(heldOf(series)));
  }
  return series;
}

/**
 * Backend side: how many leading points of the new series, whose chain is `chain` (entry indices,
 * root first) with points at chain positions `positions`, are those of the held series whose chain
 * is `heldChain`. A point at position p depends on the chain up to p + 1 (the entry after it says
 * whether a turn ends there), so the points kept are those before the fork's last common entry.
 */
export function keptPoints(
  chain: ArrayLike<number>,
  heldChain: ArrayLike<number>,
  positions: ArrayLike<number>,
  heldPoints: number,
): number {
  const n = Math.min(chain.length, heldChain.length);
  let fork = 0;
  while (fork < n && chain[fork] === heldChain[fork]) fork++;
  let kept = 0;
  while (kept < positions.length && positions[kept] <= fork - 2) kept++;
  // The client holds the held series' first `heldPoints` points (all of it, or the pages it has).
  return Math.min(kept, heldPoints);
}
