import { closeSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { SessionKey } from '../../shared/api';
import { openedKey, parseOpenedKey, SESSION_EXT } from '../../shared/session-key';
import { sessionFileOf, type SessionFile } from '../core/home';
import { isNotRegular } from '../core/safe-open';
import { MAX_OPENED_FILE_BYTES, NotASessionError, openLedgerFile } from '../core/session-file';

/**
 * Sessions opened from a path the user gave (File → Open…, a drop, `vak-explorer FILE`,
 * `serve --file`), beside the home's: each gets the key `opened/<n>.jsonl` (session-key.ts), so a
 * client names an opened file only by a number this backend handed out, never by a path. A path
 * is checked before it gets a key (openLedgerFile: a regular file, not too big, line 1 a header);
 * a refusal names the file and registers nothing. Opening the same file again (by whatever path
 * leads to it) gives its key again.
 */

/** One opened file. */
export interface OpenedFile {
  key: SessionKey;
  /** The absolute path as the user gave it (shown in the library). */
  path: string;
  /** Its real path when it was opened (links resolved): the same file opened again has the same key. */
  realPath: string;
  sessionId: string;
}

/** What opening a path gave: its key, or why it was refused (nothing else happened). */
export type OpenFileOutcome = { path: string; key: SessionKey } | { path: string; problem: string };

/** Why `e` refuses a path, in words that name it. */
export function refusalText(path: string, e: unknown): string {
  if (isNotRegular(e) || e instanceof NotASessionError) return e.message;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${path} does not exist`;
  if (code === 'EACCES' || code === 'EPERM') return `${path} cannot be read (permission denied)`;
  return `${path} cannot be read: ${e instanceof Error ? e.message : String(e)}`;
}

/** Checks that `path` may be opened as a ledger (what `add` checks); the refusal's text, or null. */
export function ledgerFileProblem(path: string, maxBytes = MAX_OPENED_FILE_BYTES): string | null {
  const abs = resolve(path);
  try {
    closeSync(openLedgerFile(abs, maxBytes).fd);
    return null;
  } catch (e) {
    return refusalText(abs, e);
  }
}

export class OpenedFiles {
  private readonly byKey = new Map<SessionKey, OpenedFile>();

  constructor(private readonly maxBytes = MAX_OPENED_FILE_BYTES) {}

  /** Checks `path` and gives it a key (its old one when that file is open already). */
  add(path: string): OpenFileOutcome {
    const abs = resolve(path);
    let checked;
    try {
      checked = openLedgerFile(abs, this.maxBytes);
      closeSync(checked.fd);
    } catch (e) {
      return { path: abs, problem: refusalText(abs, e) };
    }
    for (const f of this.byKey.values()) if (f.realPath === checked.realPath) return { path: abs, key: f.key };
    const key = openedKey(this.byKey.size);
    const stem = basename(abs).endsWith(SESSION_EXT) ? basename(abs).slice(0, -SESSION_EXT.length) : basename(abs);
    this.byKey.set(key, { key, path: abs, realPath: checked.realPath, sessionId: checked.sessionId ?? stem });
    return { path: abs, key };
  }

  /** The opened file of `key`, when it is one. */
  get(key: SessionKey): OpenedFile | undefined {
    return parseOpenedKey(key) === null ? undefined : this.byKey.get(key);
  }

  /** Every opened file, in the order they were opened. */
  all(): OpenedFile[] {
    return [...this.byKey.values()];
  }

  /** The SessionFile `key` names: an opened file's, or one under `home` (no file system access). */
  fileOf(home: string, key: SessionKey): SessionFile | null {
    if (parseOpenedKey(key) === null) return sessionFileOf(home, key);
    const f = this.byKey.get(key);
    return f ? { key, agent: '', cwdHash: '', sessionId: f.sessionId, path: f.path, opened: true } : null;
  }
}
