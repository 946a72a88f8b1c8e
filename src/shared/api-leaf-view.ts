/**
 * The API of a leaf's panes: its chain (History), its projection and its plan, each paged so
 * that an answer follows the screen, not the size of the session. Part of `ApiMethods` (api.ts).
 * Plain types and limits only: the renderer imports it (through api.ts).
 */
import type { EntryRole } from './api-tree';
import type { Fidelity, HiddenReason, PlanRow, ProjectedMessage, Projection } from './ledger-types';
import type { LeafRequest } from './leaf-request';
import type { StripSegment } from './plan-strip';

/** Why an entry of the chain is not in the projected context (ledger vocabulary: see ledger-types). */
export type { HiddenReason } from './ledger-types';

export interface ChainItem {
  /** Position in the chain (0 = root), whatever window or filter it came in. */
  pos: number;
  id: string;
  index: number;
  kind: string;
  role: EntryRole | null;
  control: boolean;
  line: number;
  ts: string;
  text: string;
  /** The turn it belongs to (after the newest reset), or null. */
  turnId: string | null;
  /** Indices into the projection's messages that name this entry in `source_ids`. */
  projectedAs: number[];
  /** The fidelity of each of those messages (same order), whether or not its page was fetched. */
  projectedFidelity: Fidelity[];
  /** Why the entry reaches the model as no message; set only when `projectedAs` is empty. */
  hidden: HiddenReason | null;
}

/** A packet (§3 compaction with `packet`) the plan could put a turn behind. */
export interface PacketOption {
  packet_id: string;
  first_turn_id: string;
  last_turn_id: string;
}

/**
 * One closed turn of a leaf's plan: its §6 plan row, and what it could be forced to instead —
 * its turn card, or one of the packets covering it (what the turns panel offers).
 */
export interface PlanTurn extends PlanRow {
  /** Position in the plan (0 = the oldest closed turn after the newest reset). */
  index: number;
  /** The directive's text as one line, clipped (entry-preview.ts): what the turns panel names the turn by. */
  directive: string;
  hasCard: boolean;
  /** Usable packets (§6) whose range holds the turn, in chain order. */
  packets: PacketOption[];
}

/** Most plan turns one `getPlanTurns` answer carries. */
export const MAX_PLAN_TURNS = 1000;

/**
 * Turns of a leaf's plan: a window `start … start + count - 1` (count ≤ MAX_PLAN_TURNS), or the
 * turns named by `ids` (at most MAX_PLAN_TURNS; ids that are no closed turn of the plan are left out).
 */
export type PlanTurnsRequest = LeafRequest & ({ start: number; count: number } | { ids: string[] });

/** `getPlanTurns`' answer: the turns asked for, in plan order, and how many closed turns the plan has. */
export interface PlanTurns {
  total: number;
  turns: PlanTurn[];
}

/**
 * The plan at a glance, the same size whatever the number of turns: its closed turns counted
 * and drawn as the strip. The turns themselves come from `getPlanTurns` (a window, or by id).
 */
export interface PlanOutline {
  /** Closed turns of the plan (after the newest reset). */
  turns: number;
  /** Closed turns at each fidelity. */
  full: number;
  card: number;
  packet: number;
  /** The plan strip: consecutive turns merged into at most STRIP_SEGMENTS segments, overrides marked. */
  strip: StripSegment[];
}

/** A leaf view's projection: the §9 shape without its per-turn `plan` (see LeafView.plan). */
export type LeafProjection = Omit<Projection, 'plan'>;

/** Most chain items a view or a page carries; `getChainItems` pages through the rest. */
export const CHAIN_WINDOW = 200;
export const MAX_CHAIN_ITEMS = 2000;

/**
 * Both panes for one leaf. Long strings in `projection` are clipped (see `clipped`).
 * `chain` is a window of the chain root → leaf: items `chainStart … chainStart + chain.length - 1`
 * of `chainLength`, the last `screen.chainRows` (at most SCREEN_CHAIN, ending at the leaf).
 */
