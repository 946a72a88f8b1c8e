import { DEFAULT_PROFILE, type CapacityProfile } from '../../shared/ledger-types';
import { stringifyJson } from '../../shared/json-text';
import { isObject, type Json } from './entry-types';

export { DEFAULT_PROFILE, type CapacityProfile };

/** The reference estimator: t(s) = ceil(utf8_bytes(s) / bytes_per_token). */
export function tokensOf(s: string, bytesPerToken: number): number {
  return Math.ceil(Buffer.byteLength(s, 'utf8') / bytesPerToken);
}

export const IMAGE_TOKENS = 1000;
export const MESSAGE_OVERHEAD = 4;

/** A projected block's cost (§6). Blocks of other types carry no string the spec counts. */
export function blockTokens(block: Record<string, Json>, bpt: number): number {
  switch (block['type']) {
    case 'text':
    case 'thinking':
      return typeof block['text'] === 'string' ? tokensOf(block['text'], bpt) : 0;
    case 'tool_use':
      return (
        (typeof block['name'] === 'string' ? tokensOf(block['name'], bpt) : 0) +
        tokensOf(stringifyJson(block['input'] ?? null), bpt)
      );
    case 'tool_result':
      return tokensOf(contentString(block['content']), bpt);
    case 'image':
      return IMAGE_TOKENS;
    default:
      return 0;
  }
}

/** A message costs 4 + the sum over its blocks. */
export function messageTokens(content: readonly Json[], bpt: number): number {
  let n = MESSAGE_OVERHEAD;
  for (const b of content) if (isObject(b)) n += blockTokens(b, bpt);
  return n;
}

/**
 * A tool result's content as a string (the spec's is a string; anything else is its
 * JSON text, as JSON.stringify writes it, at any depth).
 */
export function contentString(c: Json | undefined): string {
  return typeof c === 'string' ? c : c === undefined ? '' : stringifyJson(c);
}
