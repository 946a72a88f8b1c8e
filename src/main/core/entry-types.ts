/**
 * The ledger's vocabulary (LEDGER.md §2–§4) as TypeScript types.
 * Payloads come from untrusted files: these types describe what a well-formed
 * ledger holds, and every reader of a payload still checks before it trusts.
 */

import type { Json } from '../../shared/ledger-types';

export type { Json };

export const KNOWN_KINDS = [
  'header',
  'message',
  'compaction',
  'receipt',
  'goal',
  'goal_update',
  'activity',
  'work',
  'intent',
  'child_run',
  'turn_capabilities_bound',
  'presentation',
  'turn_card',
] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];

export type Role = 'user' | 'assistant' | 'tool';

export interface TextBlock {
  type: 'text';
  text: string;
}
export interface ThinkingBlock {
  type: 'thinking';
  text: string;
}
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Json;
}
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
  digest?: string;
}
export interface ImageBlock {
  type: 'image';
  media_type: string;
  bytes: number;
  sha256: string;
}
/** A block of a type this explorer does not know: kept verbatim. */
export interface OtherBlock {
  type: string;
  [key: string]: Json;
}
export type Block = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock | OtherBlock;

export interface Message {
  role: Role;
  content: Block[];
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
}

export interface ToolSpec {
  name: string;
  description: string;
  input_schema: Json;
}

/** The five fields every line has (§2). */
export interface EntryBase {
  id: string;
  parent_id: string | null;
  ts: string;
  prev_hash: string | null;
  kind: string;
  [extra: string]: unknown;
}

export interface HeaderEntry extends EntryBase {
  kind: 'header';
  session_id: string;
  app_version: string;
  provider: string;
  model: string;
  system_prompt: string;
  tools: ToolSpec[];
  permission_mode: string;
  cwd: string;
  parent_session: { session_id: string; entry_id: string } | null;
}
export interface MessageEntry extends EntryBase {
  kind: 'message';
  message: Message;
  meta?: { model?: string; stop_reason?: string; usage?: Usage; control?: string };
}
export interface CompactionEntry extends EntryBase {
  kind: 'compaction';
  packet?: {
    summary: string;
    first_turn_id: string;
    last_turn_id: string;
    model: string;
    tokens_before: number;
  };
  reset_all?: boolean;
  summary?: string;
}
export interface IntentEntry extends EntryBase {
  kind: 'intent';
  intent: { reading: Json; engagement: Json; provenance: Json; model_visible: string };
}
export interface PresentationEntry extends EntryBase {
  kind: 'presentation';
  presentation: {
    tool_use_id: string;
    card_type: string;
    payload: Json;
    digest: string;
    evidence: string[];
    identity_digest: string;
    ack: Json;
  };
}
export interface TurnCardEntry extends EntryBase {
  kind: 'turn_card';
  turn_card: {
    turn_id: string;
    asked: string;
    did: string;
    answered: string;
    narration: string;
    outcome: string;
    reading: string;
    cost: { input_tokens: number; output_tokens: number };
    line: string;
  };
}
export interface WorkEntry extends EntryBase {
  kind: 'work';
  work: { work_id: string; event: string; state?: Json; detail?: Json };
}
export interface ChildRunEntry extends EntryBase {
  kind: 'child_run';
  child_run: { child_session_id: string; agent: string; outcome: string; summary?: string };
}

/** An entry as parsed from its line. Narrow on `kind` and check payload fields before use. */
export type Entry = EntryBase;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The message of a `message` entry when it is well-formed, else null. */
export function messageOf(entry: Entry): Message | null {
  if (entry.kind !== 'message') return null;
  const m = entry['message'];
  if (!isObject(m)) return null;
  const role = m['role'];
  if (role !== 'user' && role !== 'assistant' && role !== 'tool') return null;
  const content = m['content'];
  if (!Array.isArray(content)) return null;
  return { role, content: content.filter(isObject) as unknown as Block[] };
}

/** §4: a control nudge is a user message whose `meta.control` is set. */
export function isControlNudge(entry: Entry): boolean {
  const meta = entry['meta'];
  return isObject(meta) && meta['control'] !== undefined && meta['control'] !== null;
}
