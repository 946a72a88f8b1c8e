import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HomeInfo } from '../../shared/api';
import { defaultHome, scanHome } from '../core/home';
import { fileTypeOf, LINK_LOOP } from '../core/safe-open';

export interface ResolveHomeOptions {
  env: Record<string, string | undefined>;
  /** The app's user-data folder (Electron `userData`, or `$XDG_DATA_HOME/vak-explorer`). */
  userDataDir: string;
  /** The bundled demo home (`resources/demo-home`), never written to. */
  bundledDemoDir: string;
  /** A home the user named (serve's `--home`): shown as it is, never replaced by the demo. */
  home?: string;
}

/** A home the user named that cannot be shown (missing, not a folder, a link loop…). */
export class HomeError extends Error {
  constructor(
    readonly home: string,
    problem: string,
  ) {
    super(`${home === '' ? 'an empty path' : home} ${problem}`);
    this.name = 'HomeError';
  }
}

/** Why a named home cannot be shown, in words, or null when it is a folder (a stat: nothing is read). */
export function namedHomeProblem(home: string): string | null {
  if (home === '') return 'names no folder';
  try {
    const st = statSync(home);
    return st.isDirectory() ? null : `is ${fileTypeOf(st)}, not a folder`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'does not exist';
    if (code === 'ENOTDIR') return 'does not exist (a part of its path is not a folder)';
    if (code === 'ELOOP') return `is ${LINK_LOOP}`;
    if (code === 'EACCES') return 'cannot be reached (EACCES: permission denied)';
    return `cannot be reached (${code ?? (e as Error).message})`;
  }
}

export const DEMO_LABEL = 'Demo home (bundled)';

/** `$XDG_DATA_HOME/vak-explorer`, or `~/.local/share/vak-explorer`: where serve mode keeps its demo copy. */
export function defaultUserDataDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env['XDG_DATA_HOME'];
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.local', 'share'), 'vak-explorer');
}

/** `~/…` for a path under the user's home, for labels. */
function tildify(path: string): string {
  const h = homedir();
  return path === h ? '~' : path.startsWith(h + '/') ? '~' + path.slice(h.length) : path;
}

/** Makes every file and folder of a tree writable by its owner (bundled files may be read-only). */
function makeWritable(path: string): void {
  const st = statSync(path);
  chmodSync(path, st.mode | (st.isDirectory() ? 0o700 : 0o600));
  if (st.isDirectory()) for (const name of readdirSync(path)) makeWritable(join(path, name));
}

/**
 * Copies the bundled demo home to `target` unless a copy with sessions is there
 * already (branches the user made in the demo are kept across runs).
 */
export function ensureDemoCopy(bundledDemoDir: string, target: string): string {
  if (existsSync(target) && scanHome(target).length > 0) return target;
  mkdirSync(target, { recursive: true });
  cpSync(bundledDemoDir, target, { recursive: true, force: true });
  makeWritable(target);
  return target;
}

/**
 * The home to show. A home the user named (`opts.home`) must be a folder (else HomeError):
 * a typo must not quietly show the demo in its place. Otherwise `$VAK_HOME` (default
 * `~/.vak`) when it holds a session; else a copy of the bundled demo in the user-data
 * folder, labelled a demo, so that branching in the demo never writes to the bundled files.
 */
export async function resolveHome(opts: ResolveHomeOptions): Promise<HomeInfo> {
  if (opts.home !== undefined) {
    const problem = namedHomeProblem(opts.home);
    if (problem !== null) throw new HomeError(opts.home, problem);
    return { home: opts.home, isDemo: false, label: tildify(opts.home), userHome: homedir() };
  }
  const home = defaultHome(opts.env);
  if (scanHome(home).length > 0 || !existsSync(opts.bundledDemoDir)) {
    return { home, isDemo: false, label: tildify(home), userHome: homedir() };
  }
  const copy = ensureDemoCopy(opts.bundledDemoDir, join(opts.userDataDir, 'demo-home'));
  return { home: copy, isDemo: true, label: DEMO_LABEL, userHome: homedir() };
}
