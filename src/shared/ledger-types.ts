/**
 * The ledger's wire vocabulary (LEDGER.md §5, §6, §8, §9): the shapes the core
 * produces and every other layer (main, preload, server, renderer) consumes.
 * Plain types and constants only: no Node, no DOM.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Kinds that make the session's story; every other kind (known or not) is an audit
 * entry: drawn hollow in the tree, foldable in runs, never a message of its own.
 */
/** The entry kinds of LEDGER.md §3 (anything else is an unknown kind). */
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

export const STORY_KINDS: readonly string[] = ['header', 'message', 'compaction'];

/** An audit kind by name (the core decides the same by kind code in tree-layout.ts). */
export function isAuditKindName(kind: string): boolean {
  return !STORY_KINDS.includes(kind);
}

/** §8, in the table's order: the order of warnings within one line. */
export const WARNING_CODES = [
  'torn_line',
  'invalid_entry',
  'hash_mismatch',
  'duplicate_id',
  'orphan',
  'missing_header',
  'unterminated_tail',
  'unknown_kind',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export interface LedgerWarning {
  code: WarningCode;
  /** 1-based physical line number. */
  line: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Present when the line parsed to an object with a string `id`. */
  id?: string;
  message: string;
}

/** §6 CapacityProfile. */
export interface CapacityProfile {
  window: number;
  reserve: number;
  bytes_per_token: number;
}

export const DEFAULT_PROFILE: CapacityProfile = { window: 200000, reserve: 16000, bytes_per_token: 4 };

/**
 * Why an entry of a leaf's chain reaches the model as no message (the History
 * pane's "not model-visible: <reason>"); see src/main/core/visibility.ts.
 */
export type HiddenReason =
  | 'audit'
  | 'control'
  | 'thinking'
  | 'behind packet'
  | 'as card'
  | 'before reset'
  | 'superseded intent'
  | 'header'
  | 'unknown kind'
  | 'empty';

export type Fidelity = 'reset' | 'preamble' | 'full' | 'card' | 'packet' | 'open' | 'tail';
export type TurnFidelity = 'full' | 'card' | 'packet';
export type ProjectedRole = 'user' | 'assistant' | 'tool';

/** A user's forced fidelity for one closed turn (plan comparison). */
export type TurnOverride = { fidelity: 'full' } | { fidelity: 'card' } | { fidelity: 'packet'; packet_id: string };

/** One message of the projected context, traced to the entries it came from (§5). */
export interface ProjectedMessage {
  role: ProjectedRole;
  content: Json[];
  fidelity: Fidelity;
  turn_id: string | null;
  source_ids: string[];
  tokens: number;
}

export interface PlanRow {
  turn_id: string;
  fidelity: TurnFidelity;
  packet_id: string | null;
  tokens: number;
}

export interface ProjectionTokens {
  system: number;
  tools: number;
  messages: number;
  total: number;
  available: number;
}

/** The §9 `project --json` shape, plus `notes` on overrides that could not apply. */
export interface Projection {
  leaf: string;
  system: string;
  tools: Json[];
  messages: ProjectedMessage[];
  plan: PlanRow[];
  tokens: ProjectionTokens;
  over_budget: number;
  /** Not in §9: why a requested override was not applied. */
  notes: string[];
}

/** §9 `verify --json`. */
export interface VerifyReport {
  entries: number;
  warnings: LedgerWarning[];
  active_leaf: string | null;
}

/** §9 `tree --json`. */
export interface TreeReport {
  entries: { id: string; parent_id: string | null; kind: string; line: number; children: number }[];
  branch_points: string[];
  leaves: string[];
}

export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** How many entries carried a usage. */
  messages: number;
}

/** A `work` item folded over its events (§3). */
export interface WorkItem {
  work_id: string;
  state: Json;
  last_event: string;
  detail: Json;
  events: number;
  first_entry: string;
  last_entry: string;
  last_ts: string;
}
