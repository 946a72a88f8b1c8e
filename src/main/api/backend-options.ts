/** What an ExplorerBackend is built with: the home, its data folder, watching, reading in steps, files by path. */
export interface ExplorerBackendOptions {
  home: string;
  isDemo: boolean;
  label: string;
  /** The user's own home folder (paths under it are shown as `~/…`), when known. */
  userHome?: string;
  /** With `isDemo`: copy `home` (the bundled demo) here first and serve the copy. */
  demoCopyDir?: string;
  /** Watch the home for changes (default true). */
  watch?: boolean;
  /** The watcher's safety rescan (ms); see HomeWatcher. */
  rescanMs?: number;
  /** How often library subscribers get lock changes (ms; a lock changes no byte). 0 turns it off. */
  lockPollMs?: number;
  /** Unfollowed sessions kept open. */
  cacheSize?: number;
  /**
   * The app's data folder (Electron `userData`, serve mode `$XDG_DATA_HOME/vak-explorer`):
   * where the user's `prices.json` lives (without it, the bundled prices are used) and
   * `index-cache/`, the kept indexes that make a reopen read only what was appended.
   */
  userDataDir?: string;
  /**
   * A session bigger than this answers its first open after these bytes (at most
   * FIRST_ANSWER_BYTES), and reads the rest in steps of this many, announced like appends
   * (default FIRST_READ_BYTES; Infinity reads whole). A smaller session is read whole first.
   */
  firstReadBytes?: number;
  /** Files to open by path as the backend starts (`serve --file`, the desktop app's arguments). */
  openFiles?: string[];
  /**
   * Whether files may be opened by path while it runs (the desktop app: its dialog, drops, second
   * launches, the Recent list). Serve mode opens only `openFiles` (docs/open-files.md).
   */
  openByPath?: boolean;
  /** The largest file opened by path (default MAX_OPENED_FILE_BYTES; tests set less). */
  maxOpenedBytes?: number;
  /** What one answer of a context series may carry (default SERIES_PAGE_BYTES; tests set less). */
  seriesPageBytes?: number;
  /**
   * When a series' build first tells its progress, and how often after (default PROGRESS_FIRST_MS and
   * PROGRESS_EVERY_MS in series-progress.ts; tests set 0 to see it on a small session).
   */
  seriesProgressMs?: { first: number; every: number };
  /**
   * Count the secrets of sessions never opened, in the background (secrets/survey.ts): how the
   * survey starts (`setSecretSurvey` turns it on or off later). Serve mode and the app turn it on
   * (`serve --no-secret-survey` starts it off); off unless asked.
   */
  secretSurvey?: boolean;
  /**
   * Keep the user's settings in `userDataDir/settings.json` (the desktop app): a kept choice
   * overrides `secretSurvey` at the start, and a change is kept for the next launch.
   */
  keepSettings?: boolean;
}

/**
 * A session bigger than this is read in steps, each of this size (first rows within ~300 ms of
 * opening a 100 MB session). About 25 ms of reading on this machine: requests for the rows on
 * screen answer between steps.
 */
export const FIRST_READ_BYTES = 4 << 20;

/**
 * What a first open reads before it answers, at most: a few hundred entries of a usual session,
 * more than a screen of rows. Smaller than a step, so that the open and its first rows (a link's
 * early answers among them) are not held by the reading of a whole step in code still cold.
 */
export const FIRST_ANSWER_BYTES = 1 << 20;
