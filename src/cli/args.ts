/**
 * Argument parsing for every command: `node:util` parseArgs in strict mode, so an unknown
 * option or a missing value is refused (exit 2, the option named) instead of silently ignored.
 */
import { parseArgs as parseNodeArgs } from 'node:util';
import { parseDecimalInteger } from '../shared/decimal-integer';

/**
 * A command's options: each a string (`--name VALUE` / `--name=VALUE`), a boolean flag, or a
 * string that may be given again (`strings`: `--file A --file B`).
 */
export type OptionSpec = Readonly<Record<string, 'string' | 'boolean' | 'strings'>>;

export interface ParsedArgs {
  positionals: string[];
  /** String options as given (absent when not given). */
  options: ReadonlyMap<string, string>;
  /** Boolean flags that were given. */
  flags: ReadonlySet<string>;
  /** Repeatable (`strings`) options, every value in order (absent when not given). */
  lists: ReadonlyMap<string, string[]>;
}

/** A command line the CLI refuses: exit 2 with the usage. */
export class UsageError extends Error {}

interface NodeArgsError extends Error {
  code?: string;
}

/** Parses `argv` for `command`: refuses unknown options, a missing value, and a value given to a flag. */
export function parseArgs(command: string, argv: readonly string[], spec: OptionSpec): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, type]) =>
      type === 'strings' ? [name, { type: 'string' as const, multiple: true }] : [name, { type }],
    ),
  );
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (e) {
    throw usageErrorFrom(command, e as NodeArgsError);
  }
  const out = {
    positionals: parsed.positionals,
    options: new Map<string, string>(),
    flags: new Set<string>(),
    lists: new Map<string, string[]>(),
  };
  for (const [name, value] of Object.entries(parsed.values)) {
    if (Array.isArray(value)) out.lists.set(name, value.map(String));
    else if (typeof value === 'string') out.options.set(name, value);
    else if (value === true) out.flags.add(name);
  }
  return out;
}

/** Node's messages name the option; the unknown-option one also gives advice about `--` that fits no command here. */
function usageErrorFrom(command: string, e: NodeArgsError): UsageError {
  const named = /'(-[^' ]+)/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && named !== undefined) {
    return new UsageError(`${command}: unknown option ${named}`);
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && named !== undefined) {
    if (/argument missing/.test(e.message)) return new UsageError(`${command}: ${named} needs a value`);
    if (/does not take an argument/.test(e.message)) return new UsageError(`${command}: ${named} takes no value`);
    if (/ambiguous/.test(e.message)) {
      return new UsageError(`${command}: the value after ${named} starts with "-": write ${named}=VALUE`);
    }
  }
  return new UsageError(`${command}: ${e.message}`);
}

/**
 * A whole-number option from `min` to `max` in plain decimal digits (src/shared/decimal-integer.ts:
 * "0x10", "1e3", "+5", " 5" are refused), or `dflt` when absent.
 */
export function numberOption(
  args: ParsedArgs,
  name: string,
  dflt: number,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  const v = args.options.get(name);
  if (v === undefined) return dflt;
  const n = parseDecimalInteger(v, max);
  if (n === null || n < min) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} must be a whole number ${range} in plain decimal digits, not ${JSON.stringify(v)}`);
  }
  return n;
}
