/**
 * Serve mode's early answers: a page opened on a session (a reload, a link) asks its first
 * read-only requests over HTTP from index.html's first script, while the page is still parsed,
 * instead of waiting for its API socket to open. One POST carries the requests, one response
 * their answers in the same order (as the socket would have answered each). Plain values only:
 * the renderer and the server both import it.
 */
import type { ApiMethod, ApiReply } from './api';

/** Where the page posts its early requests. */
export const EARLY_ANSWERS_PATH = '/api/early';

/**
 * The only methods the route answers: the reads a page opened on a session asks first
 * (open-early.ts). Nothing that writes, subscribes or streams.
 */
export const EARLY_ANSWER_METHODS = [
  'openSession',
  'findRow',
  'getTreeRows',
  'getLeafView',
] as const satisfies readonly ApiMethod[];
export type EarlyAnswerMethod = (typeof EARLY_ANSWER_METHODS)[number];

/** At most this many requests in one POST (one of each method). */
export const MAX_EARLY_ASKS = EARLY_ANSWER_METHODS.length;

/** The largest request body accepted (the asks are a session key, an entry id and a few numbers). */
export const MAX_EARLY_BODY_BYTES = 16 * 1024;

export interface EarlyAsk {
  method: EarlyAnswerMethod;
  req: unknown;
}

/** The POST's body. */
export interface EarlyAnswersRequest {
  asks: EarlyAsk[];
}

/** The response's body: one reply per ask, in the order asked. */
export interface EarlyAnswersResponse {
  answers: ApiReply[];
}

export function isEarlyAnswerMethod(m: unknown): m is EarlyAnswerMethod {
  return typeof m === 'string' && (EARLY_ANSWER_METHODS as readonly string[]).includes(m);
}
