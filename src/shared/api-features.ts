/**
 * The API of the backend features: context over time (its types in api-series.ts), search, cost,
 * export, the fate of an entry. Merged into `ApiMethods` (api.ts) and validated by
 * `api-features-schemas.ts`. Plain types only: the renderer imports this file.
 */
import type { ContextSeriesDeltaRequest, ContextSeriesRequest, PackedContextSeries } from './api-series';
import type { SessionKey } from './leaf-request';
import type { CapacityProfile, Projection, TurnOverride } from './ledger-types';
import type { SecretApiMethods } from './api-secrets';

// ── 1. Search ───────────────────────────────────────────────────────────────

export type SearchScope = { kind: 'home' } | { kind: 'session'; key: SessionKey };

export interface SearchFilters {
  /** Agent folder names (`agents/<agent>/…`). */
  agents?: string[];
  /** Header `cwd` values. */
  cwds?: string[];
  /** Entry kinds (`message`, `receipt`, …). */
  kinds?: string[];
  /** Entry `ts` at or after / at or before (RFC 3339, compared as UTC text). */
  from?: string;
  to?: string;
}

export interface SearchRequest {
  /**
   * Chosen by the client, one per search. A new search from the same client cancels the
   * previous one of the same `match` (an id lookup leaves a text search running);
   * continuing pages carry the same id and the `cursor` of the last page.
   */
  searchId: string;
  query: string;
  scope: SearchScope;
  filters: SearchFilters;
  /** Hits per page (1…500). */
  limit: number;
  cursor?: string;
  /**
   * `text` (the default): string values of the entries. `id`: entry ids that start or end
   * with the query (go to an entry by the id, or the tail of it a list shows).
   */
  match?: 'text' | 'id';
}

export interface SearchHit {
  entryId: string;
  kind: string;
  /** 1-based line of the entry in its file. */
  line: number;
  ts: string;
  /** Where the match is, e.g. `message.content[1].input.command`, or `id` for an id search. */
  field: string;
  /** Up to ~160 characters of that string around the first match. */
  snippet: string;
  /** [start, end) UTF-16 offsets of matches inside `snippet`. */
  matches: [number, number][];
  /** Further string values of the same entry that also match. */
  moreFields: number;
}

export interface SearchSessionHits {
  key: SessionKey;
  agent: string;
  sessionId: string;
  cwd: string | null;
  title: string | null;
  hits: SearchHit[];
}

export interface SearchPage {
  searchId: string;
  /** Hits of this page, grouped by session (sessions newest first, entries in file order). */
  sessions: SearchSessionHits[];
  hits: number;
  /** True when every file in scope was scanned: no further page. */
  done: boolean;
  /** Pass back to get the next page; null when done or cancelled. */
  cursor: string | null;
  /** A newer search of the same client (or cancelSearch) stopped this one. */
  cancelled: boolean;
  /** Progress over the files in scope. */
  scannedBytes: number;
  totalBytes: number;
  /** Files in scope scanned to their end (skipped ones included), of `filesTotal`. */
  filesScanned: number;
  filesTotal: number;
}

// ── 2. Cost ─────────────────────────────────────────────────────────────────

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export interface PriceTable {
  /** The user's table (`<userData>/prices.json`): where to edit; null when the backend has no user data folder. */
  path: string | null;
  /** Whether prices come from that file or from the bundled default (file absent or invalid). */
  source: 'user' | 'bundled';
  /** What is wrong with the user's file, one line each (empty when valid or absent). */
  errors: string[];
  models: Record<string, ModelPrice>;
}

export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Tokens of one model, and their cost when the table prices that model. */
export interface ModelCost {
  model: string;
  tokens: TokenCounts;
  /** Null when the model has no price in the table: shown as tokens only. */
  usd: number | null;
  /** Calls counted. */
  calls: number;
}

export interface CostBlock {
  tokens: TokenCounts;
  /** Sum over priced models only. */
  usd: number;
  /** False when some tokens belong to unpriced models (usd is then a lower bound). */
  complete: boolean;
  byModel: ModelCost[];
}

/**
 * One turn of the chain (every directive of the chain, also before a reset; entries before
 * the first directive make a row with turnId null).
 */
export interface TurnCost {
  turnId: string | null;
  /** The directive's first text, clipped. */
  title: string;
  ts: string;
  /** From the messages' `meta.usage`. */
  messages: CostBlock;
  /** Receipt attempts other than the winning one (retries, failures): paid calls no message records. */
  retries: CostBlock;
  /** Receipt attempts in the turn (all of them, winning included): shown, never added to `messages`. */
  attempts: number;
}

export interface SessionCost {
  leaf: string;
  prices: PriceTable;
  /** The leaf's chain (the active chain when leaf is omitted). */
  chain: { messages: CostBlock; retries: CostBlock };
  /** Every entry of the file, abandoned branches included. */
  allBranches: { messages: CostBlock; retries: CostBlock };
  /** allBranches − chain: what abandoned branches cost. */
  abandoned: { messages: CostBlock; retries: CostBlock };
  turns: TurnCost[];
}

// ── 3. Export ───────────────────────────────────────────────────────────────

/**
 * An export written on the backend and read in chunks (`readExport`), never as one reply: the
 * session as HTML (`plan`, `profile` and `overrides` are not used: the page holds the auto plan at
 * the default profile), or the leaf's projected context as JSON or Markdown.
 */
