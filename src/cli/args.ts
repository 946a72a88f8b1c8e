/** A tiny argv parser: positionals, `--flag value`, `--flag=value` and boolean `--json`. */
export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string>;
  flags: Set<string>;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[], booleanFlags: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { positionals: [], options: new Map(), flags: new Set() };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (!a.startsWith('--')) {
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (booleanFlags.includes(name)) {
      out.flags.add(name);
    } else if (eq >= 0) {
      out.options.set(name, a.slice(eq + 1));
    } else {
      const v = argv[k + 1];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      out.options.set(name, v);
      k++;
    }
  }
  return out;
}

export function numberOption(args: ParsedArgs, name: string, dflt: number, min: number): number {
  const v = args.options.get(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || !Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, not ${JSON.stringify(v)}`);
  }
  return n;
}
