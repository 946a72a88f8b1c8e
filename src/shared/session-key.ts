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
