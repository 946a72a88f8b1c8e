/**
 * Which strings of an entry a text search reads: what was said and done, never how the
 * ledger labels it. Message text (text and thinking blocks, the system prompt and the
 * tools' descriptions of the header), tool inputs (the values of a `tool_use`'s input) and
 * results (a `tool_result`'s content and digest), compaction summaries, and the payload of
 * every audit kind. Not searched: keys, the five common fields, roles, block types, model
 * names, stop reasons, usage, tool names and ids, and ids or digests inside payloads.
 */
import { ownTable, ownValue } from '../../shared/own-key';

/** A searched string and where it is in the entry (`message.content[0].text`). */
export interface SearchedString {
  path: string;
  value: string;
}

/** Payload field of each audit kind (LEDGER.md §3). */
const AUDIT_PAYLOAD: Record<string, string> = ownTable({
  receipt: 'receipt',
  goal: 'goal',
  goal_update: 'goal_update',
  activity: 'activity',
  work: 'work',
  intent: 'intent',
  child_run: 'child_run',
  turn_capabilities_bound: 'capabilities',
  presentation: 'presentation',
  turn_card: 'turn_card',
});

/** The kinds whose fields are named by the spec; any other kind is an unknown one, kept raw. */
const KNOWN = new Set(['header', 'message', 'compaction', ...Object.keys(AUDIT_PAYLOAD)]);
const COMMON = new Set(['id', 'parent_id', 'prev_hash', 'ts', 'kind']);

/** Keys naming an entry, a session, a tool call or a hash inside a payload: labels, not text. */
const isLabelKey = (key: string): boolean =>
  key === 'id' || key.endsWith('_id') || key.endsWith('digest') || key === 'evidence' || key === 'usage';

/** Every string the entry holds for a text search, in field order. */
export function searchedStrings(entry: Record<string, unknown>): SearchedString[] {
  const out: SearchedString[] = [];
  const kind = entry['kind'];
  if (kind === 'header') {
    str(out, 'system_prompt', entry['system_prompt']);
    const tools = entry['tools'];
    if (Array.isArray(tools)) tools.forEach((t, k) => str(out, `tools[${k}].description`, field(t, 'description')));
  } else if (kind === 'message') {
    const content = field(entry['message'], 'content');
    if (Array.isArray(content)) content.forEach((b, k) => blockStrings(out, `message.content[${k}]`, b));
  } else if (kind === 'compaction') {
    str(out, 'packet.summary', field(entry['packet'], 'summary'));
    str(out, 'summary', entry['summary']);
  } else if (typeof kind === 'string' && ownValue(AUDIT_PAYLOAD, kind) !== undefined) {
    const key = ownValue(AUDIT_PAYLOAD, kind)!;
    payloadStrings(out, key, entry[key]);
  } else if (typeof kind === 'string' && !KNOWN.has(kind)) {
    // An unknown kind is all payload: what it means is not known, so nothing is a label but the common fields.
    for (const key of Object.keys(entry)) if (!COMMON.has(key)) payloadStrings(out, key, entry[key]);
  }
  return out;
}

function blockStrings(out: SearchedString[], path: string, block: unknown): void {
  const type = field(block, 'type');
  if (type === 'text' || type === 'thinking') str(out, `${path}.text`, field(block, 'text'));
  else if (type === 'tool_use') allStrings(out, `${path}.input`, field(block, 'input'), () => false);
  else if (type === 'tool_result') {
    const content = field(block, 'content');
    // §4 has a string; a provider's array of text blocks is read as its texts.
    if (Array.isArray(content)) content.forEach((b, k) => blockStrings(out, `${path}.content[${k}]`, b));
    else str(out, `${path}.content`, content);
    str(out, `${path}.digest`, field(block, 'digest'));
  }
}

function payloadStrings(out: SearchedString[], path: string, value: unknown): void {
  allStrings(out, path, value, isLabelKey);
}

/** Every string value under `value` (never a key), skipping the members `skip` names. Iterative: a hostile line may nest thousands deep. */
function allStrings(out: SearchedString[], path: string, value: unknown, skip: (key: string) => boolean): void {
  const stack: { value: unknown; path: string }[] = [{ value, path }];
  while (stack.length > 0) {
    const top = stack.pop() as { value: unknown; path: string };
    const v = top.value;
    if (typeof v === 'string') out.push({ path: top.path, value: v });
    else if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) stack.push({ value: v[k], path: `${top.path}[${k}]` });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).filter((k) => !skip(k));
      for (let k = keys.length - 1; k >= 0; k--) {
        stack.push({ value: (v as Record<string, unknown>)[keys[k]], path: `${top.path}.${keys[k]}` });
      }
    }
  }
}

function str(out: SearchedString[], path: string, v: unknown): void {
  if (typeof v === 'string') out.push({ path, value: v });
}

function field(v: unknown, key: string): unknown {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;
}
