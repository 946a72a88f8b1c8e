/**
 * The one API between the explorer's main side (Electron main process, or the
 * loopback server) and its renderer. Requests are validated at runtime against
 * `api-schemas.ts`; this file is the static half of the same contract, assembled here
 * from one module per area (api-sessions, api-tree, api-entries, api-leaf-view,
 * api-branch, api-events, api-files, api-features).
 *
 * Transports: Electron IPC (preload bridge, `window.vak`) and a WebSocket at
 * `/api/ws` in serve mode. Both carry exactly these methods and events.
 */
import type { BranchRequest, BranchResult } from './api-branch';
import type { ApiEvent, Subscription } from './api-events';
import type { FeatureApiMethods } from './api-features';
import type { EntryDetail, RawLine } from './api-entries';
import type { DesktopFiles, OpenFileOutcome, RecentFiles } from './api-files';
import type { DesktopExports } from './api-save-export';
import type {
  ChainItems,
  ChainItemsRequest,
  LeafView,
  LeafViewRequest,
  PlanTurns,
  PlanTurnsRequest,
  ProjectedMessages,
  ProjectedMessagesRequest,
} from './api-leaf-view';
import type { HomeInfo, SessionInfo, SessionSummary, WorkItems } from './api-sessions';
import type { TreeRowsRequest, TreeRowsResult } from './api-tree';
import type { LedgerWarning, ProjectedMessage } from './ledger-types';
import type { LeafRequest, SessionKey } from './leaf-request';

// The contract's parts, one module per area; every name is also exported from here.
export type { LeafRequest, SessionKey } from './leaf-request';
export type {
  ChildRunLink,
  HeaderInfo,
  HomeInfo,
  LockState,
  ReadingProgress,
  SessionInfo,
  SessionSummary,
  WorkItems,
  WorkSummary,
} from './api-sessions';
export type { EntryRole, TreeRow, TreeRowsRequest, TreeRowsResult } from './api-tree';
export { MAX_SLICE_BYTES, type EntryDetail, type RawLine } from './api-entries';
export {
  CHAIN_WINDOW,
  MAX_CHAIN_ITEMS,
  MAX_PLAN_TURNS,
  MAX_PROJECTED_PAGE,
  SCREEN_CHAIN,
  SCREEN_TAIL,
  type ChainItem,
  type ChainItems,
  type ChainItemsRequest,
  type HiddenReason,
  type LeafProjection,
  type LeafScreen,
  type LeafView,
  type LeafViewRequest,
  type PacketOption,
  type PlanOutline,
  type PlanTurn,
  type PlanTurns,
  type PlanTurnsRequest,
  type ProjectedMessages,
  type ProjectedMessagesPage,
  type ProjectedMessagesRequest,
} from './api-leaf-view';
export type { BranchRequest, BranchResult } from './api-branch';
export {
  API_EVENT_TYPES,
  MAX_DELTA_ROWS,
  NO_GENERATION,
  type ApiEvent,
  type SessionDelta,
  type SessionGeneration,
  type Subscription,
} from './api-events';
export type { DesktopFiles, OpenFileOutcome, RecentFile, RecentFiles } from './api-files';
export type { DesktopExports, SaveExportOutcome } from './api-save-export';

