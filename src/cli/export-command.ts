/**
 * `vak-explorer export FILE [--leaf ID] --format html|json|markdown [--out PATH]`: the app's
 * exports from the command line, written in pieces to a file or stdout (never one string). With
 * --out, the text goes to PATH.partial first and is renamed onto PATH once complete, so a failed
 * export leaves no half file under the name asked for (a device or FIFO is written in place).
 */
import { createWriteStream, realpathSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Ledger } from '../main/core/ledger';
import { planLeaf } from '../main/core/projection';
import { DEFAULT_PROFILE } from '../main/core/tokens';
import { projectionExportPieces } from '../main/export/projection-export';
import { sourceOfPlan } from '../main/export/projection-text';
import { sessionHtmlPieces } from '../main/export/session-html';
import { numberOption, parseArgs, UsageError } from './args';
import type { CliIo } from './cli-io';
import { errnoText } from './errno-text';
import { writePieces } from './piece-writer';
import { StdoutSink } from './stdout-sink';

/** The ledger and leaf a file command works on (shared with `project`). */
export interface LeafOpener {
  open(path: string): Ledger;
  leaf(ledger: Ledger, path: string, leafId: string | undefined): number;
}

export async function exportCommand(argv: string[], io: CliIo, opener: LeafOpener): Promise<number> {
  const args = parseArgs('export', argv, {
    leaf: 'string',
    format: 'string',
    out: 'string',
    plan: 'string',
    window: 'string',
    reserve: 'string',
    'bytes-per-token': 'string',
  });
  if (args.positionals.length !== 1) throw new UsageError('expected exactly one FILE');
  const path = args.positionals[0];
  const format = args.options.get('format');
  if (format !== 'html' && format !== 'json' && format !== 'markdown') {
    throw new UsageError(
      `export needs --format html, json or markdown${format === undefined ? '' : `, not ${JSON.stringify(format)}`}`,
    );
  }
  const plan = args.options.get('plan') ?? 'auto';
  if (plan !== 'none' && plan !== 'auto')
    throw new UsageError(`--plan must be none or auto, not ${JSON.stringify(plan)}`);
  const profile = {
    window: numberOption(args, 'window', DEFAULT_PROFILE.window, 0),
    reserve: numberOption(args, 'reserve', DEFAULT_PROFILE.reserve, 0),
    bytes_per_token: numberOption(args, 'bytes-per-token', DEFAULT_PROFILE.bytes_per_token, 1),
  };
  if (
    format === 'html' &&
    (args.options.has('plan') ||
      args.options.has('window') ||
      args.options.has('reserve') ||
      args.options.has('bytes-per-token'))
  ) {
    throw new UsageError(
      '--plan, --window, --reserve and --bytes-per-token apply to json and markdown (the HTML page holds the auto plan at the default profile)',
    );
  }
  // The app names an export after its session id; a file given here is named after its own name.
  const sessionId = basename(path).replace(/\.jsonl$/, '') || 'session';
  const ledger = opener.open(path);
  try {
    const leaf = opener.leaf(ledger, path, args.options.get('leaf'));
    const pieces =
      format === 'html'
        ? sessionHtmlPieces(ledger, leaf, { key: path, sessionId }).pieces
        : projectionExportPieces(sourceOfPlan(planLeaf(ledger, leaf, { plan, profile })), format, sessionId).pieces;
    const out = args.options.get('out');
    if (out === undefined) {
      await writePieces(iterable(pieces), io);
      return 0;
    }
    return await writeFile(out, pieces, io);
  } finally {
    ledger.close();
  }
}

const iterable = (it: Iterator<string>): Iterable<string> => ({ [Symbol.iterator]: () => it });

/**
 * Where to write `out`: a regular file (or a new one) through `<file>.partial`, renamed onto it
 * when complete (a link is followed: the file it names is replaced, not the link); anything else
 * (a device such as /dev/stdout, a FIFO) is written in place, never renamed over.
 */
function outTarget(out: string): { write: string; renameTo: string | null } {
  let st;
  try {
    st = statSync(out);
  } catch {
    return { write: `${out}.partial`, renameTo: out };
  }
  if (!st.isFile()) return { write: out, renameTo: null };
  const real = realpathSync(out);
  return { write: `${real}.partial`, renameTo: real };
}

/** Writes the pieces to `out` (see outTarget); 2 when it cannot. */
async function writeFile(out: string, pieces: Iterator<string>, io: CliIo): Promise<number> {
  const { write: partial, renameTo } = outTarget(out);
  const stream = createWriteStream(partial, { flags: 'w' });
  const sink = new StdoutSink(stream);
  const opened = new Promise<NodeJS.ErrnoException | null>((resolve) => {
    stream.once('ready', () => resolve(null));
    stream.once('error', (e: NodeJS.ErrnoException) => resolve(e));
  });
  const openFailure = await opened;
  if (openFailure !== null) {
    io.err(`vak-explorer: cannot write ${out}: ${errnoText(openFailure)}\n`);
    return 2;
  }
  await writePieces(iterable(pieces), {
    out: (s) => sink.write(s),
    outReady: () => sink.ready(),
    outFailed: () => sink.failed,
  });
  const failure = await sink.claimFailure();
  await new Promise<void>((resolve) => stream.end(() => resolve()));
  if (failure !== null) {
    if (renameTo !== null) await rm(partial, { force: true });
    io.err(
      `vak-explorer: cannot write ${out}: ${errnoText(failure)}${renameTo !== null ? '; nothing was saved' : ''}\n`,
    );
    return 2;
  }
  if (renameTo !== null) await rename(partial, renameTo);
  return 0;
}
