/**
 * A leaf's projected context as a file (issue 11 §4): the §9 `project --json` shape, or
 * Markdown a person can read (each message a section, content in fences that no ledger
 * text can close).
 */
import type { ProjectionExport } from '../../shared/api-features';
import { clipJson, stringifyJson } from '../../shared/json-text';
import type { Json, Projection } from '../../shared/ledger-types';
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
  const out: string[] = [];
  out.push(`# Projected context of ${title}`, '');
  out.push(
    `Leaf \`${p.leaf}\` · ${p.messages.length} messages · ${p.tokens.total} tokens (available ${p.tokens.available}, over budget ${p.over_budget})`,
    '',
  );
  out.push(`## System (${p.tokens.system} tokens)`, '', fence(p.system, 'text'), '');
  out.push(`## Tools (${p.tokens.tools} tokens)`, '', fence(stringifyJson(p.tools, 2), 'json'), '');
  p.messages.forEach((m, k) => {
    const turn = m.turn_id === null ? '' : ` · turn \`${m.turn_id}\``;
    out.push(`## ${k + 1}. ${m.role} · ${m.fidelity}${turn} · ${m.tokens} tokens`, '');
    out.push(`Sources: ${m.source_ids.map((id) => `\`${id.replace(/`/g, "'")}\``).join(', ')}`, '');
    for (const b of m.content) out.push(blockMarkdown(b), '');
  });
  return out.join('\n');
}

/**
 * Strings longer than this are clipped in an export, with a note of how much is left out: a
 * tool result of hundreds of MB in the open turn would otherwise be copied whole several times
 * over (fences, the joined text, the answer) and the export's size would follow it.
 */
export const MAX_EXPORT_STRING_CHARS = 1 << 20;

/** The projection with every string over MAX_EXPORT_STRING_CHARS clipped (the same object when none is). */
export function clipProjection(p: Projection): Projection {
  const limits = { maxChars: MAX_EXPORT_STRING_CHARS, maxDepth: Infinity };
  const clipText = (s: string): string => clipJson(s, limits).value as string;
  let changed = false;
  const messages = p.messages.map((m) => {
    const r = clipJson(m.content, limits);
    if (!r.clipped) return m;
    changed = true;
    return { ...m, content: r.value as Json[] };
  });
  const tools = clipJson(p.tools, limits);
  const system = clipText(p.system);
  if (!changed && !tools.clipped && system === p.system) return p;
  return { ...p, system, tools: tools.value as Json[], messages };
}

/**
 * The export file for a projection, as JSON (§9) or Markdown. Its size follows the projection's:
 * long strings clipped (MAX_EXPORT_STRING_CHARS), values nested deep written compactly past
 * MAX_INDENT_LEVELS (stringifyJson).
 */
export function projectionExport(full: Projection, format: 'json' | 'markdown', sessionId: string): ProjectionExport {
  const p = clipProjection(full);
  const stem = `${sessionId}-${p.leaf}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  if (format === 'json') {
    return {
      fileName: `${stem}.projection.json`,
      mimeType: 'application/json',
      text: stringifyJson(projectionJson(p) as unknown as Json, 2) + '\n',
    };
  }
  return { fileName: `${stem}.projection.md`, mimeType: 'text/markdown', text: projectionMarkdown(p, sessionId) };
}