/** Every request/response pair. The renderer sees exactly this (plus `onEvent`); the features come from `api-features.ts`. */
export interface ApiMethods extends FeatureApiMethods {
  getHome(req: Record<string, never>): HomeInfo;
  listSessions(req: Record<string, never>): SessionSummary[];
  openSession(req: { key: SessionKey }): SessionInfo;
  getTreeRows(req: TreeRowsRequest): TreeRowsResult;
  findRow(req: { key: SessionKey; id: string; foldAudit: boolean }): { row: number };
  getEntry(req: { key: SessionKey; id: string; maxBytes?: number; sliceStart?: number }): EntryDetail;
  getLeafView(req: LeafViewRequest): LeafView;
  getChainItems(req: ChainItemsRequest): ChainItems;
  getProjectedMessage(req: LeafRequest & { message: number }): ProjectedMessage;
  /** A page of the projected pane (the first screen came with `getLeafView`). */
  getProjectedMessages(req: ProjectedMessagesRequest): ProjectedMessages;
  /** Rows of a leaf's plan with their override options: a window (turns panel, strip tooltip) or by id (tree). */
  getPlanTurns(req: PlanTurnsRequest): PlanTurns;
  getWarnings(req: { key: SessionKey }): LedgerWarning[];
  /** The active chain's work items (the Work panel): `openSession` carries only their summary. */
  getWork(req: { key: SessionKey }): WorkItems;
  getLine(req: { key: SessionKey; offset: number; maxBytes?: number }): RawLine;
  branch(req: BranchRequest): BranchResult;
  subscribe(req: Subscription): { subscription: string };
  unsubscribe(req: { subscription: string }): Record<string, never>;
  /** Files opened before, newest first, each checked now (docs/open-files.md). */
  listRecentFiles(req: Record<string, never>): RecentFiles;
  /** Opens a file of the Recent list again (only one that is on it; refused in serve mode). */
  openRecentFile(req: { path: string }): OpenFileOutcome;
}

export type ApiMethod = keyof ApiMethods;
export type ApiRequest<M extends ApiMethod> = Parameters<ApiMethods[M]>[0];
export type ApiResponse<M extends ApiMethod> = ReturnType<ApiMethods[M]>;

/** Per-call options of the renderer's client. */
export interface CallOptions {
  /**
   * Aborting it drops the call: the promise rejects at once with code `cancelled`, and the
   * backend stops the work (dropped unrun when queued, stopped between turns/pages when running).
   */
  signal?: AbortSignal;
}

/** The async client every renderer component talks to, whatever the transport. */
export type Api = { [M in ApiMethod]: (req: ApiRequest<M>, opts?: CallOptions) => Promise<ApiResponse<M>> } & {
  /** Listens to pushed events; returns a function that stops listening. */
  onEvent(listener: (e: ApiEvent) => void): () => void;
};

/**
 * What the Electron preload exposes as `window.vak`: an AbortSignal cannot cross the context
 * bridge, so a call takes a numeric call id instead and `cancel(callId)` aborts it; the
 * renderer's client (create-api.ts) turns this into the `Api` above.
 */
export type BridgeApi = {
  [M in ApiMethod]: (req: ApiRequest<M>, callId?: number) => Promise<ApiResponse<M>>;
} & {
  onEvent(listener: (e: ApiEvent) => void): () => void;
  /** Aborts the call made with `callId` (no effect once it answered). */
  cancel(callId: number): void;
  /** Tells main the page listens now. */
  ready(): void;
  /** Opening files by path: only the desktop app has it (docs/open-files.md). */
  files: DesktopFiles;
  /** Saving an export to a file the user picks, streamed by main: only the desktop app has it. */
  exports: DesktopExports;
};

/**
 * A failed request, as both transports report it. `too_large`: the reply would exceed the
 * transport's cap (ask for less: page). `cancelled`: the caller aborted it (a superseded request). `unknown_outcome` is the client's own: the connection
 * dropped after a write was sent and before its reply, so whether it happened is unknown.
 */
export interface ApiErrorPayload {
  code: 'bad_request' | 'not_found' | 'locked' | 'refused' | 'internal' | 'too_large' | 'cancelled' | 'unknown_outcome';
  message: string;
}

/** One request's answer, the same on both transports (IPC invoke result; a WebSocket frame adds its `id`). */
export type ApiReply = { ok: true; res: unknown } | { ok: false; error: ApiErrorPayload };

/**
 * An IPC reply: an ApiReply, or a result as the JSON text the core's worker wrote (parsed by the
 * preload, in the renderer's process: the main process only copies the string).
 */
export type IpcReply = ApiReply | { ok: true; json: string };
