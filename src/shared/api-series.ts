/**
 * The API of the context over time (`getContextSeries`, a feature of api-features.ts): the
 * series of a leaf's projected context along its chain, as it travels packed, and its requests.
 * Plain types only: the renderer imports this file.
 */
import type { LeafRequest } from './leaf-request';

/** The parts a projected context is stacked from (tokens under the request's profile). */
export interface ContextParts {
  system: number;
  tools: number;
  /** Closed turns at Full fidelity. */
  full: number;
  card: number;
  packet: number;
  reset: number;
  preamble: number;
  tail: number;
  open: number;
}

export const CONTEXT_PARTS: readonly (keyof ContextParts)[] = [
  'system',
  'tools',
  'reset',
  'preamble',
  'full',
  'card',
  'packet',
  'open',
  'tail',
];

/** The measured input of the model call that answered at a point, beside the estimate for that call. */
export interface MeasuredInput {
  /** The assistant message whose `meta.usage` this is: the point's turn's newest answer with a usage. */
  entryId: string;
  /** `input_tokens + cache_read_tokens + cache_write_tokens`. */
  tokens: number;
  /** The entry that message answered (its parent): the leaf whose projection the model was sent. */
  answeredId: string;
  /** Projected total (same plan, profile, overrides) at `answeredId`. */
  estimated: number;
}

/** One point of the series: the projected context of one leaf along the chain. */
export interface ContextPoint {
  /** The point's leaf: a turn's last entry on the chain, or the requested leaf itself (the last point). */
  leaf: string;
  /** Chain position of `leaf` (0 = root). */
  pos: number;
  ts: string;
  /** The turn the point ends (its directive's id), or null at a point before any directive. */
  turnId: string | null;
  parts: ContextParts;
  /** Sum of `parts` (equals the projection's `tokens.total` at this leaf). */
  total: number;
  /** §6 `available` at this leaf (may be negative). */
  available: number;
  overBudget: number;
  /** Closed turns by fidelity under the plan at this point. */
  turns: { full: number; card: number; packet: number };
  markers: {
    /** Id of a reset that applies here and did not at the previous point. */
    reset: string | null;
    /** Packets applied here that were not at the previous point. */
    packets: string[];
    /** Turns at Card here that were at Full at the previous point. */
    degraded: string[];
    overBudget: boolean;
  };
  measured: MeasuredInput | null;
}

/** The bytes per token that best fits the measured inputs (least squares). */
export interface BytesPerTokenFit {
  /** Points with a measurement that took part. */
  points: number;
  /** Unrounded best fit, or null with no usable measurement. */
  bytesPerToken: number | null;
  /** `bytesPerToken` rounded to the profile's whole-number field (1…1000), ready to apply. */
  suggested: number | null;
  /** 1 − SS_res/SS_tot of the estimates at `suggested` against the measured figures (null under 2 points). */
  r2: number | null;
  /** Mean |estimate − measured| / measured at `suggested` and at the request's bytes per token. */
  meanRelErrorSuggested: number | null;
  meanRelErrorCurrent: number | null;
  /**
   * Why no bytes per token fits measurements there are (null when one fits, or none were
   * measured): the measured inputs do not rise above the estimate's fixed part, on average
   * `meanMeasured` against `meanFixed` tokens.
   */
  cannotFit: { reason: 'not_above_fixed'; meanMeasured: number; meanFixed: number } | null;
}

export interface ContextSeries {
  leaf: string;
  window: number;
  reserve: number;
  /** In chain order; the last one is the leaf. */
  points: ContextPoint[];
  fit: BytesPerTokenFit;
  /**
   * Counted work: full projections the series ran (points its per-turn figures cannot
   * describe), and whether the chain was scanned (false: a kept scan was reused).
   */
  work: { projections: number; points: number; scanned: boolean };
  /**
   * What the points were built from (the ledger's reading, the plan, profile and overrides), opaque
   * to the client: named back in `HeldSeries.basis`, so the backend can tell a held series is still valid.
   */
  basis: string;
  /**
   * Leading points of the request's `held` series this answer keeps: `points` holds only the ones
   * after them (0: `points` is the whole series). See `series-delta.ts` to put the two together.
   */
  kept: number;
  /**
   * Points of the whole series after this answer's (0: it ends the series). A long chain's series
   * is sent in pages, each under what one reply may carry: the client asks again, naming what it
   * then holds (`wholeSeries` in series-delta.ts).
   */
  rest: number;
}

/** The numeric columns, one number per point (ids are indexes into `PackedPoints.ids`, +1 where nullable). */
export const PACKED_COLUMNS = [
  'leaf',
  'pos',
  'turnId',
  'system',
  'tools',
  'full',
  'card',
  'packet',
  'reset',
  'preamble',
  'tail',
  'open',
  'total',
  'available',
  'overBudget',
  'turnsFull',
  'turnsCard',
  'turnsPacket',
  'markReset',
  'markPackets',
  'markDegraded',
  'markOver',
  'measuredEntry',
  'measuredTokens',
  'measuredAnswered',
  'measuredEstimated',
] as const;
export type PackedColumn = (typeof PACKED_COLUMNS)[number];

/** `ContextSeries.points` as columns, as the series travels (`series-packed.ts`). */
export interface PackedPoints {
  n: number;
  /** Every id the points name, once each, in the order first named. */
  ids: string[];
  /** Each column's values as differences: value i is the sum of its first i + 1 entries. */
  cols: Record<PackedColumn, number[]>;
  /** `ts` as milliseconds (differences as the columns), when every point's ts is the ISO text of its time. */
  tsMs: number[] | null;
  /** `ts` as given, when some point's is not (then `tsMs` is null). */
  tsText: string[] | null;
  /** The markers' packet ids then degraded turn ids of every point, in order, as indexes into `ids`. */
  lists: number[];
}

/** The series answer: as `ContextSeries`, with its points packed (`series-packed.ts`). */
export interface PackedContextSeries extends Omit<ContextSeries, 'points'> {
  points: PackedPoints;
}

/** A leaf request whose overrides may be left out. */
export type ContextSeriesRequest = Omit<LeafRequest, 'overrides'> & { overrides?: LeafRequest['overrides'] };

/**
 * The series a client already holds (its leaf, basis and point count): the answer then sends only
 * the points after those that stay the same. A point is the projection at its own leaf, marked
 * against the point before it, so the points before the fork of the held and the new chains are
 * the same under the same reading, plan, profile and overrides.
 */
export interface HeldSeries {
  basis: string;
  leaf: string;
  points: number;
}

/** The series request, naming the series the client holds (optional). */
export type ContextSeriesDeltaRequest = ContextSeriesRequest & { held?: HeldSeries };
