import { runCli } from './cli';
import { StdoutSink } from './stdout-sink';

/** The `vak-explorer` command (bin): plain Node, no Electron. */

// A reader that stops early (`tree BIG | head`) or a full disk must not end the command with an
// unhandled error: see stdout-sink.ts. With stderr gone too, only the exit code can tell.
const stdout = new StdoutSink(process.stdout);
const err = (s: string): void => void process.stderr.write(s);
process.stderr.on('error', () => undefined);

const code = await runCli(process.argv.slice(2), {
  out: (s) => stdout.write(s),
  err,
  outFailure: () => stdout.claimFailure(),
  outReady: () => stdout.ready(),
  outFailed: () => stdout.failed,
});
process.exitCode = await stdout.finish(code, err);
