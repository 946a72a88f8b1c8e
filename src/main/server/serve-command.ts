import type { CliIo } from '../../cli/cli';

/** Placeholder until the loopback server lands (issue 3). */
export async function serveCommand(_argv: string[], io: CliIo): Promise<number> {
  io.err('vak-explorer: serve mode is not built yet\n');
  return 2;
}
