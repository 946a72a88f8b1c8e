import { existsSync } from 'node:fs';
import { unexpectedErrorText } from '../main/api/api-backend';
import { appendBranchToFile, BranchError } from '../main/core/branch-append';
import { Ledger } from '../main/core/ledger';
import type { SyncOpenOptions } from '../main/core/ledger-options';
import { planLeaf } from '../main/core/projection';
import { entryFateOf, projectedSearchOf } from '../main/api/entry-fate-handler';
import { atOnce } from '../main/core/cancel';
import { treeReport, verifyReport } from '../main/core/reports';
import { DEFAULT_PROFILE } from '../main/core/tokens';
import { projectionJsonCompact, sourceMessages, sourceOfPlan, type ExportSource } from '../main/export/projection-text';
import { numberOption, parseArgs, UsageError, type ParsedArgs } from './args';
import type { CapacityProfile } from '../main/core/tokens';
import type { CliIo } from './cli-io';
import { errnoText } from './errno-text';
import { readDirective, type StdinSource } from './directive-text';
import { writePieces } from './piece-writer';

export type { CliIo };

export const USAGE = `usage:
  vak-explorer verify FILE [--json]
  vak-explorer project FILE [--leaf ID] [--plan none|auto] [--window N] [--reserve N] [--bytes-per-token N] [--json]
  vak-explorer fate FILE --entry ID [--leaf ID] [--plan none|auto] [--window N] [--reserve N] [--bytes-per-token N] [--json]
  vak-explorer sent FILE --text TEXT [--at-leaf] [--leaf ID] [--plan none|auto] [--window N] [--reserve N] [--bytes-per-token N] [--json]
  vak-explorer tree FILE [--json]
  vak-explorer branch FILE --at ID (--text TEXT | --text-file PATH | --text-file -) [--json]
  vak-explorer serve [--home DIR] [--file FILE]... [--port N] [--no-open] [--no-secret-survey]
  vak-explorer [open] FILE...        (the desktop app on ledger files)
  vak-explorer secrets (FILE | --home DIR) [--json]
  vak-explorer project … --redact      (each secret found replaced by [redacted: KIND])
  vak-explorer export FILE --format html|json|markdown [--leaf ID] [--out PATH]
      [--plan none|auto] [--window N] [--reserve N] [--bytes-per-token N]   (json, markdown)

N is a whole number in plain decimal digits (no 0x, 1e3, +, spaces or decimal point).
serve --home DIR must be an existing folder; without --home: $VAK_HOME, else ~/.vak, else the bundled demo.
serve --file FILE (repeatable) lists a ledger from anywhere under "Opened files".

exit codes: 0 ok · 1 verify found warnings, secrets found some, or a branch was refused · 2 unreadable file, unknown leaf, bad arguments,
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
        return rest.includes('--redact') ? await redactedProject(rest, io) : await projectCmd(rest, io);
      case 'fate':
        return fateCmd(rest, io);
      case 'sent':
        return sentCmd(rest, io);
      case 'secrets': {
        const { secretsCommand } = await import('./secrets-command');
        return await secretsCommand(rest, io);
      }
      case 'tree':
        return tree(rest, io);
      case 'branch':
        return await branch(rest, io, stdin);
      case 'export': {
        const { exportCommand } = await import('./export-command');
        return await exportCommand(rest, io, { open: openLedger, leaf: leafOf });
      }
      case 'open':
        return await (await import('./open-command')).openCommand(rest, io);
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
        // `vak-explorer FILE…`: a path (a file manager's "Open with", a shell) opens the desktop app on it.
        if (looksLikeFile(command)) return await (await import('./open-command')).openCommand(argv, io);
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

/** A first argument that names a file rather than a command: a path, or a `.jsonl` name. */
function looksLikeFile(arg: string): boolean {
  return !arg.startsWith('-') && (arg.includes('/') || arg.endsWith('.jsonl') || existsSync(arg));
}

function fileArg(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError('expected exactly one FILE');
  return positionals[0];
}

function openLedger(path: string, opts: SyncOpenOptions = {}): Ledger {
  try {
    return Ledger.openSync(path, opts);
  } catch (e) {
    throw new Error(`cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
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

/** `project --redact`: the same output, each secret found in the file replaced by its marker. */
async function redactedProject(argv: string[], io: CliIo): Promise<number> {
  const { scanFile } = await import('./secrets-command');
  const { Redactor } = await import('../main/secrets/redact');
  const { redactedProjectionSource } = await import('../main/secrets/redacted-export');
  const rest = argv.filter((a) => a !== '--redact');
  const path = parseArgs('project', rest, PLAN_OPTIONS).positionals[0];
  let redactor = new Redactor([]);
  if (path !== undefined) {
    const { ledger, scanner } = await scanFile(path);
    ledger.close();
    redactor = new Redactor(scanner.findings());
  }
  // Redacted as values, message by message, so a secret that spans an escape (a key's line breaks) goes too.
  const code = await projectCmd(rest, io, (source) => redactedProjectionSource(source, redactor));
  if (redactor.count > 0) io.err(`vak-explorer: ${redactor.note()}\n`);
  return code;
}

/** The options `project` and `fate` share: a leaf, a plan and a CapacityProfile. */
const PLAN_OPTIONS = {
  leaf: 'string',
  plan: 'string',
  window: 'string',
  reserve: 'string',
  'bytes-per-token': 'string',
  json: 'boolean',
} as const;

