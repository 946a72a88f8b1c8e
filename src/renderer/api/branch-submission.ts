/**
 * The idempotency key of a branch submission. Sending the same text under the same entry
 * again (after a reply was lost: `unknown_outcome`) reuses the key, so the backend answers
 * with the first append instead of writing a second line; new text gets a new key, and a
 * submission that was answered is forgotten (writing the same text twice on purpose works).
 */

import { Lru } from '../../shared/lru';
import { draftKey } from '../util/draft-key';

/** Drafts whose key is remembered; beyond this the oldest is forgotten (it would get a new key). */
const MAX_REMEMBERED = 100;

const keys = new Lru<string, { text: string; key: string }>(MAX_REMEMBERED);

/** The key for sending `text` under `parentId` of session `sessionKey` now. */
export function submissionKey(sessionKey: string, parentId: string, text: string): string {
  const slot = draftKey(sessionKey, parentId);
  const seen = keys.get(slot);
  if (seen && seen.text === text) return seen.key;
  const key = newUuid();
  keys.set(slot, { text, key });
  return key;
}

/** The submission was answered (appended or refused): the next send is a new one. */
export function submissionAnswered(sessionKey: string, parentId: string): void {
  keys.delete(draftKey(sessionKey, parentId));
}

/** A random (version 4) UUID; `crypto.randomUUID` needs a secure context, `getRandomValues` does not. */
function newUuid(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
