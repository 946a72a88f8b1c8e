import { unexpectedErrorText } from '../main/api/api-backend';
import { appendBranchToFile, BranchError } from '../main/core/branch-append';
import { Ledger } from '../main/core/ledger';
import { planLeaf } from '../main/core/projection';
import { treeReport, verifyReport } from '../main/core/reports';
import { DEFAULT_PROFILE } from '../main/core/tokens';
import { projectionJsonCompact, sourceMessages, sourceOfPlan, type ExportSource } from '../main/export/projection-text';
import { numberOption, parseArgs, UsageError } from './args';
import type { CliIo } from './cli-io';
import { errnoText } from './errno-text';
import { readDirective, type StdinSource } from './directive-text';
import { writePieces } from './piece-writer';

export type { CliIo };

export const USAGE = `usage:
  vak-explorer verify FILE [--json]
  vak-explorer project FILE [--leaf ID] [--plan none|auto] [--window N] [--reserve N] [--bytes-per-token N] [--json]
  vak-explorer tree FILE [--json]
  vak-explorer branch FILE --at ID (--text TEXT | --text-file PATH | --text-file -) [--json]
  vak-explorer serve [--home DIR] [--port N] [--no-open]
  vak-explorer export FILE --format html|json|markdown [--leaf ID] [--out PATH]
      [--plan none|auto] [--window N] [--reserve N] [--bytes-per-token N]   (json, markdown)

N is a whole number in plain decimal digits (no 0x, 1e3, +, spaces or decimal point).
serve --home DIR must be an existing folder; without --home: $VAK_HOME, else ~/.vak, else the bundled demo.

exit codes: 0 ok · 1 verify found warnings, or a branch was refused · 2 unreadable file, unknown leaf, bad arguments,
  or stdout failed (other than a reader that stopped early: \`verify | head\` keeps verify's code).
  A branch that was appended exits 0 even when stdout fails; its id is then on stderr.`;

/** Runs one CLI command (LEDGER.md §9) and returns its exit code; `stdin` feeds `--text-file -`. */
export async function runCli(argv: string[], io: CliIo, stdin: StdinSource = process.stdin): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'verify':
        return verify(rest, io);
      case 'project':
        return await projectCmd(rest, io);
      case 'tree':
        return tree(rest, io);
      case 'branch':
        return await branch(rest, io, stdin);
      case 'export': {
        const { exportCommand } = await import('./export-command');
        return await exportCommand(rest, io, { open: openLedger, leaf: leafOf });
      }
      case 'serve': {
        // Loaded only for serve: the file commands start without the server, the API and ws.
        const { serveCommand } = await import('./serve-command');
        return await serveCommand(rest, io);
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE + '\n');
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`vak-explorer: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    if (e instanceof BranchError) {
      io.err(`vak-explorer: branch refused: ${e.message}\n`);
      return e.reason === 'unreadable' ? 2 : 1;
    }
    io.err(`vak-explorer: ${unexpectedErrorText(e)}\n`);
    return 2;
  }
}

function fileArg(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError('expected exactly one FILE');
  return positionals[0];
}

function openLedger(path: string): Ledger {
  try {
    return Ledger.openSync(path);
  } catch (e) {
    throw new Error(`cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** The entry index of `--leaf ID`, or of the active leaf without one; an unknown id throws (exit 2). */
function leafOf(ledger: Ledger, path: string, leafId: string | undefined): number {
  if (leafId !== undefined) {
    const i = ledger.indexOf(leafId);
    if (i === undefined) throw new Error(`unknown leaf ${JSON.stringify(leafId)}: no such entry in ${path}`);
    return i;
  }
  if (ledger.index.count === 0) throw new Error(`${path} has no entries to project`);
  return ledger.index.activeLeaf;
}

