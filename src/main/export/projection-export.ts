/**
 * A leaf's projected context as a file: the §9 `project --json` shape, or
 * Markdown a person can read (each message a section, content in fences that no ledger
 * text can close).
 */
import type { ProjectionExport } from '../../shared/api-features';
import { clipJson, stringifyJson } from '../../shared/json-text';
import type { Json, ProjectedMessage, Projection } from '../../shared/ledger-types';
import { projectionJson } from '../../shared/projection-json';
import { isObject } from '../core/entry-types';

/** A fence longer than any run of backticks in `text`, so the text cannot end it. */
function fence(text: string, info = ''): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${info}\n${text}\n${f}`;
}

/** One content block as Markdown. */
function blockMarkdown(b: Json): string {
  if (!isObject(b)) return fence(stringifyJson(b, 2), 'json');
  const type = b['type'];
  if ((type === 'text' || type === 'thinking') && typeof b['text'] === 'string') {
    return (type === 'thinking' ? '*thinking:*\n\n' : '') + fence(b['text'], 'text');
  }
  if (type === 'tool_use') {
    return (
      `*tool_use* \`${String(b['name']).replace(/`/g, "'")}\`\n\n` + fence(stringifyJson(b['input'] ?? null, 2), 'json')
    );
  }
  if (type === 'tool_result') {
    const c = b['content'];
    const head = `*tool_result*${b['is_error'] === true ? ' (error)' : ''}`;
    return `${head}\n\n` + fence(typeof c === 'string' ? c : stringifyJson(c ?? null, 2), 'text');
  }
  return fence(stringifyJson(b, 2), 'json');
}

/** The projected context as Markdown. */
export function projectionMarkdown(p: Projection, title: string): string {
  return runToEnd(markdownSteps(p, title));
}

/** `projectionMarkdown`, pausing (yielding) after each message. */
function* markdownSteps(p: Projection, title: string): Generator<void, string> {
  const out: string[] = [];
  out.push(`# Projected context of ${title}`, '');
  out.push(
    `Leaf \`${p.leaf}\` · ${p.messages.length} messages · ${p.tokens.total} tokens (available ${p.tokens.available}, over budget ${p.over_budget})`,
    '',
  );
  out.push(`## System (${p.tokens.system} tokens)`, '', fence(p.system, 'text'), '');
  out.push(`## Tools (${p.tokens.tools} tokens)`, '', fence(stringifyJson(p.tools, 2), 'json'), '');
  for (let k = 0; k < p.messages.length; k++) {
    const m = p.messages[k];
    const turn = m.turn_id === null ? '' : ` · turn \`${m.turn_id}\``;
    out.push(`## ${k + 1}. ${m.role} · ${m.fidelity}${turn} · ${m.tokens} tokens`, '');
    out.push(`Sources: ${m.source_ids.map((id) => `\`${id.replace(/`/g, "'")}\``).join(', ')}`, '');
    for (const b of m.content) out.push(blockMarkdown(b), '');
    yield;
  }
  return out.join('\n');
}

/**
 * `stringifyJson(projectionJson(p), 2)`, pausing after each message: the document with no
 * message, then each message written alone and indented to its place (a JSON string holds no
 * raw line break, so indenting after each one is exact).
 */
function* projectionJsonSteps(p: Projection): Generator<void, string> {
  const around = stringifyJson(projectionJson({ ...p, messages: [] }) as unknown as Json, 2);
  const empty = '"messages": []';
  const parts: string[] = [];
  for (const m of p.messages) {
    parts.push(stringifyJson(m as unknown as Json, 2).replace(/\n/g, '\n    '));
    yield;
  }
  const messages = parts.length === 0 ? '[]' : `[\n    ${parts.join(',\n    ')}\n  ]`;
  // The top level's key: only its lines start with two spaces and a quote (strings hold no line break).
  const at = around.indexOf(`\n  ${empty}`);
  return `${around.slice(0, at)}\n  "messages": ${messages}${around.slice(at + 3 + empty.length)}`;
}

/** Work that pauses (a generator yielding between its steps), run to its end at once. */
function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Strings longer than this are clipped in an export, with a note of how much is left out: a
 * tool result of hundreds of MB in the open turn would otherwise be copied whole several times
 * over (fences, the joined text, the answer) and the export's size would follow it.
 */
export const MAX_EXPORT_STRING_CHARS = 1 << 20;
const CLIP_LIMITS = { maxChars: MAX_EXPORT_STRING_CHARS, maxDepth: Infinity };

/** A message with every string over MAX_EXPORT_STRING_CHARS clipped (the same object when none is). */
function clipMessage(m: ProjectedMessage): ProjectedMessage {
  const r = clipJson(m.content, CLIP_LIMITS);
  return r.clipped ? { ...m, content: r.value as Json[] } : m;
}

/** The system prompt and tools with every string over MAX_EXPORT_STRING_CHARS clipped. */
function clipHeader(p: Projection): Projection {
  const tools = clipJson(p.tools, CLIP_LIMITS);
  const system = clipJson(p.system, CLIP_LIMITS);
  if (!tools.clipped && !system.clipped) return p;
  return { ...p, system: system.value as string, tools: tools.value as Json[] };
}

/** Where an export's messages come from: a whole projection, or a leaf's plan that shapes them on demand. */
export interface ExportSource {
  /** The projection; its `messages` are not read (see `messages`). */
  summary: Projection;
  messageCount: number;
  messages(start: number, end: number): ProjectedMessage[];
}

/** Messages shaped per pause of `projectionExportSteps`. */
const MESSAGES_PER_STEP = 32;

/**
 * The export file for a projection, as JSON (§9) or Markdown. Its size follows the projection's:
 * long strings clipped (MAX_EXPORT_STRING_CHARS), values nested deep written compactly past
 * MAX_INDENT_LEVELS (stringifyJson).
 */
export function projectionExport(p: Projection, format: 'json' | 'markdown', sessionId: string): ProjectionExport {
  const source = {
    summary: p,
    messageCount: p.messages.length,
    messages: (a: number, b: number) => p.messages.slice(a, b),
  };
  return runToEnd(projectionExportSteps(source, format, sessionId));
}

/**
 * `projectionExport`, pausing (yielding) after every few messages shaped and each one written: a
 * caller in steps answers other requests meanwhile (a 200k-entry session's export takes seconds).
 */
export function* projectionExportSteps(
  source: ExportSource,
  format: 'json' | 'markdown',
  sessionId: string,
): Generator<void, ProjectionExport> {
  const messages: ProjectedMessage[] = [];
  for (let start = 0; start < source.messageCount; start += MESSAGES_PER_STEP) {
    for (const m of source.messages(start, Math.min(source.messageCount, start + MESSAGES_PER_STEP))) {
      // Clipped as it comes: a long string is never kept whole beside the next ones.
      messages.push(clipMessage(m));
    }
    yield;
  }
  const p = clipHeader({ ...source.summary, messages });
  const stem = `${sessionId}-${p.leaf}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  if (format === 'json') {
    return {
      fileName: `${stem}.projection.json`,
      mimeType: 'application/json',
      text: (yield* projectionJsonSteps(p)) + '\n',
    };
  }
  return {
    fileName: `${stem}.projection.md`,
    mimeType: 'text/markdown',
    text: yield* markdownSteps(p, sessionId),
  };
}
