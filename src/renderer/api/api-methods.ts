import type { ApiMethod } from '../../shared/api';

/** Every request method of the contract; the record type makes a missing or extra name fail to compile. */
const METHOD_SET: Record<ApiMethod, true> = {
  getHome: true,
  listSessions: true,
  openSession: true,
  getTreeRows: true,
  findRow: true,
  getEntry: true,
  getLeafView: true,
  getProjectedMessage: true,
  getWarnings: true,
  branch: true,
  subscribe: true,
  unsubscribe: true,
};

export const API_METHOD_NAMES = Object.keys(METHOD_SET) as ApiMethod[];

/** An error as the API reports it, with the contract's code kept. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The code and message of any failure: an ApiError (WebSocket), the plain `{code, message}`
 * the preload bridge rejects with (contextBridge drops an Error's own fields), or anything else.
 */
export function errorParts(e: unknown): { code: string | null; message: string } {
  if (e instanceof ApiError) return { code: e.code, message: e.message };
  if (e && typeof e === 'object') {
    const o = e as { code?: unknown; message?: unknown };
    const message = typeof o.message === 'string' ? o.message : e instanceof Error ? e.message : JSON.stringify(e);
    return { code: typeof o.code === 'string' ? o.code : null, message };
  }
  return { code: null, message: String(e) };
}

/** The message to show for any failure, with a clearer sentence for a held lock. */
export function describeError(e: unknown): string {
  const { code, message } = errorParts(e);
  if (code === 'locked') return `An agent holds the lock on this session; nothing was written. (${message})`;
  return message;
}