function verify(argv: string[], io: CliIo): number {
  const args = parseArgs('verify', argv, { json: 'boolean' });
  const ledger = openLedger(fileArg(args.positionals));
  const report = verifyReport(ledger);
  ledger.close();
  if (args.flags.has('json')) io.out(JSON.stringify(report) + '\n');
  else {
    io.out(`${report.entries} entries, active leaf ${report.active_leaf ?? '(none)'}\n`);
    for (const w of report.warnings)
      io.out(`line ${w.line} @${w.offset}: ${w.code}${w.id ? ` [${w.id}]` : ''}: ${w.message}\n`);
    io.out(report.warnings.length === 0 ? 'no warnings\n' : `${report.warnings.length} warning(s)\n`);
  }
  return report.warnings.length === 0 ? 0 : 1;
}

function tree(argv: string[], io: CliIo): number {
  const args = parseArgs('tree', argv, { json: 'boolean' });
  const ledger = openLedger(fileArg(args.positionals));
  const report = treeReport(ledger);
  ledger.close();
  if (args.flags.has('json')) io.out(JSON.stringify(report) + '\n');
  else {
    for (const e of report.entries) io.out(`${e.line}\t${e.id}\t${e.parent_id ?? '-'}\t${e.kind}\t${e.children}\n`);
  }
  return 0;
}

async function projectCmd(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs('project', argv, {
    leaf: 'string',
    plan: 'string',
    window: 'string',
    reserve: 'string',
    'bytes-per-token': 'string',
    json: 'boolean',
  });
  const path = fileArg(args.positionals);
  const plan = args.options.get('plan') ?? 'auto';
  if (plan !== 'none' && plan !== 'auto')
    throw new UsageError(`--plan must be none or auto, not ${JSON.stringify(plan)}`);
  const profile = {
    window: numberOption(args, 'window', DEFAULT_PROFILE.window, 0),
    reserve: numberOption(args, 'reserve', DEFAULT_PROFILE.reserve, 0),
    bytes_per_token: numberOption(args, 'bytes-per-token', DEFAULT_PROFILE.bytes_per_token, 1),
  };
  const ledger = openLedger(path);
  try {
    const leaf = leafOf(ledger, path, args.options.get('leaf'));
    // Messages shaped a page at a time and written as they come: the output is never one string.
    const source = sourceOfPlan(planLeaf(ledger, leaf, { plan, profile }));
    if (args.flags.has('json')) await writePieces(withEnd(projectionJsonCompact(source), '\n'), io);
    else await writePieces(projectionLines(source), io);
    return 0;
  } finally {
    ledger.close();
  }
}

/** `project` without --json: a line per message, then the totals. */
function* projectionLines(source: ExportSource): Generator<string> {
  for (const m of sourceMessages(source)) {
    yield `${m.fidelity.padEnd(8)} ${m.role.padEnd(9)} ${String(m.tokens).padStart(6)} tok  ${m.source_ids.join(',')}\n`;
  }
  const p = source.summary;
  yield `total ${p.tokens.total} / available ${p.tokens.available} · over budget ${p.over_budget}\n`;
}

function* withEnd(pieces: Iterable<string>, end: string): Generator<string> {
  yield* pieces;
  yield end;
}

async function branch(argv: string[], io: CliIo, stdin: StdinSource): Promise<number> {
  const args = parseArgs('branch', argv, { at: 'string', text: 'string', 'text-file': 'string', json: 'boolean' });
  const path = fileArg(args.positionals);
  const at = args.options.get('at');
  if (at === undefined) throw new UsageError('branch needs --at ID');
  const text = await readDirective(args.options.get('text'), args.options.get('text-file'), stdin);
  const r = await appendBranchToFile(path, at, text);
  io.out(args.flags.has('json') ? JSON.stringify(r) + '\n' : r.id + '\n');
  // The line is in the ledger: a failed exit would make a script append it again.
  const failure = (await io.outFailure?.()) ?? null;
  if (failure !== null) {
    io.err(`vak-explorer: branch appended ${r.id} (stdout failed: ${errnoText(failure)})\n`);
  }
  return 0;
}
