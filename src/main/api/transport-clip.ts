import { clipJson, MAX_SENT_DEPTH } from '../../shared/json-text';
import type { Json } from '../../shared/ledger-types';

/** Strings longer than this inside projected message content are clipped for transport. */
export const CLIP_CHARS = 64 * 1024;

/**
 * Projected content fit for transport: long strings cut, and values nested deeper than
 * MAX_SENT_DEPTH sent as their JSON text (IPC's structured clone and JSON.stringify
 * recurse, and would fail the whole reply). `maxChars` Infinity is "show all".
 */
export function clipForTransport(v: Json, maxChars = CLIP_CHARS): { value: Json; clipped: boolean } {
  return clipJson(v, { maxChars, maxDepth: MAX_SENT_DEPTH });
}
