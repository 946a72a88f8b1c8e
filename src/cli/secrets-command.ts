/**
 * `vak-explorer secrets FILE|--home DIR [--json]`: the secrets found in a session file, or in
 * every session of a home, by secretlint's recommended preset (the scan the app runs). Exit 1
 * when any is found, so it can guard a share or a CI step; never prints a secret's text.
 */
import { existsSync, statSync } from 'node:fs';
import { scanHome } from '../main/core/home';
import { Ledger } from '../main/core/ledger';
import { SecretScanner } from '../main/secrets/secret-scanner';
import { publicFinding } from '../main/secrets/session-secrets';
import type { SecretFinding } from '../shared/api-secrets';
import { parseArgs, UsageError } from './args';
import type { CliIo } from './cli-io';

/** A ledger read with a scanner, scanned to its end. */
export async function scanFile(path: string): Promise<{ ledger: Ledger; scanner: SecretScanner }> {
  const scanner = new SecretScanner();
  let ledger: Ledger;
  try {
    ledger = await Ledger.open(path, { lineSink: scanner });
  } catch (e) {
    throw new Error(`cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
  await scanner.whenIdle();
  return { ledger, scanner };
}

export async function secretsCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs('secrets', argv, { home: 'string', json: 'boolean' });
  const home = args.options.get('home');
  let files: string[];
  if (home !== undefined) {
    if (args.positionals.length > 0) throw new UsageError('secrets: give FILE or --home DIR, not both');
    if (!existsSync(home) || !statSync(home).isDirectory()) throw new Error(`--home ${home} is not a folder`);
    files = scanHome(home).map((f) => f.path);
  } else {
    if (args.positionals.length !== 1) throw new UsageError('secrets: expected exactly one FILE, or --home DIR');
    files = [args.positionals[0]];
  }
  const found: (SecretFinding & { file: string })[] = [];
  for (const file of files) {
    const { ledger, scanner } = await scanFile(file);
    ledger.close();
    for (const f of scanner.findings()) found.push({ file, ...publicFinding(f) });
  }
  if (args.flags.has('json')) {
    const findings = found.map((f) => ({
      file: f.file,
      line: f.line,
      entry_id: f.entryId,
      field: f.field,
      rule: f.rule,
      kind: f.kind,
      byte_range: f.lineBytes,
    }));
    io.out(JSON.stringify({ files: files.length, count: found.length, findings }) + '\n');
  } else {
    for (const f of found) {
      const bytes = f.lineBytes ? ` bytes ${f.lineBytes[0]}-${f.lineBytes[1]}` : '';
      io.out(`${f.file}:${f.line}\t${f.entryId}\t${f.kind} (${f.rule})\t${f.field}${bytes}\n`);
    }
    io.out(
      found.length === 0
        ? `no secrets found in ${files.length} file(s)\n`
        : `${found.length} secret(s) found in ${files.length} file(s)\n`,
    );
  }
  return found.length === 0 ? 0 : 1;
}
