import { DEFAULT_PROFILE, type CapacityProfile } from '../../shared/ledger-types';
import { stringifyJson } from '../../shared/json-text';
import { isObject, type Json } from './entry-types';
import type { LongStrings } from './json-skim';

export { DEFAULT_PROFILE, type CapacityProfile };

/** The reference estimator: t(s) = ceil(utf8_bytes(s) / bytes_per_token). */
export function tokensOf(s: string, bytesPerToken: number): number {
  return Math.ceil(Buffer.byteLength(s, 'utf8') / bytesPerToken);
}

export const IMAGE_TOKENS = 1000;
export const MESSAGE_OVERHEAD = 4;

/**
 * UTF-8 bytes of `s`, a string of a parsed line; when the line was parsed skimmed (`long`,
 * json-skim.ts), of the long string `s` stands for if it is a placeholder.
 */
export function utf8Bytes(s: string, long: LongStrings | null): number {
  const k = long === null ? -1 : long.indexOf(s);
  return k < 0 ? Buffer.byteLength(s, 'utf8') : (long as LongStrings).bytes[k];
}

/**
 * A projected block's cost (§6). Blocks of other types carry no string the spec counts.
 * `long`: the block is of a line parsed skimmed (the reader's notes).
 */
export function blockTokens(block: Record<string, Json>, bpt: number, long: LongStrings | null = null): number {
  switch (block['type']) {
    case 'text':
    case 'thinking':
      return typeof block['text'] === 'string' ? Math.ceil(utf8Bytes(block['text'], long) / bpt) : 0;
    case 'tool_use':
      return (
        (typeof block['name'] === 'string' ? tokensOf(block['name'], bpt) : 0) +
        tokensOf(stringifyJson(block['input'] ?? null), bpt)
      );
    case 'tool_result':
      return Math.ceil(utf8Bytes(contentString(block['content']), long) / bpt);
    case 'image':
      return IMAGE_TOKENS;
    default:
      return 0;
  }
}

/** A message costs 4 + the sum over its blocks (`long`: as blockTokens). */
export function messageTokens(content: readonly Json[], bpt: number, long: LongStrings | null = null): number {
  let n = MESSAGE_OVERHEAD;
  for (const b of content) if (isObject(b)) n += blockTokens(b, bpt, long);
  return n;
}

/**
 * A tool result's content as a string (the spec's is a string; anything else is its
 * JSON text, as JSON.stringify writes it, at any depth).
 */
export function contentString(c: Json | undefined): string {
  return typeof c === 'string' ? c : c === undefined ? '' : stringifyJson(c);
}
