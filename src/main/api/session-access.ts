/** Sessions as a request takes them from the open-session cache, with opening errors as the API's. */
import type { SessionKey } from '../../shared/api';
import type { ReadProgress } from '../core/ledger-options';
import type { OpenSession, SessionCache } from '../library/session-cache';
import { ApiError, type ApiClient } from './api-backend';

/** Files smaller than this open in a blink: no progress events for them. */
const PROGRESS_MIN_BYTES = 4 * 1024 * 1024;

/** How a request takes its session: as it is, pinned as it opens, or read whole first. */
export type SessionHow = 'pinned' | 'whole' | 'any';

/**
 * An open session, opening it when needed (progress goes to the asking client). With `pinned`,
 * the session is pinned as it opens (the caller unpins): see SessionCache.acquirePinned. With
 * `whole`, a session still read in steps is read to its end first (search, cost, export).
 * Opening errors become the API's: not_found, refused (not a ledger of this home), internal.
 */
export async function acquireSession(
  cache: SessionCache,
  key: SessionKey,
  client?: ApiClient,
  how: SessionHow = 'any',
): Promise<OpenSession> {
  const onProgress = (p: ReadProgress): void => {
    if (p.bytesTotal >= PROGRESS_MIN_BYTES) {
      client?.push({
        type: 'progress',
        key,
        bytesRead: p.bytesRead,
        bytesTotal: p.bytesTotal,
        entriesRead: p.entriesRead,
      });
    }
  };
  try {
    if (how === 'pinned') return await cache.acquirePinned(key, onProgress);
    if (how === 'whole') return await cache.acquireWhole(key, onProgress);
    return await cache.acquire(key, onProgress);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ApiError('not_found', `no session ${key} in this home`);
    // A FIFO, a device, a link to a file that is not this session's ledger: never opened.
    if (code === 'ENOTREG' || code === 'ENOTSESSION') throw new ApiError('refused', (e as Error).message);
    throw new ApiError('internal', `cannot read ${key}: ${(e as Error).message}`);
  }
}

/**
 * An open session that holds entry `id` — or, for null, its active leaf — as the file has it:
 * while a first open still reads in steps, an entry not read yet and the active leaf wait for
 * the whole file (`waited`). Answers about a leaf are never about part of its chain.
 */
export async function acquireHolding(
  cache: SessionCache,
  key: SessionKey,
  client: ApiClient,
  id: string | null,
): Promise<{ s: OpenSession; waited: boolean }> {
  const s = await acquireSession(cache, key, client);
  if (!s.reading || (id !== null && s.ledger.indexOf(id) !== undefined)) return { s, waited: false };
  return { s: await acquireSession(cache, key, client, 'whole'), waited: true };
}