function planArgs(args: ParsedArgs): { plan: 'none' | 'auto'; profile: CapacityProfile } {
  const plan = args.options.get('plan') ?? 'auto';
  if (plan !== 'none' && plan !== 'auto')
    throw new UsageError(`--plan must be none or auto, not ${JSON.stringify(plan)}`);
  const profile = {
    window: numberOption(args, 'window', DEFAULT_PROFILE.window, 0),
    reserve: numberOption(args, 'reserve', DEFAULT_PROFILE.reserve, 0),
    bytes_per_token: numberOption(args, 'bytes-per-token', DEFAULT_PROFILE.bytes_per_token, 1),
  };
  return { plan, profile };
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

const leafArg = (args: ParsedArgs, ledger: Ledger, path: string): number =>
  leafOf(ledger, path, args.options.get('leaf'));

/**
 * How `project` reads its file: noting each message's Full cost as it parses it (the plan then
 * parses no line again), and leaving the hash chain unchecked: §8 keeps an entry with a
 * hash_mismatch, so the projection never depends on it, and `project` prints no warning (the
 * check is deferred, not dropped: anything asking for every warning would do it first). The
 * claims it keeps meanwhile (~100 bytes an entry) are bounded: past them it hashes as it reads.
 */
const PROJECT_OPEN = (bpt: number) => ({ noteFullCosts: bpt, deferHashCheck: true, deferredClaimsMax: 1 << 19 });

/** `redact`: what `project --redact` does to the messages before they are written. */
async function projectCmd(
  argv: string[],
  io: CliIo,
  redact: (source: ExportSource) => ExportSource = (source) => source,
): Promise<number> {
  const args = parseArgs('project', argv, PLAN_OPTIONS);
  const path = fileArg(args.positionals);
  const { plan, profile } = planArgs(args);
  const ledger = openLedger(path, PROJECT_OPEN(profile.bytes_per_token));
  try {
    const leaf = leafArg(args, ledger, path);
    // Messages shaped a page at a time and written as they come: the output is never one string.
    const source = redact(sourceOfPlan(planLeaf(ledger, leaf, { plan, profile })));
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

/** An entry's fate at every turn end from its own on (docs/fate.md); exit 2 for an entry not on the leaf's chain. */
function fateCmd(argv: string[], io: CliIo): number {
  const args = parseArgs('fate', argv, { ...PLAN_OPTIONS, entry: 'string' });
  const path = fileArg(args.positionals);
  const entry = args.options.get('entry');
  if (entry === undefined) throw new UsageError('fate needs --entry ID');
  const { plan, profile } = planArgs(args);
  const ledger = openLedger(path);
  try {
    const leaf = leafArg(args, ledger, path);
    const req = { key: path, leaf: ledger.index.ids[leaf], plan, profile, entry };
    let fate;
    try {
      fate = atOnce(entryFateOf(ledger, leaf, req));
    } catch (e) {
      throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
    }
    if (args.flags.has('json')) io.out(JSON.stringify(fate) + '\n');
    else {
      for (const r of fate.rows) {
        const via = r.packet ? `packet ${r.packet.id} (turns ${r.packet.first}-${r.packet.last})` : (r.reset ?? '');
        io.out(
          `turn ${String(r.turn).padStart(5)}  ${r.at}  ${r.fidelity.padEnd(12)} ${String(r.tokens).padStart(7)} tok  ${via}\n`,
        );
      }
      io.out(fate.change ? fate.change.reason + '\n' : 'sent as itself at every turn end\n');
    }
    return 0;
  } finally {
    ledger.close();
  }
}

/** Search in what the model was sent: at every turn end of the leaf's chain, or `--at-leaf` (docs/fate.md). */
function sentCmd(argv: string[], io: CliIo): number {
  const args = parseArgs('sent', argv, { ...PLAN_OPTIONS, text: 'string', 'at-leaf': 'boolean' });
  const path = fileArg(args.positionals);
  const query = args.options.get('text');
  if (query === undefined || query.trim() === '') throw new UsageError('sent needs --text TEXT');
  const { plan, profile } = planArgs(args);
  const ledger = openLedger(path);
  try {
    const leaf = leafArg(args, ledger, path);
    const across = args.flags.has('at-leaf') ? ('leaf' as const) : ('turn-ends' as const);
    const req = { key: path, leaf: ledger.index.ids[leaf], plan, profile, query, across, limit: 500 };
    const r = atOnce(projectedSearchOf(ledger, leaf, req));
    if (args.flags.has('json')) io.out(JSON.stringify(r) + '\n');
    else {
      for (const h of r.hits) {
        const where = across === 'leaf' ? `message ${h.message}` : `turns ${h.fromTurn}-${h.toTurn}`;
        io.out(`${where}\t${h.fidelity}\t${h.entry}\t${h.snippet.replace(/\s+/g, ' ')}\n`);
      }
      if (across === 'leaf') io.out(r.hits.length === 0 ? 'not sent at this leaf\n' : '');
      else {
        io.out(
          r.lastSent === null
            ? `never sent at any of ${r.turnEnds} turn ends\n`
            : `sent from turn ${r.firstSent} to turn ${r.lastSent} of ${r.turnEnds}\n`,
        );
      }
    }
    return 0;
  } finally {
    ledger.close();
  }
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
