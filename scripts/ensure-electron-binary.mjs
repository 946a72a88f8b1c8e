// Makes sure Electron's binary is there.
//
// As the root `postinstall`: npm 11 runs no dependency install scripts unless approved, so
// electron's own download step is declined in package.json (allowScripts) and run here
// instead, where a failure (offline machine, CI) is a note, not a broken install: the CLI,
// serve mode and every test but the Electron smoke test work without it.
//
// As `prestart` (--for-start): tries the download once more if the binary is missing, and
// otherwise stops `npm start` with a clear message instead of electron-vite's "Electron uninstall".
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const forStart = process.argv.includes('--for-start');

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD && !forStart) {
  console.log('[vak-explorer] ELECTRON_SKIP_BINARY_DOWNLOAD is set: not fetching the Electron binary.');
  process.exit(0);
}
let dir;
try {
  dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
} catch {
  if (forStart) {
    console.error('[vak-explorer] The electron package is not installed: run `npm install` first.');
    process.exit(1);
  }
  process.exit(0); // an install without devDependencies (the CLI only)
}
if (existsSync(join(dir, 'path.txt'))) process.exit(0);
const env = { ...process.env };
delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
// The downloader's own output is kept back: offline it is a stack trace, and the note below says
// what it means and what still works.
const r = spawnSync(process.execPath, [join(dir, 'install.js')], { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, env });
if (r.status === 0 && existsSync(join(dir, 'path.txt'))) process.exit(0);
const message =
  '[vak-explorer] The Electron binary could not be downloaded (offline?). `npm start` needs it: run\n' +
  '  `npm start` again on a machine that reaches the internet. Without it, the CLI (`npx vak-explorer`)\n' +
  '  and serve mode (`npm run serve`: the same explorer in a browser) work.';
if (forStart) {
  console.error(message);
  process.exit(1);
}
console.warn(message);
