/**
 * The 1 GB session (generated once, cached in bench/.data/cli-real1g.jsonl): the generator's
 * `realSizeUncompacted` shape grown to 1 GiB (~360k entries, one long active chain), the size the
 * CLI's streamed output is measured at.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSession, realSizeUncompacted } from '../src/generator';
import { cwdHash } from '../src/main/core/fnv1a64';
import { sessionKey } from '../src/shared/session-key';
import { ROOT } from '../src/test-support/serve-process';
import type { Real100 } from './real100-data';

const DATA = join(ROOT, 'bench', '.data');
const GIB = 1 << 30;

/** The 1 GiB ledger's path (generating it the first time: about a minute). */
export function prepareReal1g(log: (s: string) => void): string {
  const path = join(DATA, 'cli-real1g.jsonl');
  if (existsSync(path) && statSync(path).size > 0.9 * GIB) return path;
  mkdirSync(DATA, { recursive: true });
  log('  generating the 1 GiB session (realSizeUncompacted at 1 GiB) …');
  const partial = `${path}.partial`;
  generateSession({ ...realSizeUncompacted(partial), seed: 1000, bytes: GIB });
  renameSync(partial, path);
  return path;
}

/** The 1 GiB session: the 100 MB shape, ten times as long (cached in bench/.data/eye-1g-home). */
export function prepareEye1g(log: (s: string) => void): Real100 {
  const data = DATA;
  const home = join(data, 'eye-1g-home');
  const marker = join(data, 'eye-1g-home.json');
  mkdirSync(data, { recursive: true });
  const partial = join(data, 'eye-1g.partial.jsonl');
  const opts = { ...realSizeUncompacted(partial), bytes: 1024 * 1024 * 1024 };
  const options = JSON.stringify({ ...opts, path: undefined });
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8')) as Real100;
    const file = join(home, m.key);
    if (m.options === options && existsSync(file) && statSync(file).size === m.bytes) return { ...m, home };
    rmSync(home, { recursive: true, force: true });
  }
  log('  generating the 1 GiB session (the 100 MB shape, longer; about a minute) …');
  const g = generateSession(opts);
  const key = sessionKey('vak', cwdHash(opts.cwd), g.sessionId);
  mkdirSync(join(home, key, '..'), { recursive: true });
  renameSync(partial, join(home, key));
  const made: Real100 = { options, home, key, entries: g.entries, bytes: statSync(join(home, key)).size };
  writeFileSync(marker, JSON.stringify(made));
  return made;
}

if (process.argv[1] === import.meta.filename) console.log(prepareReal1g(console.log));
