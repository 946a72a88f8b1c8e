import { F_ASSISTANT, F_CONTROL, F_MESSAGE, F_USER, type LedgerIndex } from './ledger-index';

/** One turn (§4): a directive and every entry after it up to the next directive. */
export interface Turn {
  /** The directive's entry id. */
  id: string;
  /** Entry indices in chain order, the directive first. */
  entries: number[];
  /** The chain's last turn when the model still owes an answer. */
  open: boolean;
}

export interface TurnIndex {
  /** Entries (after the newest reset) before the first directive. */
  preamble: number[];
  turns: Turn[];
}

/** A directive is a user message that is not a control nudge. */
export function isDirective(index: LedgerIndex, i: number): boolean {
  const f = index.flags[i];
  return (f & (F_MESSAGE | F_USER)) === (F_MESSAGE | F_USER) && (f & F_CONTROL) === 0;
}

/** §4 TurnIndex over a run of chain entries (root side first). */
export function buildTurnIndex(index: LedgerIndex, entries: Iterable<number>): TurnIndex {
  const preamble: number[] = [];
  const turns: Turn[] = [];
  let current: Turn | null = null;
  for (const i of entries) {
    if (isDirective(index, i)) {
      current = { id: index.ids[i], entries: [i], open: false };
      turns.push(current);
    } else if (current) current.entries.push(i);
    else preamble.push(i);
  }
  const last = turns[turns.length - 1];
  if (last) last.open = openAt(index, last.entries, last.entries.length - 1);
  return { preamble, turns };
}

/**
 * §4: the last turn of a chain ending at its entry `upto` is open when its newest message up to
 * there is not the assistant's (the directive, a nudge or a tool result: the model owes an answer).
 */
export function openAt(index: LedgerIndex, entries: readonly number[], upto: number): boolean {
  for (let k = upto; k >= 0; k--) {
    const f = index.flags[entries[k]];
    if (f & F_MESSAGE) return (f & F_ASSISTANT) === 0;
  }
  return false;
}
