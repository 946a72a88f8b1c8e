import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cwdHash } from '../main/core/fnv1a64';
import { sessionKey as keyOfSession } from '../shared/session-key';

export const TEST_CWD = '/work/project';
export const TEST_SESSION = '01a1f7f8-3000-7bce-9f84-000000000001';

/** The session key of a ledger written by `writeSession`. */
export function sessionKey(sessionId = TEST_SESSION, agent = 'vak'): string {
  return keyOfSession(agent, cwdHash(TEST_CWD), sessionId);
}

/** Writes ledger bytes where a home keeps them (LEDGER.md §1); returns the file's path. */
export function writeSession(home: string, bytes: Uint8Array, sessionId = TEST_SESSION): string {
  const file = join(home, sessionKey(sessionId));
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, bytes);
  return file;
}

/** A header entry for TEST_CWD / TEST_SESSION (fields as §3 lists them). */
export function header(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'h',
    parent_id: null,
    kind: 'header',
    session_id: TEST_SESSION,
    app_version: '0.0.0',
    provider: 'test',
    model: 'm',
    system_prompt: 'system',
    tools: [],
    permission_mode: 'ask',
    cwd: TEST_CWD,
    parent_session: null,
    ...extra,
  };
}
