/**
 * A leaf's projected context written as text in pieces, message by message: the §9
 * `project --json` line, the JSON export (indented) and the Markdown export. No piece holds more
 * than one message, so a writer that sends each piece on (a stdout, a file, an API chunk) never
 * builds the whole text, and messages are shaped a page at a time, never all at once.
 *
 * The seam for a step that rewrites messages (redaction): wrap the `ExportSource` (`mapSource`),
 * and every format written from it sees only the rewritten messages.
 */
import { stringifyJson } from '../../shared/json-text';
import type { Json, ProjectedMessage, Projection } from '../../shared/ledger-types';
import { projectionJson } from '../../shared/projection-json';
import { isObject } from '../core/entry-types';
import { projectionOf, type LeafPlan } from '../core/projection';

/** Where the messages come from: a whole projection, or a leaf's plan that shapes them on demand. */
export interface ExportSource {
  /** The projection; its `messages` are not read (see `messages`). */
  summary: Projection;
  messageCount: number;
  messages(start: number, end: number): ProjectedMessage[];
}

/** Messages shaped per page: a page of messages is all a writer holds at once. */
export const MESSAGES_PER_PAGE = 32;

/** A whole projection as a source. */
export function sourceOfProjection(p: Projection): ExportSource {
  return { summary: p, messageCount: p.messages.length, messages: (a, b) => p.messages.slice(a, b) };
}

/** A leaf's plan as a source: its messages shaped a page at a time, each read once (LeafPlan.messages' `oneRead`). */
export function sourceOfPlan(lp: LeafPlan, signal?: Parameters<LeafPlan['messages']>[2]): ExportSource {
  return {
    summary: projectionOf(lp, []),
    messageCount: lp.messageCount,
    messages: (a, b) => lp.messages(a, b, signal, true),
  };
}

/** `source` with each message (and the summary) rewritten: the place for a step such as redaction. */
export function mapSource(
  source: ExportSource,
  message: (m: ProjectedMessage) => ProjectedMessage,
  summary: (p: Projection) => Projection = (p) => p,
): ExportSource {
  return {
    summary: summary(source.summary),
    messageCount: source.messageCount,
    messages: (a, b) => source.messages(a, b).map(message),
  };
}

/** Every message of `source` in order, a page shaped at a time. */
export function* sourceMessages(source: ExportSource): Generator<ProjectedMessage> {
  for (let start = 0; start < source.messageCount; start += MESSAGES_PER_PAGE) {
    yield* source.messages(start, Math.min(source.messageCount, start + MESSAGES_PER_PAGE));
  }
}

/**
 * `stringifyJson(projectionJson(p))` (the §9 `project --json` text, without its line break) in
 * pieces: exactly the same characters. The fields are written by hand in §9's order, as
 * JSON.stringify writes that object; compact JSON of a value does not depend on where it stands.
 */
export function* projectionJsonCompact(source: ExportSource): Generator<string> {
  const p = projectionJson({ ...source.summary, messages: [] });
  const field = (k: string, v: unknown): string => `${JSON.stringify(k)}:${stringifyJson(v as Json)}`;
  yield `{${field('leaf', p.leaf)},${field('system', p.system)},${field('tools', p.tools)},"messages":[`;
  let first = true;
  for (const m of sourceMessages(source)) {
    yield (first ? '' : ',') + stringifyJson(m as unknown as Json);
    first = false;
  }
  yield `],${field('plan', p.plan)},${field('tokens', p.tokens)},${field('over_budget', p.over_budget)}}`;
}

/**
 * `stringifyJson(projectionJson(p), 2)` in pieces: the document with no message, then each
 * message written alone and indented to its place (a JSON string holds no raw line break, so
 * indenting after each one is exact).
 */
export function* projectionJsonIndented(source: ExportSource): Generator<string> {
  const around = stringifyJson(projectionJson({ ...source.summary, messages: [] }) as unknown as Json, 2);
  const empty = '"messages": []';
  // The top level's key: only its lines start with two spaces and a quote (strings hold no line break).
  const at = around.indexOf(`\n  ${empty}`);
  yield `${around.slice(0, at)}\n  "messages": `;
  let first = true;
  for (const m of sourceMessages(source)) {
    yield (first ? '[\n    ' : ',\n    ') + stringifyJson(m as unknown as Json, 2).replace(/\n/g, '\n    ');
    first = false;
  }
  yield (first ? '[]' : '\n  ]') + around.slice(at + 3 + empty.length);
}

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

/** The projected context as Markdown a person can read, in pieces (each message a section). */
export function* projectionMarkdown(source: ExportSource, title: string): Generator<string> {
  const p = source.summary;
  const head: string[] = [];
  head.push(`# Projected context of ${title}`, '');
  head.push(
    `Leaf \`${p.leaf}\` · ${source.messageCount} messages · ${p.tokens.total} tokens (available ${p.tokens.available}, over budget ${p.over_budget})`,
    '',
  );
  head.push(`## System (${p.tokens.system} tokens)`, '', fence(p.system, 'text'), '');
  head.push(`## Tools (${p.tokens.tools} tokens)`, '', fence(stringifyJson(p.tools, 2), 'json'), '');
  yield head.join('\n');
  let k = 0;
  for (const m of sourceMessages(source)) {
    const out: string[] = [];
    const turn = m.turn_id === null ? '' : ` · turn \`${m.turn_id}\``;
    out.push(`## ${++k}. ${m.role} · ${m.fidelity}${turn} · ${m.tokens} tokens`, '');
    out.push(`Sources: ${m.source_ids.map((id) => `\`${id.replace(/`/g, "'")}\``).join(', ')}`, '');
    for (const b of m.content) out.push(blockMarkdown(b), '');
    // Lines are joined by '\n': each message's lines follow the ones before after one.
    yield '\n' + out.join('\n');
  }
}
