import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What `new Worker` runs: a JavaScript file, and the TypeScript entry it loads in dev. */
export interface WorkerEntry {
  file: URL;
  /** Set when `file` is the dev bootstrap: the TypeScript entry it imports through tsx. */
  source?: string;
}

/**
 * The backend worker's entry file. Given: that file (Electron passes the path electron-vite
 * built, `?modulePath`). Otherwise a built `backend-worker.js` beside this module (a bundled
 * CLI ships it there), else — running from the sources (tsx, vitest, the bench) — the dev
 * bootstrap, which registers tsx inside the worker thread and imports `backend-worker.ts`.
 */
export function resolveWorkerEntry(given?: string | URL, here: string = import.meta.url): WorkerEntry {
  if (given !== undefined) {
    return { file: typeof given === 'string' && !given.startsWith('file:') ? pathToFileURL(given) : new URL(given) };
  }
  // Beside this module, or one folder up when a bundler put this module in a chunks/ folder.
  for (const rel of ['./backend-worker.js', '../backend-worker.js']) {
    const built = new URL(rel, here);
    if (existsSync(fileURLToPath(built))) return { file: built };
  }
  const source = new URL('./backend-worker.ts', here);
  if (existsSync(fileURLToPath(source)))
    return { file: new URL('./dev-worker-bootstrap.mjs', here), source: source.href };
  throw new Error(`the backend worker's entry is missing beside ${fileURLToPath(here)} (backend-worker.js or .ts)`);
}
