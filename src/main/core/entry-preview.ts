import type { EntryRole } from '../../shared/api';
import { isObject, type Entry } from './entry-types';

/**
 * The one line a tree row or a chain item shows for an entry: a message's first
 * text, a tool call with its arguments, a result's size, or the gist of an
 * audit entry. Payloads are untrusted, so every field is checked before use.
 */

export interface EntryPreview {
  text: string;
  role: EntryRole | null;
  control: boolean;
}

const PREVIEW_MAX = 200;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const line = (s: string): string => oneLine(s, PREVIEW_MAX);
/** Any JSON value as short text (strings as they are). */
const gist = (v: unknown): string => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Text on one line: whitespace collapsed, clipped to `max` code points with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cps = Array.from(flat);
  return cps.length <= max ? flat : cps.slice(0, max - 1).join('') + '…';
}

/** A byte size as people read it ("812 B", "2.1 KB", "3.4 MB"). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

function messagePreview(e: Entry): EntryPreview {
  const m = e['message'];
  const meta = e['meta'];
  const role =
    isObject(m) && (m['role'] === 'user' || m['role'] === 'assistant' || m['role'] === 'tool') ? m['role'] : null;
  // §8: only a user message with meta.control is a control nudge.
  const control = role === 'user' && isObject(meta) && meta['control'] !== undefined && meta['control'] !== null;
  const blocks = isObject(m) && Array.isArray(m['content']) ? m['content'].filter(isObject) : [];
  const text = blocks.find((b) => b['type'] === 'text' && typeof b['text'] === 'string');
  let out: string;
  if (text) out = line(text['text'] as string);
  else {
    const parts: string[] = [];
    for (const b of blocks) {
      if (b['type'] === 'tool_use') parts.push(`${str(b['name']) ?? 'tool'}(${gist(b['input'] ?? '')})`);
      else if (b['type'] === 'tool_result') {
        const bytes = Buffer.byteLength(str(b['content']) ?? gist(b['content']), 'utf8');
        parts.push(`${b['is_error'] === true ? 'error' : 'result'} (${formatBytes(bytes)})`);
      } else if (b['type'] === 'image') parts.push(`[image ${str(b['media_type']) ?? ''}]`.replace(' ]', ']'));
      else if (b['type'] === 'thinking') parts.push('(thinking)');
    }
    out = line(parts.join(' · '));
  }
  if (control) out = line(`[${gist(isObject(meta) ? meta['control'] : '')}] ${out}`);
  return { text: out, role, control };
}

/** One line about an audit or other non-message entry. */
function auditText(e: Entry, kind: string): string {
  const o = (k: string): Record<string, unknown> => (isObject(e[k]) ? (e[k] as Record<string, unknown>) : {});
  switch (kind) {
    case 'header':
      return [str(e['model']), str(e['cwd'])].filter((x) => x !== null).join(' · ');
    case 'compaction': {
      if (e['reset_all'] === true) return `reset: ${gist(e['summary'])}`;
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
      const n = (k: string): number => (Array.isArray(c[k]) ? (c[k] as unknown[]).length : 0);
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
      return Object.keys(e)
        .filter((k) => !common.has(k))
        .join(', ');
    }
  }
}

/** The row text, role and control flag of an entry (`kind` is the index's kind name). */
export function entryPreview(e: Entry, kind: string): EntryPreview {
  if (kind === 'message') return messagePreview(e);
  return { text: line(auditText(e, kind)), role: null, control: false };
}
