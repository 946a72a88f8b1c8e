import { readdirSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseSessionKey, SESSION_EXT, sessionKey } from '../../shared/session-key';
import { cwdHash } from './fnv1a64';

/**
 * §1 home discovery: `$VAK_HOME/agents/<agent>/sessions/<cwd-hash>/<session-id>.jsonl`.
 * The layout has a fixed depth, so discovery is four plain directory listings,
 * never a recursive walk, and reads no ledger bytes.
 */

/** One session file found under a home. */
export interface SessionFile {
  /** `agents/<agent>/sessions/<cwd-hash>/<session-id>.jsonl`, always with `/`. */
  key: string;
  agent: string;
  cwdHash: string;
  sessionId: string;
  /** Absolute path. */
  path: string;
  /**
   * A file the user opened by path, not one found under a home (its key is `opened/<n>.jsonl`,
   * `agent` and `cwdHash` are empty): read under session-file.ts's rule for opened files.
   */
  opened?: true;
}

/** `$VAK_HOME`, or `~/.vak` when it is unset or empty. */
export function defaultHome(env: Record<string, string | undefined> = process.env): string {
  const v = env['VAK_HOME'];
  return v && v.length > 0 ? v : join(homedir(), '.vak');
}

// One definition of the key's shape for the core, the library and the API schemas.
export { parseSessionKey, sessionKey };

/** The absolute path of a key under a home (the key must have been validated). */
export function sessionPath(home: string, key: string): string {
  return join(home, ...key.split('/'));
}

/** §1: true when the folder name is the FNV-1a 64 of the header's cwd. */
export function cwdMatchesFolder(folder: string, cwd: string): boolean {
  return cwdHash(cwd) === folder;
}

/** Directory entries, or [] when the folder is missing or unreadable (a home changes under us). */
function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

// Symlinked folders and files are followed: a home assembled with links is still a home
// (session-file.ts says which linked files may be read). Anything named *.jsonl that is
// not a directory is listed, FIFOs and devices included, so the library can say why it
// is not read instead of hiding it; listing reads no byte and opens nothing.
const isDir = (d: Dirent): boolean => d.isDirectory() || d.isSymbolicLink();
const isFile = (d: Dirent): boolean => !d.isDirectory();

/** Agent names under `agents/`, sorted. */
export function listAgents(home: string): string[] {
  return entries(join(home, 'agents'))
    .filter(isDir)
    .map((d) => d.name)
    .sort();
}

/** Working-directory folders (`<cwd-hash>`) of one agent, sorted. */
export function listCwdFolders(home: string, agent: string): string[] {
  return entries(join(home, 'agents', agent, 'sessions'))
    .filter(isDir)
    .map((d) => d.name)
    .sort();
}

/** Session files of one working-directory folder, sorted by name (UUIDv7 names sort by time). */
export function listSessionFiles(home: string, agent: string, hash: string): SessionFile[] {
  const dir = join(home, 'agents', agent, 'sessions', hash);
  return entries(dir)
    .filter((d) => isFile(d) && d.name.endsWith(SESSION_EXT) && d.name.length > SESSION_EXT.length)
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sessionId = name.slice(0, -SESSION_EXT.length);
      return { key: sessionKey(agent, hash, sessionId), agent, cwdHash: hash, sessionId, path: join(dir, name) };
    });
}

/** Every session file of a home: all agents × working directories. */
export function scanHome(home: string): SessionFile[] {
  const out: SessionFile[] = [];
  for (const agent of listAgents(home)) {
    for (const hash of listCwdFolders(home, agent)) out.push(...listSessionFiles(home, agent, hash));
  }
  return out;
}

/** The SessionFile a key names under a home (no file system access). */
export function sessionFileOf(home: string, key: string): SessionFile | null {
  const p = parseSessionKey(key);
  return p ? { key, ...p, path: sessionPath(home, key) } : null;
}
