/**
 * A session as one self-contained HTML file: the tree, the history and
 * projected context of a leaf, deep links `#leaf=<id>`. What is in the file:
 * - a session of at most MAX_ALL_ENTRIES entries: every entry's content, and the
 *   projected context (auto plan, default profile) of every leaf (up to MAX_LEAVES)
 *   and of the chosen leaf;
 * - a bigger one: the chosen leaf's chain (its last MAX_CHAIN_ENTRIES entries) with
 *   content, and the chosen leaf's projected context only;
 * - tree rows for every entry up to MAX_TREE_ROWS, else for the included entries.
 * Strings longer than MAX_STRING_CHARS are clipped (said in the text).
 */
import { clipJson, stringifyJson } from '../../shared/json-text';
import { DEFAULT_PROFILE, type Json, type ProjectedMessage } from '../../shared/ledger-types';
import { chainToRoot } from '../core/chain';
import { entryPreview } from '../core/entry-preview';
import { isObject } from '../core/entry-types';
import type { Ledger } from '../core/ledger';
import { planLeaf } from '../core/projection';
import { htmlPageParts } from './html-page';
import { jsonForScript } from './html-text';
import { sourceMessages, sourceOfPlan } from './projection-text';

export const MAX_ALL_ENTRIES = 5000;
export const MAX_CHAIN_ENTRIES = 5000;
export const MAX_TREE_ROWS = 20000;
export const MAX_LEAVES = 50;
export const MAX_STRING_CHARS = 20000;
const MAX_DEPTH = 32;
const CLIP_LIMITS = { maxChars: MAX_STRING_CHARS, maxDepth: MAX_DEPTH };

interface PageRow {
  id: string;
  parent: string | null;
  kind: string;
  line: number;
  ts: string;
  text: string;
}

const clip = (s: string): string =>
  s.length <= MAX_STRING_CHARS
    ? s
    : `${s.slice(0, MAX_STRING_CHARS)}… [clipped: ${s.length - MAX_STRING_CHARS} more characters]`;

/** A projected message's blocks as plain text (the page shows it in a <pre>). */
function messageText(content: readonly Json[]): string {
  return content
    .map((b) => {
      if (!isObject(b)) return stringifyJson(b);
      if ((b['type'] === 'text' || b['type'] === 'thinking') && typeof b['text'] === 'string') return clip(b['text']);
      if (b['type'] === 'tool_use') {
        const input = clipJson(b['input'] ?? null, CLIP_LIMITS).value;
        return `[tool_use ${String(b['name'])}] ${clip(stringifyJson(input, 2))}`;
      }
      if (b['type'] === 'tool_result') {
        const c = b['content'];
        // Clipped before it is written: a result of hundreds of MB is never copied whole.
        const text = typeof c === 'string' ? c : stringifyJson(clipJson(c ?? null, CLIP_LIMITS).value);
        return `[tool_result${b['is_error'] === true ? ' error' : ''}] ${clip(text)}`;
      }
      return clip(stringifyJson(clipJson(b, CLIP_LIMITS).value, 2));
    })
    .join('\n');
}

/** What an export does to each text it writes (a secret's redaction), and the note its header carries. */
export interface TextFilter {
  text(s: string): string;
  json<T extends Json>(v: T): T;
  /** Distinct secrets it replaces: what the page's header says before a byte is written. */
  readonly secretCount: number;
  note(count: number): string;
}

/** A leaf's projection in the page's data, as JSON text in pieces (its messages shaped a page at a time). */
function* pageProjectionJson(ledger: Ledger, leaf: number, f: TextFilter | undefined): Generator<string> {
  const source = sourceOfPlan(planLeaf(ledger, leaf, { plan: 'auto', profile: DEFAULT_PROFILE }));
  const p = source.summary;
  const head = (m: ProjectedMessage): string =>
    `${m.role} · ${m.fidelity}${m.turn_id === null ? '' : ` · turn ${m.turn_id}`} · ${m.tokens} tokens · from ${m.source_ids.join(', ')}`;
  const summary =
    `auto plan, window ${DEFAULT_PROFILE.window}, reserve ${DEFAULT_PROFILE.reserve}, ${DEFAULT_PROFILE.bytes_per_token} bytes per token: ` +
    `${source.messageCount} messages, ${p.tokens.total} tokens (system ${p.tokens.system}, tools ${p.tokens.tools}), over budget ${p.over_budget}`;
  yield `{"summary":${JSON.stringify(summary)},"messages":[`;
  let first = true;
  for (const m of sourceMessages(source)) {
    const text = messageText(f ? f.json(m.content) : m.content);
    yield (first ? '' : ',') + JSON.stringify({ head: head(m), text });
    first = false;
  }
  yield ']}';
}

