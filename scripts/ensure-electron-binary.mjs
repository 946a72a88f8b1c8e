// Root postinstall. npm 11 runs no dependency install scripts unless approved, so
// electron's own download step is declined in package.json (allowScripts) and run
// here instead, where a failure (offline machine, CI) is a note, not a broken install:
// the CLI, serve mode and every test but the Electron smoke test work without it.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log('[vak-explorer] ELECTRON_SKIP_BINARY_DOWNLOAD is set: not fetching the Electron binary.');
  process.exit(0);
}
let dir;
try {
  dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
} catch {
  process.exit(0); // production install without devDependencies
}
if (existsSync(join(dir, 'path.txt'))) process.exit(0);
const r = spawnSync(process.execPath, [join(dir, 'install.js')], { stdio: 'inherit', cwd: dir });
if (r.status !== 0) {
  console.warn(
    '[vak-explorer] The Electron binary could not be downloaded (offline?). `npm start` needs it;\n' +
      '  the CLI (`npx vak-explorer`), serve mode (`npm run serve`) and the tests work without it.',
  );
}
