import { formatBytes } from '../../shared/format-bytes';
import { jsonPrefix } from '../../shared/json-text';
import {
  isObject,
  recordedKind,
  type Json,
  type JsonObject,
  type LedgerEntry,
  type MessageEntry,
  type Role,
} from './entry-types';
import { contentString } from './tokens';

/**
 * The one line a tree row or a chain item shows for an entry: a message's first
 * text, a tool call with its arguments, a result's size, or the gist of an
 * audit entry. Payloads are untrusted, so every field is checked before use.
 */

export interface EntryPreview {
  text: string;
  role: Role | null;
  control: boolean;
}

const PREVIEW_MAX = 200;

const str = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);
const line = (s: string): string => oneLine(s, PREVIEW_MAX);
/** Any JSON value as short text (strings as they are): only its start is written, at any size or depth. */
const gist = (v: Json | undefined): string =>
  v === undefined ? '' : typeof v === 'string' ? v : jsonPrefix(v, PREVIEW_MAX * 2);

/** Text on one line: whitespace collapsed, clipped to `max` code points with an ellipsis. */
export function oneLine(text: string, max: number): string {
  // Only the start can show: a multi-megabyte text is not flattened whole.
  const head = text.length > max * 8 ? text.slice(0, max * 8) : text;
  const flat = head.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cps = Array.from(flat);
  return cps.length <= max ? flat : cps.slice(0, max - 1).join('') + '…';
}

function messagePreview(e: MessageEntry): EntryPreview {
  const blocks = e.message.content.filter(isObject);
  const text = blocks.find((b) => b['type'] === 'text' && typeof b['text'] === 'string');
  let out: string;
  if (text) out = line(str(text['text']) ?? '');
  else {
    const parts: string[] = [];
    for (const b of blocks) {
      if (b['type'] === 'tool_use') parts.push(`${str(b['name']) ?? 'tool'}(${gist(b['input'] ?? '')})`);
      else if (b['type'] === 'tool_result') {
        const bytes = Buffer.byteLength(contentString(b['content']), 'utf8');
        parts.push(`${b['is_error'] === true ? 'error' : 'result'} (${formatBytes(bytes)})`);
      } else if (b['type'] === 'image') parts.push(`[image ${str(b['media_type']) ?? ''}]`.replace(' ]', ']'));
      else if (b['type'] === 'thinking') parts.push('(thinking)');
    }
    out = line(parts.join(' · '));
  }
  if (e.controlNudge) out = line(`[${gist(e.control)}] ${out}`);
  return { text: out, role: e.message.role, control: e.controlNudge };
}

/**
 * One line about an audit or other non-message entry, from its recorded fields: a
 * preview shows what is there, also in a payload too malformed to project.
 */
function auditText(fields: JsonObject, kind: string): string {
  const e = (k: string): Json | undefined => (Object.hasOwn(fields, k) ? fields[k] : undefined);
  const o = (k: string): JsonObject => {
    const v = e(k);
    return isObject(v) ? v : {};
  };
  switch (kind) {
    case 'header':
      return [str(e('model')), str(e('cwd'))].filter((x) => x !== null).join(' · ');
    case 'compaction': {
      if (e('reset_all') === true) return `reset: ${gist(e('summary'))}`;
      const p = o('packet');
      return `packet: ${gist(p['summary'])}`;
    }
    case 'receipt': {
      const r = o('receipt');
      const n = Array.isArray(r['attempts']) ? r['attempts'].length : 0;
      return `${gist(r['purpose'])} · ${n} attempt${n === 1 ? '' : 's'}`;
    }
    case 'goal':
      return gist(o('goal')['objective']);
    case 'goal_update': {
      const g = o('goal_update');
      return [gist(g['status']), gist(g['relation']), gist(g['note'])].filter((x) => x).join(' · ');
    }
    case 'activity': {
      const a = o('activity');
      return `${gist(a['type'])}: ${gist(a['detail'])}`;
    }
    case 'work': {
      const w = o('work');
      return [gist(w['work_id']), gist(w['event']), gist(w['state'])].filter((x) => x).join(' · ');
    }
    case 'intent':
      return gist(o('intent')['reading']);
    case 'child_run': {
      const c = o('child_run');
      return `${gist(c['agent'])} ${gist(c['outcome'])}${c['summary'] ? ': ' + gist(c['summary']) : ''}`;
    }
    case 'turn_capabilities_bound': {
      const c = o('capabilities');
      const n = (k: string): number => {
        const v = Object.hasOwn(c, k) ? c[k] : undefined;
        return Array.isArray(v) ? v.length : 0;
      };
      return `${n('core_tools')} core tools, ${n('deferred_tools')} deferred`;
    }
    case 'presentation': {
      const p = o('presentation');
      return `${gist(p['card_type'])} card · ack ${gist(p['ack'])}`;
    }
    case 'turn_card':
      return gist(o('turn_card')['line']);
    default: {
      // Unknown kind: show which fields it carries beyond the common five.
      const common = new Set(['id', 'parent_id', 'ts', 'prev_hash', 'kind']);
      return Object.keys(fields)
        .filter((k) => !common.has(k))
        .join(', ');
    }
  }
}

/** The row text, role and control flag of an entry. */
export function entryPreview(e: LedgerEntry): EntryPreview {
  if (e.kind === 'message') return messagePreview(e);
  // A malformed message has no role and stands in no turn: it shows no text of its own.
  if (e.kind === 'malformed' && e.recordedKind === 'message') return { text: '', role: null, control: false };
  return { text: line(auditText(e.fields, recordedKind(e))), role: null, control: false };
}
