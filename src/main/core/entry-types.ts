/**
 * The ledger's vocabulary (LEDGER.md §2–§4) as TypeScript types: one case per
 * entry kind, discriminated by `kind`. An entry is validated once, where it is
 * materialised (`Ledger.entry`, see entry-validate.ts); code after that narrows
 * on `kind` and reads typed fields. A known kind whose payload does not have
 * the shape the projection needs is the `malformed` case: kept and shown, no part
 * in the projection (docs/spec-decisions.md).
 */

import type { Json } from '../../shared/ledger-types';

export type { Json };

/** A JSON object as parsed from a line (own keys only; `__proto__` is an ordinary key). */
export type JsonObject = { [key: string]: Json };

import { KNOWN_KINDS, type KnownKind } from '../../shared/ledger-types';
export { KNOWN_KINDS, type KnownKind };

export type Role = 'user' | 'assistant' | 'tool';

/** A Message (§4): content blocks are kept as recorded (projection copies them verbatim). */
export interface Message {
  role: Role;
  content: Json[];
}

/** The five common fields (§2), plus the whole parsed line (extra fields are kept and shown). */
interface EntryCommon {
  id: string;
  parent_id: string | null;
  ts: string;
  prev_hash: string | null;
  /** Every field of the line as parsed, the common five included. */
  fields: JsonObject;
}

/**
 * §3 header. Its payload is not type-checked at read time (docs/spec-decisions.md):
 * a field of the wrong type reads as absent.
 */
export interface HeaderEntry extends EntryCommon {
  kind: 'header';
  /** `system_prompt`, or "" when it is not a string. */
  system: string;
  /** `tools`, or [] when it is not an array. */
  tools: Json[];
  session_id: string | null;
  model: string | null;
  provider: string | null;
  cwd: string | null;
  app_version: string | null;
  permission_mode: string | null;
  parent_session: { session_id: string; entry_id: string | null } | null;
}

export interface MessageEntry extends EntryCommon {
  kind: 'message';
  message: Message;
  /** The recorded `meta.control` (null when absent or null), whatever the role. */
  control: Json;
  /** §4, §8: a user message whose `meta.control` is set; only these are nudges. */
  controlNudge: boolean;
}

/** §3 compaction: a reset, a packet (or, oddly, both; each is used in its own role). */
export interface CompactionEntry extends EntryCommon {
  kind: 'compaction';
  /** `reset_all: true`, with its summary ("" when not a string, §8). */
  reset: { summary: string } | null;
  packet: { summary: string; first_turn_id: string; last_turn_id: string } | null;
}

/** Audit kinds the explorer only shows: their payload object is kept as recorded. */
export interface AuditEntry extends EntryCommon {
  kind: 'receipt' | 'goal' | 'goal_update' | 'activity' | 'turn_capabilities_bound';
  payload: JsonObject;
}

export interface WorkEntry extends EntryCommon {
  kind: 'work';
  work: { work_id: string; event: string; state: Json | undefined; detail: Json | undefined };
}

export interface IntentEntry extends EntryCommon {
  kind: 'intent';
  intent: JsonObject;
  /** What the tail gets (§8): null when absent or null, a string as is, else its JSON text. */
  modelVisible: string | null;
}

export interface ChildRunEntry extends EntryCommon {
  kind: 'child_run';
  child_run: { child_session_id: string; agent: string; outcome: string; summary: Json | undefined };
}

export interface PresentationEntry extends EntryCommon {
  kind: 'presentation';
  presentation: { tool_use_id: string; ack: Json; card_type: Json | undefined };
}

export interface TurnCardEntry extends EntryCommon {
  kind: 'turn_card';
  /** `line` is "" when it is not a string. */
  turn_card: { turn_id: string; line: string };
}

/** A kind not in §3 (warning `unknown_kind`): kept as a raw entry, never model-visible. */
export interface UnknownKindEntry extends EntryCommon {
  kind: 'unknown';
  recordedKind: string;
}

/** A known kind whose payload lacks what the explorer needs: kept and shown, never projected. */
export interface MalformedEntry extends EntryCommon {
  kind: 'malformed';
  recordedKind: KnownKind;
  /** What is wrong, in words. */
  problem: string;
}

export type LedgerEntry =
  | HeaderEntry
  | MessageEntry
  | CompactionEntry
  | AuditEntry
  | WorkEntry
  | IntentEntry
  | ChildRunEntry
  | PresentationEntry
  | TurnCardEntry
  | UnknownKindEntry
  | MalformedEntry;

/** The kind the line records (`malformed` and `unknown` entries keep theirs). */
export function recordedKind(e: LedgerEntry): string {
  return e.kind === 'malformed' || e.kind === 'unknown' ? e.recordedKind : e.kind;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** "Control is set" (§4): present and not null; "" and false count as set (docs/spec-decisions.md). */
export function isControlSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}
