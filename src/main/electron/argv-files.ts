/**
 * The ledger files a command line names, for the desktop app: its own first launch
 * (`vak-explorer FILE`, a file manager's "Open with") and a second launch's, which the running
 * app receives (`second-instance`). Without Electron, so it is tested as it is.
 */
import { isAbsolute, resolve } from 'node:path';

export interface ArgvContext {
  /** A packaged app's argv is [app, …args]; in development it is [electron, appPath, …args]. */
  isPackaged: boolean;
  /** The launching process's working folder: relative paths are taken from there. */
  cwd: string;
}

/**
 * File arguments of `argv`, absolute: every argument that is not a switch (Chromium adds some, e.g.
 * `--allow-file-access-from-files`), after the executable (and, in development, the app's path).
 * Everything after `--` is a file, whatever it starts with.
 */
export function filesFromArgv(argv: readonly string[], ctx: ArgvContext): string[] {
  const args = argv.slice(1);
  const out: string[] = [];
  let skipApp = !ctx.isPackaged;
  let literal = false;
  for (const a of args) {
    if (!literal && a === '--') {
      literal = true;
      continue;
    }
    if (!literal && a.startsWith('-')) continue;
    if (skipApp) {
      skipApp = false;
      continue;
    }
    if (a.length === 0) continue;
    out.push(isAbsolute(a) ? a : resolve(ctx.cwd, a));
  }
  return out;
}
