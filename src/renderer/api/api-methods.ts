export { API_METHOD_NAMES } from '../../shared/api-methods';

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
