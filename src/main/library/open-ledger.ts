import { closeSync } from 'node:fs';
import type { SessionKey } from '../../shared/api';
import { FileSource } from '../core/byte-source';
import { sessionFileOf } from '../core/home';
import { Ledger } from '../core/ledger';
import type { OpenOptions } from '../core/ledger-options';
import { openSessionFile } from '../core/session-file';
import { newSessionScanner } from '../secrets/session-secrets';
import type { IndexStore, KeptReading } from './index-store';
import type { OpenedFiles } from './opened-files';

/** An opened session's ledger, its file's identity, and what its kept index brought (if it came from one). */
export type OpenedLedger = {
  ledger: Ledger;
  ino: number;
  dev: number;
  /** The path the key names (under the home, or the opened file's as the user gave it). */
  path: string;
  realPath: string;
  resumed: boolean;
} & Omit<KeptReading, 'ledger'>;

/**
 * Opens a session's ledger under the home's rules (session-file.ts): a regular file, links
 * only to its own ledger; from its kept index in `store` when one still matches the file.
 */
export async function openLedger(
  home: string,
  key: SessionKey,
  store: IndexStore | null,
  opts: OpenOptions,
  openedFiles: OpenedFiles | null = null,
): Promise<OpenedLedger> {
  const file = openedFiles ? openedFiles.fileOf(home, key) : sessionFileOf(home, key);
  if (!file) throw Object.assign(new Error(`${key} is not a session key`), { code: 'ENOENT' });
  const opened = openSessionFile(file);
  let source: FileSource;
  try {
    source = FileSource.fromFd(opened.fd, opened.realPath);
  } catch (e) {
    closeSync(opened.fd);
    throw e;
  }
  const id = { realPath: opened.realPath, dev: opened.stat.dev, ino: opened.stat.ino };
  // Each reading is scanned for secrets as it is read (secrets/secret-scanner.ts); the lines a kept
  // index restored are scanned as its check reads them again (Ledger.checkReading).
  const scanner = newSessionScanner(key);
  // A backlog of lines waiting for the scan is read back from the file rather than held.
  scanner.file = { path: id.realPath, dev: id.dev, ino: id.ino };
  // Until the first screen is answered (or the read pauses), the lines are scanned later, read
  // back from the file: on two cores, the scan beside the read delays that screen.
  scanner.deferUntilFirstScreen();
  opts = { ...opts, lineSink: scanner };
  const kept = store ? await store.resume(source, id, opts) : null;
  const ledger = kept?.ledger ?? (await Ledger.open(source, opts));
  return {
    ledger,
    ino: id.ino,
    dev: id.dev,
    path: file.path,
    realPath: id.realPath,
    resumed: kept !== null,
    work: kept?.work ?? null,
    turns: kept?.turns ?? null,
    layout: kept?.layout ?? null,
  };
}
