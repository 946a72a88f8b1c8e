/**
 * The API of the one write (§7): a directive appended under a parent, at most once per
 * idempotency key. Part of `ApiMethods` (api.ts). Plain types and limits only: the renderer imports it (through api.ts).
 */
import type { SessionKey } from './leaf-request';

export interface BranchResult {
  id: string;
  parentId: string;
  line: number;
  offset: number;
}

/** §7: append one directive under `parentId`. */
export interface BranchRequest {
  key: SessionKey;
  parentId: string;
  text: string;
  /**
   * A UUID the client chose for this submission. The backend appends at most once per key
   * (per session, while it runs): a repeat is answered with the first result, not appended.
   * Keys are compared exactly as sent, byte for byte: the same UUID in upper and in lower
   * case is two keys (send one spelling; a client that draws `crypto.randomUUID()` does).
   */
  idempotencyKey: string;
}
