/**
 * The 100 MB session (generated once, cached in bench/.data/real100-home): the
 * generator's `realSizeUncompacted` shape, alone in a home, as `vak-explorer serve` reads it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSession, realSizeUncompacted } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { sessionKey } from '../src/shared/session-key';
import { ROOT } from '../src/test-support/serve-process';

const DATA = join(ROOT, 'bench', '.data');
const HOME = join(DATA, 'real100-home');
const MARKER = join(DATA, 'real100-home.json');

export interface Real100 {
  /** What it was generated from (a different shape is regenerated). */
  options: string;
  home: string;
  key: string;
  entries: number;
  bytes: number;
}

/** The home holding the 100 MB session (generating it the first time, ~5 s). */
export function prepareReal100(log: (s: string) => void): Real100 {
  mkdirSync(DATA, { recursive: true });
  const partial = join(DATA, 'real100.partial.jsonl');
  const opts = realSizeUncompacted(partial);
  const options = JSON.stringify({ ...opts, path: undefined });
  if (existsSync(MARKER)) {
    const m = JSON.parse(readFileSync(MARKER, 'utf8')) as Real100;
    const file = join(HOME, m.key);
    if (m.options === options && existsSync(file) && statSync(file).size === m.bytes) return { ...m, home: HOME };
    rmSync(HOME, { recursive: true, force: true });
  }
  log('  generating the 100 MB session (realSizeUncompacted) …');
  const g = generateSession(opts);
  const key = sessionKey('vak', cwdHash(opts.cwd), g.sessionId);
  mkdirSync(join(HOME, key, '..'), { recursive: true });
  renameSync(partial, join(HOME, key));
  const made: Real100 = { options, home: HOME, key, entries: g.entries, bytes: statSync(join(HOME, key)).size };
  writeFileSync(MARKER, JSON.stringify(made));
  return made;
}
