import { stringifyJson } from '../../shared/json-text';
import {
  isControlSet,
  isObject,
  KNOWN_KINDS,
  type Json,
  type JsonObject,
  type KnownKind,
  type LedgerEntry,
} from './entry-types';

/**
 * Turns the parsed line of an accepted entry (the reader already checked its five
 * common fields, §8) into the typed entry of its kind. Runs once per materialised
 * entry; checks only what the projection and views rely on, so it stays cheap.
 */

/** The common fields of a line the reader accepted as a valid entry. */
export interface ValidLine extends JsonObject {
  id: string;
  parent_id: string | null;
  ts: string;
  prev_hash: string | null;
  kind: string;
}

const KNOWN = new Set<string>(KNOWN_KINDS);

const str = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);

/** The typed entry of a line (see entry-types.ts for what each case holds). */
export function typedEntry(line: ValidLine): LedgerEntry {
  // Each case writes the common fields itself: spreading a `common` object per entry cost more
  // than parsing its line (a CLI projection types every entry of a long chain).
  const { id, parent_id, ts, prev_hash } = line;
  const kind = line.kind;
  if (!KNOWN.has(kind)) return { id, parent_id, ts, prev_hash, fields: line, kind: 'unknown', recordedKind: kind };
  const known = kind as KnownKind;
  const malformed = (problem: string): LedgerEntry => ({
    id,
    parent_id,
    ts,
    prev_hash,
    fields: line,
    kind: 'malformed',
    recordedKind: known,
    problem,
  });
  const own = (k: string): Json | undefined => (Object.hasOwn(line, k) ? line[k] : undefined);
  const payload = (k: string): JsonObject | null => {
    const v = own(k);
    return isObject(v) ? v : null;
  };

  switch (known) {
    case 'header': {
      const ps = payload('parent_session');
      const tools = own('tools');
      return {
        id,
        parent_id,
        ts,
        prev_hash,
        fields: line,
        kind: 'header',
        system: str(own('system_prompt')) ?? '',
        tools: Array.isArray(tools) ? tools : [],
        session_id: str(own('session_id')),
        model: str(own('model')),
        provider: str(own('provider')),
        cwd: str(own('cwd')),
        app_version: str(own('app_version')),
        permission_mode: str(own('permission_mode')),
        parent_session:
          ps && typeof ps['session_id'] === 'string'
            ? { session_id: ps['session_id'], entry_id: str(ps['entry_id']) }
            : null,
      };
    }
    case 'message': {
      const m = payload('message');
      const role = m?.['role'];
      const content = m?.['content'];
      if (!m || (role !== 'user' && role !== 'assistant' && role !== 'tool') || !Array.isArray(content)) {
        return malformed('message is not {role: user|assistant|tool, content: [...]}');
      }
      const meta = payload('meta');
      const control = meta && Object.hasOwn(meta, 'control') ? meta['control'] : null;
      return {
        id,
        parent_id,
        ts,
        prev_hash,
        fields: line,
        kind: 'message',
        message: { role, content },
        control,
        controlNudge: role === 'user' && isControlSet(control),
      };
    }
    case 'compaction': {
      const p = payload('packet');
      const summaryOf = (v: Json | undefined): string => str(v) ?? '';
      const reset = own('reset_all') === true ? { summary: summaryOf(own('summary')) } : null;
      const packet =
        p && typeof p['first_turn_id'] === 'string' && typeof p['last_turn_id'] === 'string'
          ? { summary: summaryOf(p['summary']), first_turn_id: p['first_turn_id'], last_turn_id: p['last_turn_id'] }
          : null;
      if (!reset && !packet)
        return malformed('neither reset_all: true nor a packet with first_turn_id and last_turn_id');
      return { id, parent_id, ts, prev_hash, fields: line, kind: 'compaction', reset, packet };
    }
    case 'receipt':
    case 'goal':
    case 'goal_update':
    case 'activity':
    case 'turn_capabilities_bound': {
      const key = known === 'turn_capabilities_bound' ? 'capabilities' : known;
      const p = payload(key);
      return p
        ? { id, parent_id, ts, prev_hash, fields: line, kind: known, payload: p }
        : malformed(`${key} is not an object`);
    }
    case 'work': {
      const w = payload('work');
      if (!w || typeof w['work_id'] !== 'string') return malformed('work has no string work_id');
      return {
        id,
        parent_id,
        ts,
        prev_hash,
        fields: line,
        kind: 'work',
        work: {
          work_id: w['work_id'],
          event: str(w['event']) ?? '',
          state: Object.hasOwn(w, 'state') ? w['state'] : undefined,
          detail: Object.hasOwn(w, 'detail') ? w['detail'] : undefined,
        },
      };
    }
    case 'intent': {
      const it = payload('intent');
      if (!it) return malformed('intent is not an object');
      const mv = Object.hasOwn(it, 'model_visible') ? it['model_visible'] : null;
      return {
        id,
        parent_id,
        ts,
        prev_hash,
        fields: line,
        kind: 'intent',
        intent: it,
        modelVisible: mv === null ? null : typeof mv === 'string' ? mv : stringifyJson(mv),
      };
    }
    case 'child_run': {
      const c = payload('child_run');
      if (!c || typeof c['child_session_id'] !== 'string') return malformed('child_run has no string child_session_id');
      return {
        id,
        parent_id,
        ts,
        prev_hash,
        fields: line,
        kind: 'child_run',
        child_run: {
          child_session_id: c['child_session_id'],
          agent: str(c['agent']) ?? '',
          outcome: str(c['outcome']) ?? '',
          summary: Object.hasOwn(c, 'summary') ? c['summary'] : undefined,
        },
      };
    }
    case 'presentation': {
      const p = payload('presentation');
      if (!p || typeof p['tool_use_id'] !== 'string') return malformed('presentation has no string tool_use_id');
      return {
        id,
        parent_id,
        ts,
        prev_hash,
        fields: line,
        kind: 'presentation',
        presentation: {
          tool_use_id: p['tool_use_id'],
          ack: Object.hasOwn(p, 'ack') ? p['ack'] : null,
          card_type: Object.hasOwn(p, 'card_type') ? p['card_type'] : undefined,
        },
      };
    }
    case 'turn_card': {
      const c = payload('turn_card');
      if (!c || typeof c['turn_id'] !== 'string') return malformed('turn_card has no string turn_id');
      return {
        id,
        parent_id,
        ts,
        prev_hash,
        fields: line,
        kind: 'turn_card',
        turn_card: { turn_id: c['turn_id'], line: str(c['line']) ?? '' },
      };
    }
  }
}
