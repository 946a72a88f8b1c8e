import type { HiddenReason, Projection } from '../../shared/ledger-types';
import { planRowsOf, type PlanRows } from '../../shared/plan-rows';
import { scanChain } from './chain-context';
import { lastAtOrBefore } from './chain-scan';
import { isObject } from './entry-types';
import { F_ASSISTANT, F_CONTROL, F_MESSAGE, KIND, UNKNOWN_KIND } from './ledger-index';
import type { Ledger } from './ledger';
import { buildTurnIndex, type TurnIndex } from './turn-index';

/**
 * Why each entry of a leaf's chain is, or is not, in that leaf's projected
 * context: the History pane's "not model-visible: <reason>".
 *
 * Choices where the spec leaves room:
 * - `hidden` is set only when an entry reaches the model as no message at all
 *   (`projectedAs` empty). An assistant message that lost some thinking blocks
 *   but kept others is projected, so it has no reason.
 * - The header is `hidden: 'header'`: it reaches the model as the system prompt
 *   and tools, not as a message.
 * - `behind packet` and `as card` name message entries of a turn at that
 *   fidelity; audit entries in such a turn keep `audit`, the truer reason.
 * - A packet compaction the plan did not use is `audit`.
 */
export interface EntryVisibility {
  /** Indices of projected messages whose `source_ids` name the entry. */
  projectedAs: number[];
  hidden: HiddenReason | null;
  /** The turn (after the newest reset) the entry belongs to, or null. */
  turnId: string | null;
}

/**
 * What visibility needs from a leaf's projection, prepared once per leaf so a
 * window of the chain costs only its own entries: turns are runs of chain
 * positions after the newest reset, found by binary search, not a Map over the chain.
 */
export interface VisibilityContext {
  chain: Int32Array;
  resetPos: number;
  /** Indices of the projected messages whose source_ids name the entry at chain position `pos`. */
  projectedAs: (pos: number) => number[];
  /** Chain position of each turn's directive (ascending), and the turns. */
  turnStarts: Int32Array;
  turns: readonly { id: string }[];
  /** Chain position one past the last turn's last entry. */
  turnsEnd: number;
  /** The plan's fidelity of turn k (undefined for the open turn). */
  fidelityOf: (k: number) => string | undefined;
}

/**
 * Prepares visibility for `chain` (root first), given its reset and TurnIndex, where the
 * projection's messages that name chain position `pos` are `projectedAs(pos)` and row k of its
 * plan is turn k's (the plan's rows are the closed turns in chain order; the open turn, last,
 * has none).
 */
export function visibilityContext(
  chain: Int32Array,
  resetPos: number,
  turnIndex: TurnIndex,
  plan: PlanRows,
  projectedAs: (pos: number) => number[],
): VisibilityContext {
  // TurnIndex keeps `after` in order: the preamble first, then each turn's entries.
  let pos = resetPos + 1 + turnIndex.preamble.length;
  const turnStarts = new Int32Array(turnIndex.turns.length);
  turnIndex.turns.forEach((t, k) => {
    turnStarts[k] = pos;
    pos += t.entries.length;
  });
  const fidelityOf = (k: number): string | undefined => (k < plan.length ? plan.fidelity(k) : undefined);
  return { chain, resetPos, projectedAs, turnStarts, turns: turnIndex.turns, turnsEnd: pos, fidelityOf };
}

/** The turn holding chain position `pos` (its index in the turns), or -1 (before the reset, in the preamble). */
function turnIndexAt(vc: VisibilityContext, pos: number): number {
  const starts = vc.turnStarts;
  if (starts.length === 0 || pos < starts[0] || pos >= vc.turnsEnd) return -1;
  return lastAtOrBefore(starts.length, (k) => starts[k], pos);
}

/** The turn holding chain position `pos`, or null (before the reset, in the preamble). */
export function turnAt(vc: VisibilityContext, pos: number): string | null {
  const k = turnIndexAt(vc, pos);
  return k < 0 ? null : vc.turns[k].id;
}

/** Visibility of the entry at chain position `pos`: parses its payload only for the thinking check. */
export function entryVisibility(ledger: Ledger, vc: VisibilityContext, pos: number): EntryVisibility {
  const i = vc.chain[pos];
  const projectedAs = vc.projectedAs(pos);
  const k = turnIndexAt(vc, pos);
  const turnId = k < 0 ? null : vc.turns[k].id;
  if (projectedAs.length > 0) return { projectedAs, hidden: null, turnId };
  const fidelity = k < 0 ? undefined : vc.fidelityOf(k);
  return { projectedAs, hidden: hiddenReason(ledger, i, pos < vc.resetPos, fidelity), turnId };
}

/** Visibility of every entry of `chain` (root first) under `projection` of its last entry. */
export function chainVisibility(ledger: Ledger, chain: Int32Array, projection: Projection): EntryVisibility[] {
  const ctx = scanChain(ledger, chain);
  const after = ctx.resetPos >= 0 ? chain.slice(ctx.resetPos + 1) : chain;
  const byId = new Map<string, number[]>();
  projection.messages.forEach((m, k) => {
    for (const id of m.source_ids) {
      const list = byId.get(id);
      if (list) list.push(k);
      else byId.set(id, [k]);
    }
  });
  const ids = ledger.index.ids;
  const projectedAs = (pos: number): number[] => byId.get(ids[chain[pos]]) ?? [];
  const turnIndex = buildTurnIndex(ledger.index, after);
  const vc = visibilityContext(chain, ctx.resetPos, turnIndex, planRowsOf(projection.plan), projectedAs);
  return Array.from(chain, (_, pos) => entryVisibility(ledger, vc, pos));
}

function hiddenReason(ledger: Ledger, i: number, beforeReset: boolean, turnFidelity: string | undefined): HiddenReason {
  const ix = ledger.index;
  const kind = ix.kind[i];
  if (kind === KIND.header) return 'header';
  if (beforeReset) return 'before reset';
  if (kind === UNKNOWN_KIND) return 'unknown kind';
  if (kind === KIND.intent) return 'superseded intent';
  if (kind !== KIND.message) return 'audit';
  const f = ix.flags[i];
  if ((f & F_MESSAGE) === 0) return 'empty';
  if (turnFidelity === 'packet') return 'behind packet';
  if (turnFidelity === 'card') return 'as card';
  if (f & F_CONTROL) return 'control';
  if (f & F_ASSISTANT && onlyThinking(ledger, i)) return 'thinking';
  return 'empty';
}

/** An assistant message whose every block is thinking (so nothing is left at Full). */
function onlyThinking(ledger: Ledger, i: number): boolean {
  const e = ledger.entry(i);
  const blocks = e.kind === 'message' ? e.message.content : [];
  return blocks.length > 0 && blocks.every((b) => isObject(b) && b['type'] === 'thinking');
}