export interface LeafView {
  leaf: string;
  chainLength: number;
  chainStart: number;
  chain: ChainItem[];
  /** Entries of the whole chain per kind name. */
  kindCounts: Record<string, number>;
  /** Chain position of every entry named in a projected message's `source_ids`. */
  sourcePositions: Record<string, number>;
  /**
   * The plan counted and as a strip (bounded: an answer follows the screen, not the
   * number of turns); its rows and what each turn could be forced to come from `getPlanTurns`.
   */
  plan: PlanOutline;
  /**
   * The projection: token totals, notes, system and tools (its per-turn plan is `plan` above). With
   * `pagedMessages` in the request its `messages` is empty and the first screen comes in `messagePages`;
   * without it, every message (the old reply, too large for a 100 MB session's active leaf: prefer paging).
   */
  projection: LeafProjection;
  /** Indices of projected messages whose content was clipped for transport (of `projection.messages`). */
  clipped: number[];
  /** Messages of the whole projection, whatever this reply carries of them. */
  messageCount: number;
  /**
   * With `pagedMessages`: the first screen of the projected pane — the last messages (the open
   * turn and the tail, where the pane opens), as many as `screen.messages` (at most SCREEN_TAIL) —
   * as one page. The rest comes from `getProjectedMessages` as the pane scrolls. Empty without
   * `pagedMessages`.
   */
  messagePages: ProjectedMessagesPage[];
}

/**
 * Most projected messages `getLeafView` sends first (paged): the pane's end (the open turn and the
 * tail, what a user looks at first on a live session), where the pane opens. Its head comes by
 * page once scrolled to. A screen holds ~8 long messages but ~22 short ones (a tool call, a short
 * result: ~40 px), with 6 drawn beyond its edge once shown: a tail of 20 made most clicks on the
 * 100 MB session ask for a page at once, a second round trip and a second draw.
 */
export const SCREEN_TAIL = 32;
/** Most projected messages one `getProjectedMessages` page carries. */
export const MAX_PROJECTED_PAGE = 500;
/**
 * Most chain items `getLeafView` sends first: the History pane's first screen at the leaf (rows
 * in view and those drawn beyond its edge), not a whole CHAIN_WINDOW — the answer a click waits
 * for follows what is visible. The rest comes from `getChainItems` as the pane scrolls.
 */
export const SCREEN_CHAIN = 80;

/**
 * The screen a leaf view's first answer is for, as the page sizes it (its height over the
 * smallest row each pane draws, and the rows drawn beyond the edge): the History's rows at the
 * leaf end and the projected pane's messages at its end. Clamped to SCREEN_CHAIN / SCREEN_TAIL;
 * without it, those.
 */
export interface LeafScreen {
  chainRows: number;
  messages: number;
}

/** `getLeafView` with the projected pane paged (`pagedMessages: true`) or whole (absent/false). */
export interface LeafViewRequest extends LeafRequest {
  pagedMessages?: boolean;
  screen?: LeafScreen;
}

/** A window of a leaf's projected messages: `start … start + count - 1` (count ≤ MAX_PROJECTED_PAGE). */
export interface ProjectedMessagesRequest extends LeafRequest {
  start: number;
  count: number;
}

/** Projected messages `start … start + messages.length - 1` of a leaf's projection, clipped for transport. */
export interface ProjectedMessagesPage {
  start: number;
  messages: ProjectedMessage[];
  /** Indices (in the whole projection) of this page's messages whose content was clipped. */
  clipped: number[];
  /** Chain position of every entry named in this page's `source_ids`. */
  sourcePositions: Record<string, number>;
}

/** `getProjectedMessages`' answer: one page, and the projection's message count. */
export interface ProjectedMessages extends ProjectedMessagesPage {
  total: number;
}

/** A window of a leaf's chain, optionally only entries of some kinds. */
export interface ChainItemsRequest extends LeafRequest {
  /** First row: a chain position, or with `kinds` a position among the matching entries. */
  start: number;
  /** At most MAX_CHAIN_ITEMS. */
  count: number;
  /** Only entries of these kind names (all kinds when absent). */
  kinds?: string[];
}

export interface ChainItems {
  chainLength: number;
  /** Rows to page through: entries matching `kinds`, or `chainLength` without it. */
  total: number;
  start: number;
  items: ChainItem[];
}
