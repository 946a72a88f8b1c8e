/**
 * §1 session keys: a session's path relative to the home,
 * `agents/<agent>/sessions/<cwd-hash>/<session-id>.jsonl`, always with `/`. One definition for
 * the core (discovery), the library's watcher and the API's request schemas.
 */

/** The file extension of a ledger. */
export const SESSION_EXT = '.jsonl';

/** The shape of a key; `parseSessionKey` also refuses `.` and `..` parts. */
export const SESSION_KEY_PATTERN = /^agents\/([^/\\]+)\/sessions\/([^/\\]+)\/([^/\\]+)\.jsonl$/;

/** The parts of a session key. */
export interface SessionKeyParts {
  agent: string;
  cwdHash: string;
  sessionId: string;
}

/** The session key of a file. */
export function sessionKey(agent: string, cwdHash: string, sessionId: string): string {
  return `agents/${agent}/sessions/${cwdHash}/${sessionId}${SESSION_EXT}`;
}

/** Splits a key into its parts, or null when it is not a session key. */
export function parseSessionKey(key: string): SessionKeyParts | null {
  const m = SESSION_KEY_PATTERN.exec(key);
  if (!m || [m[1], m[2], m[3]].some((p) => p === '.' || p === '..')) return null;
  return { agent: m[1], cwdHash: m[2], sessionId: m[3] };
}

/**
 * A file the user opened by path (File → Open…, a drop, `vak-explorer FILE`, `serve --file`):
 * `opened/<n>.jsonl`, `n` numbering the files in the order this backend first opened them. Such
 * a key never names a path (a client that makes one up names nothing the user did not open), and
 * it cannot collide with a home key, which starts with `agents/`.
 */
export const OPENED_KEY_PATTERN = /^opened\/(0|[1-9]\d{0,5})\.jsonl$/;

/** The key of the `n`-th opened file. */
export function openedKey(n: number): string {
  return `opened/${n}${SESSION_EXT}`;
}

/** The number of an opened file's key, or null when `key` is not one. */
export function parseOpenedKey(key: string): number | null {
  const m = OPENED_KEY_PATTERN.exec(key);
  return m ? Number(m[1]) : null;
}

/** True for any key a session may have: one under the home, or an opened file's. */
export function isSessionKey(key: string): boolean {
  return parseSessionKey(key) !== null || parseOpenedKey(key) !== null;
}
