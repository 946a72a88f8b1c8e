import { runCli } from './cli';

/** The `vak-explorer` command (bin): plain Node, no Electron. */
const code = await runCli(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
});
process.exitCode = code;