/** What an HTML export holds (shown in the file too). */
export interface HtmlExportContents {
  /** Every entry with its content (small sessions), or only the chosen leaf's chain. */
  entries: 'all' | 'chain';
  entryCount: number;
  treeRows: number;
  /** True when the tree rows are clipped (huge sessions). */
  treeClipped: boolean;
  /** Leaves whose projected context is in the file. */
  projectedLeaves: string[];
  /** Strings longer than this many characters are clipped. */
  maxStringChars: number;
}

/** An HTML export being written: its file name, what it holds, and its text in pieces. */
export interface HtmlExportPieces {
  fileName: string;
  included: HtmlExportContents;
  pieces: Generator<string>;
}

/**
 * The HTML export of a session, opened at `leaf` (an entry index), in pieces: the page's data is
 * written row by row, entry by entry and message by message, never as one string. Its JSON is what
 * JSON.stringify writes for the object {key, chosenLeaf, activeLeaf, rows, entries, projections}
 * (but for the order of ids that look like array indices, which an object would put first).
 */
export function sessionHtmlPieces(
  ledger: Ledger,
  leaf: number,
  meta: { key: string; sessionId: string; redactor?: TextFilter },
): HtmlExportPieces {
  const f = meta.redactor;
  const ix = ledger.index;
  const small = ix.count <= MAX_ALL_ENTRIES;
  const chain = chainToRoot(ix, leaf);
  const included = small ? Array.from({ length: ix.count }, (_, i) => i) : chain.slice(-MAX_CHAIN_ENTRIES);
  const treeClipped = ix.count > MAX_TREE_ROWS;
  const rowEntries = treeClipped ? [...included].sort((a, b) => a - b) : Array.from({ length: ix.count }, (_, i) => i);
  const leaves = small ? rowEntries.filter((i) => ix.childCount[i] === 0).slice(0, MAX_LEAVES) : [];
  if (!leaves.includes(leaf)) leaves.push(leaf);

  const row = (i: number): PageRow => {
    const e = ledger.entry(i);
    const p = ix.parent[i];
    return {
      id: ix.ids[i],
      parent: p >= 0 ? ix.ids[p] : null,
      kind: ix.kindName(i),
      line: ix.line[i],
      ts: e.ts,
      text: clip(f ? f.text(entryPreview(e).text) : entryPreview(e).text),
    };
  };
  /** The page's data as JSON text, in pieces. */
  function* data(): Generator<string> {
    const activeLeaf = ix.count > 0 ? ix.ids[ix.activeLeaf] : null;
    yield `{"key":${JSON.stringify(meta.key)},"chosenLeaf":${JSON.stringify(ix.ids[leaf])},"activeLeaf":${JSON.stringify(activeLeaf)},"rows":[`;
    for (let k = 0; k < rowEntries.length; k++) yield (k > 0 ? ',' : '') + JSON.stringify(row(rowEntries[k]));
    // Entry contents as pretty JSON text, keyed by id.
    yield '],"entries":{';
    for (let k = 0; k < included.length; k++) {
      const i = included[k];
      const raw = ledger.entry(i).fields;
      const fields = clipJson(f ? f.json(raw) : raw, CLIP_LIMITS).value;
      yield `${k > 0 ? ',' : ''}${JSON.stringify(ix.ids[i])}:${JSON.stringify(stringifyJson(fields, 2))}`;
    }
    yield '},"projections":{';
    for (let k = 0; k < leaves.length; k++) {
      yield `${k > 0 ? ',' : ''}${JSON.stringify(ix.ids[leaves[k]])}:`;
      yield* pageProjectionJson(ledger, leaves[k], f);
    }
    yield '}}';
  }

  const what = small
    ? `all ${ix.count} entries`
    : `the last ${included.length} entries of the chain of ${ix.ids[leaf]} (of ${ix.count} entries)`;
  const subtitle =
    `${meta.key} · ${what}; projected context of ${leaves.length} leaf${leaves.length === 1 ? '' : 's'}` +
    `${treeClipped ? `; tree rows of the included entries only` : ''}; strings over ${MAX_STRING_CHARS} characters clipped. ` +
    `Open a leaf with #leaf=<entry id>.` +
    (f && f.secretCount > 0 ? ` ${f.note(f.secretCount)}` : '');
  const page = htmlPageParts(`vak session ${meta.sessionId}`, subtitle);
  function* pieces(): Generator<string> {
    yield page.head;
    for (const piece of data()) yield jsonForScript(piece);
    yield page.tail;
  }
  return {
    fileName: `${meta.sessionId.replace(/[^A-Za-z0-9._-]+/g, '_')}.html`,
    included: {
      entries: small ? 'all' : 'chain',
      entryCount: included.length,
      treeRows: rowEntries.length,
      treeClipped,
      projectedLeaves: leaves.map((l) => ix.ids[l]),
      maxStringChars: MAX_STRING_CHARS,
    },
    pieces: pieces(),
  };
}
