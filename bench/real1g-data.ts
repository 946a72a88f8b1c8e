/**
 * The 1 GB session (generated once, cached in bench/.data/cli-real1g.jsonl): the generator's
 * `realSizeUncompacted` shape grown to 1 GiB (~360k entries, one long active chain), the size the
 * CLI's streamed output is measured at.
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generateSession, realSizeUncompacted } from '../src/generator';
import { ROOT } from '../src/test-support/serve-process';

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

if (process.argv[1] === import.meta.filename) console.log(prepareReal1g(console.log));
