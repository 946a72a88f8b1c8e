/**
 * The API of files opened by path (docs/open-files.md): what opening one gave, the Recent list,
 * and the desktop app's own way in (a dialog, a drop). Plain types and limits only: the renderer imports it (through api.ts).
 */
import type { SessionKey } from './leaf-request';

/** What opening a file by path gave: its session's key, or why it was refused (then nothing else happened). */
export type OpenFileOutcome = { path: string; key: SessionKey } | { path: string; problem: string };

/** A file opened before (the "Recent" list), checked when listed. */
export interface RecentFile {
  /** Absolute path as the user gave it. */
  path: string;
  /** Why it cannot be opened now (gone, no longer a ledger…), or null. */
  missing: string | null;
}

export interface RecentFiles {
  files: RecentFile[];
  /**
   * Whether this backend opens files by path while it runs (the desktop app). Serve mode opens
   * only the files given on its command line (`serve --file`): a browser page names no paths.
   */
  openByPath: boolean;
}

/**
 * The desktop app's file opening, through the preload. The page never names a path: the dialog
 * runs in main, and a drop hands over File objects whose paths the preload takes
 * (webUtils.getPathForFile; a File the page made itself has none). What was opened arrives as an
 * `opened` event, as for a second launch's files.
 */
export interface DesktopFiles {
  /** Shows File → Open… (main opens what the user picks). */
  showOpenDialog(): void;
  /** Opens files dropped on the window. */
  openDropped(files: readonly File[]): void;
}