export interface ExportBeginRequest {
  key: SessionKey;
  leaf: string | null;
  plan: 'none' | 'auto';
  profile: CapacityProfile;
  overrides?: Record<string, TurnOverride>;
  format: 'html' | 'json' | 'markdown';
  /** Send the secrets found as they are (an explicit choice); by default each is a marker. */
  unredacted?: boolean;
}

export interface ExportStarted {
  /** Unguessable; names the export to `readExport`, `endExport` and serve mode's download URL. */
  exportId: string;
  fileName: string;
  mimeType: 'text/html' | 'application/json' | 'text/markdown';
  /** Distinct secrets the export replaces by a marker (0: none found, or unredacted). */
  redacted?: number;
}

export interface ExportChunk {
  /** The next characters of the file (at most EXPORT_CHUNK_CHARS); empty only at the end. */
  text: string;
  /** True with the last chunk: the export is then gone. */
  done: boolean;
}

/** Most characters in one `readExport` chunk: JSON-escaped, a chunk stays under a reply's 8 MiB. */
export const EXPORT_CHUNK_CHARS = 1 << 20;

/** Serve mode streams an export as a download from here: `${EXPORT_DOWNLOAD_PATH}/<exportId>/<fileName>`. */
export const EXPORT_DOWNLOAD_PATH = '/api/export';

/** The §9 `project --json` shape (a Projection without `notes`). */
export type ProjectionJson = Omit<Projection, 'notes'>;

// ── 4. The fate of an entry; search in what the model saw ───────────────────

/** How an entry reached the model at one turn end (docs/fate.md). */
export type FateFidelity =
  'system' | 'preamble' | 'full' | 'open' | 'card' | 'packet' | 'reset' | 'tail' | 'reset-hidden' | 'not-sent';

export const FATE_FIDELITIES: readonly FateFidelity[] = [
  'system',
  'preamble',
  'full',
  'open',
  'card',
  'packet',
  'reset',
  'tail',
  'reset-hidden',
  'not-sent',
];

/** An entry of a leaf's chain, under the request's plan and profile. */
export type EntryFateRequest = ContextSeriesRequest & { entry: string };

/** One turn end of an entry's fate. */
export interface EntryFateRow {
  /** Chain-wide turn number (1-based) of the turn that ends here; 0 before the first turn. */
  turn: number;
  /** The turn end's entry id. */
  at: string;
  fidelity: FateFidelity;
  /** The packet that carries it, with the turns it covers. */
  packet: { id: string; first: number; last: number } | null;
  /** The reset that hides it, or that it is. */
  reset: string | null;
  /** Tokens of the message that carries it (0 when none, and for the tail). */
  tokens: number;
  available: number;
  /** What the closed turns cost all at Full at this turn end. */
  fullNeed: number;
  total: number;
  overBudget: number;
}

/** The first turn end where the entry is no longer sent as itself, and why. */
export interface EntryFateChange {
  row: number;
  turn: number;
  at: string;
  fidelity: FateFidelity;
  comesBack: boolean;
  reason: string;
}

export interface EntryFate {
  entry: string;
  kind: string;
  leaf: string;
  turn: number;
  rows: EntryFateRow[];
  change: EntryFateChange | null;
}

/** Search in the projected context: at the leaf, or at every turn end of its chain. */
export type ProjectedSearchRequest = ContextSeriesRequest & {
  query: string;
  across: 'leaf' | 'turn-ends';
  limit: number;
};

/** An entry whose text the model was sent, and where: a run of turn ends in one fidelity. */
export interface ProjectedSearchHit {
  entry: string;
  kind: string;
  fidelity: FateFidelity;
  /** Turn ends (chain-wide turn numbers and entry ids) of the run; at the leaf both are the leaf. */
  fromTurn: number;
  toTurn: number;
  from: string;
  to: string;
  /** Turn ends in the run. */
  count: number;
  /** At the leaf: the projected message's index. */
  message: number | null;
  snippet: string;
  matches: [number, number][];
}

export interface ProjectedSearch {
  query: string;
  across: 'leaf' | 'turn-ends';
  leaf: string;
  /** Turn ends looked at (1 at the leaf). */
  turnEnds: number;
  hits: ProjectedSearchHit[];
  /** Turn numbers of the first and last turn end where the text was sent (null: never). */
  firstSent: number | null;
  lastSent: number | null;
  /** More entries matched than `limit`: the rest were not followed. */
  truncated: boolean;
}

/** Methods merged into `ApiMethods`. */
export interface FeatureApiMethods extends SecretApiMethods {
  /** The series, its points packed: `unpackSeries` (series-packed.ts) gives the `ContextSeries`. */
  getContextSeries(req: ContextSeriesDeltaRequest): PackedContextSeries;
  search(req: SearchRequest): SearchPage;
  cancelSearch(req: { searchId: string }): { cancelled: boolean };
  getCost(req: { key: SessionKey; leaf?: string | null }): SessionCost;
  getPriceTable(req: Record<string, never>): PriceTable;
  getEntryFate(req: EntryFateRequest): EntryFate;
  searchProjected(req: ProjectedSearchRequest): ProjectedSearch;
  /** Starts an export written on the backend; its text is read with `readExport`. */
  beginExport(req: ExportBeginRequest): ExportStarted;
  readExport(req: { exportId: string }): ExportChunk;
  /** Drops an export before its end (a cancelled save); `ended`: it was still there. */
  endExport(req: { exportId: string }): { ended: boolean };
}
