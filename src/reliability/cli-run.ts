import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { runCli } from '../cli/cli';

const BIN = resolve(import.meta.dirname, '../../bin/vak-explorer.mjs');

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI in this process (same code as the command, fast). */
export async function cliInProcess(argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

/** Runs `bin/vak-explorer.mjs` as a real Node process. */
export function cliProcess(argv: string[], timeoutMs = 20_000): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...argv], {
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
