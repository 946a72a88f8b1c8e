import type { Rng } from './rng';

/** Words and shapes for plausible coding-agent sessions (content is filler; structure is the point). */
const VERBS = ['fix', 'explain', 'refactor', 'review', 'test', 'speed up', 'document', 'simplify'];
const THINGS = [
  'the parser',
  'turn_index',
  'estimate_tokens',
  'read_ledger',
  'try_lock',
  'the CI job',
  'the config loader',
  'the retry logic',
  'the tokenizer',
  'the session writer',
];
const FILES = [
  'src/parser.rs',
  'src/ledger.rs',
  'src/turns.rs',
  'src/lock.rs',
  'src/plan.rs',
  'tests/ledger.rs',
  'Cargo.toml',
];
const WORDS =
  'the a test fails when input is empty and we should check the index before reading tokens so that callers get an error instead of a panic which keeps the suite green while the change stays small and easy to review'.split(
    ' ',
  );

export const TOOLS = [
  {
    name: 'read_file',
    description: 'Read a UTF-8 text file from the workspace.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'run_command',
    description: 'Run a shell command in the working directory; returns stdout and stderr.',
    input_schema: {
      type: 'object',
      properties: { command: { type: 'string' }, timeout_s: { type: 'integer' } },
      required: ['command'],
    },
  },
  {
    name: 'edit_file',
    description: 'Replace one exact occurrence of a string in a file.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, old: { type: 'string' }, new: { type: 'string' } },
      required: ['path', 'old', 'new'],
    },
  },
  {
    name: 'search',
    description: 'Search the workspace with a regular expression.',
    input_schema: {
      type: 'object',
      properties: { query: { type: 'string' }, path: { type: 'string' } },
      required: ['query'],
    },
  },
  {
    name: 'show_card',
    description: 'Show the user a structured card.',
    input_schema: {
      type: 'object',
      properties: { card_type: { type: 'string' }, payload: { type: 'object' } },
      required: ['card_type', 'payload'],
    },
  },
];

export const SYSTEM_PROMPT =
  "You are vak, a careful coding agent working in the user's repository. Read before you edit, run the tests after every change, and say plainly what you did and what you did not verify.";

export function sentence(rng: Rng, min = 6, max = 18): string {
  const n = rng.int(min, max);
  const w: string[] = [];
  for (let k = 0; k < n; k++) w.push(rng.pick(WORDS));
  const s = w.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

export function paragraph(rng: Rng, sentences: number): string {
  const out: string[] = [];
  for (let k = 0; k < sentences; k++) out.push(sentence(rng));
  return out.join(' ');
}

export function directive(rng: Rng): string {
  return `Can you ${rng.pick(VERBS)} ${rng.pick(THINGS)}? ${sentence(rng, 4, 10)}`;
}

export function toolCall(rng: Rng): { name: string; input: Record<string, unknown> } {
  switch (rng.int(0, 3)) {
    case 0:
      return { name: 'read_file', input: { path: rng.pick(FILES) } };
    case 1:
      return {
        name: 'run_command',
        input: { command: rng.pick(['cargo test', 'cargo clippy', 'git diff', 'cargo build']), timeout_s: 300 },
      };
    case 2:
      return {
        name: 'edit_file',
        input: { path: rng.pick(FILES), old: sentence(rng, 3, 6), new: sentence(rng, 3, 6) },
      };
    default:
      return { name: 'search', input: { query: rng.pick(['fn parse', 'unwrap\\(', 'TODO', 'try_lock']), path: 'src' } };
  }
}

/** Tool output of about `bytes` bytes, line-structured like compiler or test output. */
export function toolOutput(rng: Rng, bytes: number): string {
  const lines: string[] = [];
  let n = 0;
  while (n < bytes) {
    const l = `${rng.pick(['test', 'warning:', 'error[E0599]:', '   -->', 'running', 'ok'])} ${sentence(rng, 4, 12)}`;
    lines.push(l);
    n += l.length + 1;
  }
  return lines.join('\n');
}
