/**
 * Token costs a context series adds up, split as the bytes-per-token fit needs them: the
 * §6 cost of a message and its `fixed` share (the tokens that do not scale with bytes).
 */
import type { Json } from '../../shared/ledger-types';
import { isObject } from '../core/entry-types';
import { verbatimMessage } from '../core/full-fidelity';
import type { Ledger } from '../core/ledger';
import { F_MESSAGE } from '../core/ledger-index';
import { IMAGE_TOKENS, MESSAGE_OVERHEAD, messageTokens } from '../core/tokens';

/** A message's cost and the part of it that does not scale with bytes. */
export interface MessageCost {
  tokens: number;
  fixed: number;
}

/** 4 per message plus 1000 per image: the tokens that do not scale with bytes. */
export function fixedTokens(content: readonly Json[]): number {
  let n = MESSAGE_OVERHEAD;
  for (const b of content) if (isObject(b) && b['type'] === 'image') n += IMAGE_TOKENS;
  return n;
}

/** The cost of a text the projection writes itself (summaries, cards, the tail) as one message. */
export const textTokens = (text: string, bpt: number): number => messageTokens([{ type: 'text', text }], bpt);

/** A message entry's cost as recorded (preamble, open turn), or null for any other entry. */
export function verbatimCost(ledger: Ledger, i: number, bpt: number): MessageCost | null {
  if ((ledger.index.flags[i] & F_MESSAGE) === 0) return null;
  const shaped = verbatimMessage(ledger.entry(i));
  return shaped ? { tokens: messageTokens(shaped.content, bpt), fixed: fixedTokens(shaped.content) } : null;
}
