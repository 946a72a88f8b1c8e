import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Makes a copied tree writable (folders 755, files 644): copies of `../shared/fixtures`, which may
 * be read-only where the tests run, become homes a test may append to, branch in and remove.
 */
export function makeWritable(p: string): void {
  const dir = statSync(p).isDirectory();
  chmodSync(p, dir ? 0o755 : 0o644);
  if (dir) for (const n of readdirSync(p)) makeWritable(join(p, n));
}
