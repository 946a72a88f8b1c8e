import { runCli } from './cli';

/** The `vak-explorer` command (bin): plain Node, no Electron. */

// A reader that stops early (`vak-explorer tree BIG --json | head`) closes the pipe: end quietly,
// as Unix tools do, instead of an unhandled EPIPE stack trace.
let stdoutClosed = false;
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  stdoutClosed = true;
  process.exit(0);
});

const code = await runCli(process.argv.slice(2), {
  out: (s) => {
    if (!stdoutClosed) process.stdout.write(s);
  },
  err: (s) => process.stderr.write(s),
});
process.exitCode = code;
