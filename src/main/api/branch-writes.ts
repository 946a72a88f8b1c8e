/**
 * `branch`, the one write (§7), behind the idempotency keys (branch-idempotency.ts): the append,
 * and the look for a directive an attempt of unknown outcome may already have written.
 */
import type { BranchRequest, BranchResult } from '../../shared/api';
import { BranchError } from '../core/branch-append';
import { isObject } from '../core/entry-types';
import type { SessionCache } from '../library/session-cache';
import type { SessionLibrary } from '../library/session-library';
import { ApiError } from './api-backend';
import { acquireSession } from './session-access';
import { logFailure, type SessionNews } from './session-news';

/** What a write needs of the backend. */
export interface BranchHost {
  library: SessionLibrary;
  cache: SessionCache;
  news: SessionNews;
}

/** The directive `req` asks for, when the file has one under its parent dated `since` or later. */
export async function writtenSince(host: BranchHost, req: BranchRequest, since: number): Promise<BranchResult | null> {
  await acquireSession(host.cache, req.key, undefined, 'whole');
  await host.cache.refresh(req.key); // what the stopped worker appended
  const s = await acquireSession(host.cache, req.key, undefined, 'whole');
  const ix = s.ledger.index;
  const parent = s.ledger.indexOf(req.parentId);
  if (parent === undefined) return null;
  let found: number | null = null;
  for (let c = ix.firstChild[parent]; c >= 0; c = ix.nextSibling[c]) {
    if (ix.kindName(c) !== 'message') continue;
    const e = s.ledger.entry(c);
    if (e.kind !== 'message' || e.message.role !== 'user') continue;
    const content = e.message.content;
    const only = content.length === 1 ? content[0] : null;
    if (!isObject(only) || only['type'] !== 'text' || only['text'] !== req.text) continue;
    // One clock (this machine's) wrote both; a second's slack for its resolution.
    if (Date.parse(e.ts) >= since - 1000) found = c;
  }
  if (found === null) return null;
  return { id: ix.ids[found], parentId: req.parentId, line: ix.line[found], offset: ix.offset[found] };
}

/** §7, the one write: the handler behind `branch`, run at most once per idempotency key. */
export async function appendBranchOnce(
  host: BranchHost,
  { key, parentId, text }: BranchRequest,
): Promise<BranchResult> {
  const listed = host.library.get(key) ?? host.library.refresh(key);
  if (!listed) throw new ApiError('not_found', `no session ${key} in this home`);
  if (listed.unreadable !== null) throw new ApiError('refused', `${key} is not written to: ${listed.unreadable}`);
  await acquireSession(host.cache, key); // opening errors (FIFO, foreign link) answer as for any read
  let result;
  try {
    result = await host.cache.branch(key, parentId, text);
  } catch (e) {
    if (e instanceof BranchError) {
      // A proof that failed under the lock read the file again: followers hear of it.
      if (e.reason === 'changed') void host.news.homeChanged({ type: 'changed', key }, 'own').catch(logFailure);
      const code = e.reason === 'locked' ? 'locked' : e.reason === 'too_large' ? 'too_large' : 'refused';
      throw new ApiError(code, e.message);
    }
    throw e;
  }
  // The session reads the new line, and its followers hear of it, before the answer names it: the
  // window asks for the new leaf as soon as it has the answer (the watcher's event comes later, and
  // its second look is 'unchanged').
  await host.news.homeChanged({ type: 'changed', key }, 'own').catch(logFailure);
  return result;
}
