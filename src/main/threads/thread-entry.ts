import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What `new Worker` runs: a JavaScript file, and the TypeScript entry it loads in dev. */
export interface WorkerEntry {
  file: URL;
  /** Set when `file` is the dev bootstrap: the TypeScript entry it imports through tsx. */
  source?: string;
}

/** A worker thread's entry: its built file's name, and its TypeScript source (from this folder). */
export interface EntryNames {
  built: string;
  source: string;
  /** What it is, for the error when neither is there. */
  what: string;
}

export const BACKEND_WORKER: EntryNames = {
  built: 'backend-worker.js',
  source: '../worker/backend-worker.ts',
  what: "the backend worker's entry",
};

/** The secret scan's thread, built beside the backend worker (scripts/build-cli.mjs, electron.vite.config.ts). */
export const SCAN_WORKER: EntryNames = {
  built: 'secret-scan-worker.js',
  source: '../secrets/secret-scan-worker.ts',
  what: "the secret scan thread's entry",
};

/**
 * A folder of thread entries built from these very sources, for a process that runs from the
 * sources: the unit tests' global setup builds dist/cli and names it here, so each worker a test
 * starts loads plain JavaScript instead of transpiling the core again through tsx.
 */
export const BUILT_THREADS_ENV = 'VAK_BUILT_THREADS_DIR';

/**
 * A worker thread's entry file (`names`: the backend worker's by default). Given: that file
 * (Electron passes the path electron-vite built, `?modulePath`). Otherwise a built
 * `backend-worker.js` beside this module (a bundled CLI ships it there), or in the folder
 * BUILT_THREADS_ENV names, else — running from the sources (tsx, vitest, the bench) — the dev
 * bootstrap, which registers tsx inside the worker thread and imports `backend-worker.ts`.
 */
export function resolveWorkerEntry(
  given?: string | URL,
  here: string = import.meta.url,
  names: EntryNames = BACKEND_WORKER,
): WorkerEntry {
  if (given !== undefined) {
    return { file: typeof given === 'string' && !given.startsWith('file:') ? pathToFileURL(given) : new URL(given) };
  }
  // Beside this module, or one folder up when a bundler put this module in a chunks/ folder.
  for (const rel of [`./${names.built}`, `../${names.built}`]) {
    const built = new URL(rel, here);
    if (existsSync(fileURLToPath(built))) return { file: built };
  }
  const builtDir = process.env[BUILT_THREADS_ENV];
  if (builtDir) {
    const built = join(builtDir, names.built);
    if (existsSync(built)) return { file: pathToFileURL(built) };
  }
  const source = new URL(names.source, here);
  if (existsSync(fileURLToPath(source)))
    return { file: new URL('./dev-worker-bootstrap.mjs', here), source: source.href };
  throw new Error(`${names.what} is missing beside ${fileURLToPath(here)} (${names.built} or ${names.source})`);
}
