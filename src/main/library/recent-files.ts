import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RecentFile } from '../../shared/api';
import { parseJsonText } from '../../shared/json-problem';
import { ledgerFileProblem } from './opened-files';
import { MAX_DATA_FILE_BYTES, readSmallRegularFile } from '../core/safe-open';

/** How many files the Recent list keeps. */
export const MAX_RECENT = 10;

/** The Recent list's file in the app's data folder (beside `index-cache/`). */
export const RECENT_FILE = 'recent-files.json';

/**
 * The files opened by path lately, newest first, kept in the app's data folder as
 * `{"files": ["/abs/path", …]}`. Only paths the user opened get on it. Each is checked when the
 * list is read (a file gone or no longer a ledger shows why, and is not opened). A damaged or
 * missing list is an empty one: it is a convenience, never a reason to fail.
 */
export class RecentFiles {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, RECENT_FILE);
  }

  /** The paths as kept (no check). */
  paths(): string[] {
    let text: string;
    try {
      // (Not readFileSync: a FIFO put at this path would hang the start.)
      const read = readSmallRegularFile(this.file, MAX_DATA_FILE_BYTES);
      if (typeof read === 'string') return [];
      text = read.toString('utf8');
    } catch {
      return [];
    }
    const parsed = parseJsonText(text);
    const files = parsed.ok ? (parsed.value as { files?: unknown } | null)?.files : null;
    if (!Array.isArray(files)) return [];
    return files.filter((p): p is string => typeof p === 'string' && p.startsWith('/')).slice(0, MAX_RECENT);
  }

  /** The list, each file checked now. */
  list(): RecentFile[] {
    return this.paths().map((path) => ({ path, missing: ledgerFileProblem(path) }));
  }

  /** Puts `path` first (once). A list that cannot be written is left as it was (said on stderr). */
  add(path: string): void {
    const next = [path, ...this.paths().filter((p) => p !== path)].slice(0, MAX_RECENT);
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      // Written whole then renamed: a reader never sees half a list.
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ files: next }, null, 1) + '\n');
      renameSync(tmp, this.file);
    } catch (e) {
      console.warn(`vak-explorer: could not keep the recent files list in ${this.file}: ${(e as Error).message}`);
    }
  }
}
