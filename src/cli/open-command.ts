/**
 * `vak-explorer FILE…` and `vak-explorer open FILE…`: starts the desktop app on ledger files
 * (or hands them to the one already running: the app keeps a single instance, which opens a second
 * launch's files in its window). Each file is checked first; where the Electron binary is missing
 * (a CLI-only install, an offline machine) it says so and names `serve --file` instead.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ledgerFileProblem } from '../main/library/opened-files';
import { parseArgs, UsageError } from './args';
import type { CliIo } from './cli-io';
import { PACKAGE_ROOT } from './serve-paths';

/** What `open` takes from the outside world, replaceable in tests. */
export interface OpenDeps {
  /** The Electron binary, or null when it is not installed here (with why). */
  electronBinary(): { path: string } | { missing: string };
  /** The app's folder (package.json `main` leads to the built main bundle). */
  appDir: string;
  /** Starts the app, detached: the command returns at once and the app lives on. */
  startApp(binary: string, args: string[]): void;
}

/** Runs `open`; resolves with the exit code. */
export async function openCommand(argv: string[], io: CliIo, overrides: Partial<OpenDeps> = {}): Promise<number> {
  const args = parseArgs('open', argv, {});
  if (args.positionals.length === 0) throw new UsageError('open needs at least one FILE');
  const files = args.positionals.map((f) => resolve(f));
  // Refused here, with the reason, before any window opens.
  for (const f of files) {
    const why = ledgerFileProblem(f);
    if (why !== null) {
      io.err(`vak-explorer: open: ${why}; nothing is opened\n`);
      return 2;
    }
  }
  const deps = { ...defaultDeps(), ...overrides };
  const bin = deps.electronBinary();
  const serveHint = `vak-explorer serve ${files.map((f) => `--file ${shellWord(f)}`).join(' ')}`;
  if ('missing' in bin) {
    io.err(
      `vak-explorer: open: the desktop app cannot start here: ${bin.missing}.\n` +
        `To explore the file in a browser instead, run:\n  ${serveHint}\n`,
    );
    return 2;
  }
  if (!existsSync(join(deps.appDir, 'out', 'main', 'index.js'))) {
    io.err(
      `vak-explorer: open: the desktop app is not built (${join(deps.appDir, 'out')}): run \`npm run build\` first\n`,
    );
    return 2;
  }
  deps.startApp(bin.path, [deps.appDir, ...files]);
  io.out(`vak-explorer: opening ${files.join(', ')} in the desktop app\n`);
  return 0;
}

/** A path as one shell word (quoted when it holds anything but plain characters). */
function shellWord(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The Electron binary the `electron` package of `root` downloaded, found as that package's own
 * index.js finds it (its `path.txt` names the binary under `dist/`), without loading the package.
 */
export function electronBinaryIn(
  root: string,
  env: Record<string, string | undefined>,
): { path: string } | { missing: string } {
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json'))) return { missing: 'the electron package is not installed' };
  let name: string;
  try {
    name = readFileSync(join(pkg, 'path.txt'), 'utf8').trim();
  } catch {
    return { missing: `the Electron binary was never downloaded (no ${join(pkg, 'path.txt')})` };
  }
  const dist = env['ELECTRON_OVERRIDE_DIST_PATH'] || join(pkg, 'dist');
  const path = join(dist, name);
  return existsSync(path) ? { path } : { missing: `the Electron binary is missing (${path})` };
}

function defaultDeps(): OpenDeps {
  return {
    electronBinary: () => electronBinaryIn(PACKAGE_ROOT, process.env),
    appDir: PACKAGE_ROOT,
    startApp: (binary, args) => {
      const child = spawn(binary, args, { detached: true, stdio: 'ignore' });
      child.on('error', () => undefined);
      child.unref();
    },
  };
}
