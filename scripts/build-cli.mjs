// Builds the `vak-explorer` command (src/cli) with the project's Vite pipeline into
// dist/cli/vak-explorer.mjs, so the bin starts as plain JavaScript (no TypeScript
// transpiling at run time). npm dependencies stay outside the bundle (they are the package's
// runtime dependencies); `serve` is a separate chunk that only `serve` loads.
//
//   node scripts/build-cli.mjs            build when a source is newer than the built file
//   node scripts/build-cli.mjs --force    always build
//
// Run by `npm run build` (which `prepare` runs: npm install / npm ci in a clone, a git dependency,
// npm pack), `npm run cli`, the bench, and the unit tests' global setup. Several of those may run at once
// on one machine: the build goes to a private folder first and each file is then renamed into
// place (chunks have content hashes; the entry is renamed last), so a running bin never sees a
// half-written file.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const CLI_OUT_DIR = join(ROOT, 'dist', 'cli');
export const CLI_ENTRY = join(CLI_OUT_DIR, 'vak-explorer.mjs');
/** What the built CLI may be made of: any source under src/ but the renderer's (the CLI cannot import those). */
const SOURCES = ['src'];
const NOT_IN_CLI = new Set([join(ROOT, 'src', 'renderer')]);

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = NOT_IN_CLI.has(p) ? newest : Math.max(newest, newestMtime(p));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** True when dist/cli is missing or older than a source it is built from (or this script). */
export function cliIsStale() {
  if (!existsSync(CLI_ENTRY)) return true;
  const built = statSync(CLI_ENTRY).mtimeMs;
  const inputs = Math.max(
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
    ...SOURCES.map((d) => join(ROOT, d))
      .filter((d) => existsSync(d))
      .map(newestMtime),
  );
  return inputs > built;
}

/** Builds the CLI (when stale, unless `force`); returns whether it built. */
export async function buildCli({ force = false, quiet = false } = {}) {
  if (!force && !cliIsStale()) return false;
  let build;
  try {
    ({ build } = await import('vite'));
  } catch {
    // An install without devDependencies (`npm ci --omit=dev` in a clone) cannot build.
    const note = '[vak-explorer] cannot build the CLI without the devDependencies (vite): run `npm install`';
    if (existsSync(CLI_ENTRY)) {
      console.error(`${note}; using the CLI built before`);
      return false;
    }
    throw new Error(note);
  }
  const staging = join(ROOT, 'dist', `.cli-build-${process.pid}-${Date.now()}`);
  try {
    await build({
      configFile: false,
      root: ROOT,
      logLevel: quiet ? 'error' : 'warn',
      build: {
        ssr: true,
        outDir: staging,
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        sourcemap: false,
        reportCompressedSize: false,
        copyPublicDir: false,
        rollupOptions: {
          // The command, the backend worker serve runs on a thread of its own, and the secret scan's
          // thread: thread-entry.ts looks for `backend-worker.js` and `secret-scan-worker.js` beside
          // (or one folder above) the chunk that starts them.
          input: {
            'vak-explorer': join(ROOT, 'src/cli/main.ts'),
            'backend-worker': join(ROOT, 'src/main/worker/backend-worker.ts'),
            'secret-scan-worker': join(ROOT, 'src/main/secrets/secret-scan-worker.ts'),
          },
          output: {
            format: 'es',
            entryFileNames: (chunk) => (chunk.name === 'vak-explorer' ? 'vak-explorer.mjs' : `${chunk.name}.js`),
            chunkFileNames: 'chunks/[name]-[hash].mjs',
          },
        },
      },
    });
    mkdirSync(join(CLI_OUT_DIR, 'chunks'), { recursive: true });
    const staged = listFiles(staging).filter((f) => f !== 'vak-explorer.mjs');
    for (const f of staged) renameSync(join(staging, f), join(CLI_OUT_DIR, f));
    renameSync(join(staging, 'vak-explorer.mjs'), CLI_ENTRY);
    removeOldChunks(new Set(staged));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  // stderr: `npm run cli -- tree FILE --json` keeps a clean stdout.
  if (!quiet) console.error(`[vak-explorer] built the CLI: ${relative(ROOT, CLI_ENTRY)}`);
  return true;
}

function listFiles(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/** Chunks of earlier builds, once no process can still be starting from them (a minute). */
function removeOldChunks(keep) {
  const dir = join(CLI_OUT_DIR, 'chunks');
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (!keep.has(`chunks/${name}`) && Date.now() - statSync(p).mtimeMs > 60_000) rmSync(p, { force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli({ force: process.argv.includes('--force') });
}
