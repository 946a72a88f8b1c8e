import type { CancelSignal } from '../core/cancel';
import {
  SCREEN_CHAIN,
  SCREEN_TAIL,
  type ChainItem,
  type ChainItems,
  type ChainItemsRequest,
  type LeafRequest,
  type LeafView,
  type LeafViewRequest,
  type ProjectedMessages,
  type ProjectedMessagesPage,
  type ProjectedMessagesRequest,
} from '../../shared/api';
import type { Json, ProjectedMessage } from '../../shared/ledger-types';
import { entryPreview } from '../core/entry-preview';
import { planOutline } from './plan-turns';
import { entryVisibility } from '../core/visibility';
import type { OpenSession } from '../library/session-cache';
import { ApiError } from './api-backend';
import { clipForTransport } from './transport-clip';
import {
  chainPosition,
  filteredPositions,
  kindCounts,
  leafContext,
  nullProtoRecord,
  type LeafContext,
} from './leaf-context';

/** The chain item at chain position `pos`: the only place a window reads payloads. */
function chainItem(s: OpenSession, c: LeafContext, pos: number): ChainItem {
  const ledger = s.ledger;
  const ix = ledger.index;
  const i = c.lp.chain[pos];
  const e = ledger.entry(i);
  const kind = ix.kindName(i);
  const p = entryPreview(e);
  const v = entryVisibility(ledger, c.vc, pos);
  return {
    pos,
    id: ix.ids[i],
    index: i,
    kind,
    role: p.role,
    control: p.control,
    line: ix.line[i],
    ts: e.ts,
    text: p.text,
    turnId: v.turnId,
    projectedAs: v.projectedAs,
    projectedFidelity: v.projectedAs.map((m) => c.lp.fidelityOf(m)),
    hidden: v.hidden,
  };
}

function itemsAt(s: OpenSession, c: LeafContext, from: number, to: number): ChainItem[] {
  const out: ChainItem[] = [];
  for (let pos = from; pos < to; pos++) out.push(chainItem(s, c, pos));
  return out;
}

/** Chain positions searched from each end of the chain for a page's sources before an id is looked up. */
const SOURCE_SCAN = 1024;

/**
 * Chain positions of the entries named in `messages`' source_ids (ids are ledger data: a
 * prototype-free record). A session whose ids do not increase maps them between requests
 * (session-cache.ts; ids that increase are searched, never mapped): until it has, the sources are
 * first looked for near the chain's two ends, where a first screen's are (its first and last
 * messages), so its first leaf does not map them all at once (1M ids: ~0.5 s).
 */
function sourcePositionsOf(
  s: OpenSession,
  c: LeafContext,
  messages: readonly ProjectedMessage[],
): Record<string, number> {
  const positions = new Map<string, number>();
  const wanted = new Set<string>();
  for (const m of messages) for (const id of m.source_ids) wanted.add(id);
  const ix = s.ledger.index;
  const chain = c.lp.chain;
  if (ix.unmappedIds > 0) {
    const near = (pos: number): void => {
      const id = ix.ids[chain[pos]];
      if (wanted.has(id)) positions.set(id, pos);
    };
    const head = Math.min(chain.length, SOURCE_SCAN);
    for (let pos = 0; pos < head && positions.size < wanted.size; pos++) near(pos);
    const tail = Math.max(head, chain.length - SOURCE_SCAN);
    for (let pos = chain.length - 1; pos >= tail && positions.size < wanted.size; pos--) near(pos);
  }
  for (const id of wanted) {
    if (positions.has(id)) continue;
    const i = s.ledger.indexOf(id);
    const pos = i === undefined ? -1 : chainPosition(chain, i);
    if (pos >= 0) positions.set(id, pos);
  }
  return nullProtoRecord(positions);
}

/** Messages `start … end-1` of a leaf's projection, clipped for transport (indices of `clipped` are the projection's). */
function messagePage(
  s: OpenSession,
  c: LeafContext,
  start: number,
  end: number,
  signal?: CancelSignal,
): ProjectedMessagesPage {
  const clipped: number[] = [];
  const messages = c.lp.messages(start, end, signal).map((m, k) => {
    const r = clipForTransport(m.content);
    if (!r.clipped) return m;
    clipped.push(start + k);
    return { ...m, content: r.value as Json[] };
  });
  return { start, messages, clipped, sourcePositions: sourcePositionsOf(s, c, messages) };
}

/**
 * The first screen of the projected pane: its last `count` messages, where it opens (its head
 * comes by page once scrolled to: sent first, it was a tenth of the answer and never on screen).
 */
function firstScreen(s: OpenSession, c: LeafContext, count: number, signal?: CancelSignal): ProjectedMessagesPage[] {
  const n = c.lp.messageCount;
  return [messagePage(s, c, Math.max(0, n - count), n, signal)];
}

/**
 * Both panes for one leaf: the chain items at the leaf end that its screen shows, with their
 * visibility, and the projection — whole (clipped), or with `pagedMessages` only its first screen
 * (see LeafView).
 * The plan comes as its outline (counts and strip), never row by row: the answer's size follows
 * the screen, not the number of turns (rows: `getPlanTurns`).
 */
export function leafView(s: OpenSession, req: LeafViewRequest, signal?: CancelSignal): LeafView {
  const c = leafContext(s, req, signal);
  const ix = s.ledger.index;
  const { chain, summary: projection, messageCount } = c.lp;
  const chainStart = Math.max(0, chain.length - Math.min(SCREEN_CHAIN, req.screen?.chainRows ?? SCREEN_CHAIN));
  const paged = req.pagedMessages === true;
  const whole = paged ? null : messagePage(s, c, 0, messageCount, signal);
  const tail = Math.min(SCREEN_TAIL, req.screen?.messages ?? SCREEN_TAIL);
  const messagePages = paged ? firstScreen(s, c, tail, signal) : [];
  const sourcePositions = whole
    ? whole.sourcePositions
    : nullProtoRecord(new Map(messagePages.flatMap((p) => Object.entries(p.sourcePositions))));
  // The header's tools may nest deep too; they are shown, never compared: clipped without a mark.
  const tools = clipForTransport(projection.tools).value as Json[];
  return {
    leaf: ix.ids[c.leaf],
    chainLength: chain.length,
    chainStart,
    chain: itemsAt(s, c, chainStart, chain.length),
    kindCounts: kindCounts(s, c),
    sourcePositions,
    plan: planOutline(c, req.overrides),
    projection: { ...projection, tools, messages: whole ? whole.messages : [] },
    clipped: whole ? whole.clipped : [],
    messageCount,
    messagePages,
  };
}

/** A page of the leaf's projected messages (from the cached context). */
export function projectedMessages(
  s: OpenSession,
  req: ProjectedMessagesRequest,
  signal?: CancelSignal,
): ProjectedMessages {
  const c = leafContext(s, req, signal);
  const total = c.lp.messageCount;
  const start = Math.min(req.start, total);
  const end = Math.min(total, start + req.count);
  return { total, ...messagePage(s, c, start, end, signal) };
}

/** A window of the leaf's chain (optionally only some kinds), from the cached context. */
export function chainItems(s: OpenSession, req: ChainItemsRequest, signal?: CancelSignal): ChainItems {
  const c = leafContext(s, req, signal);
  const chain = c.lp.chain;
  if (!req.kinds) {
    const start = Math.min(req.start, chain.length);
    const end = Math.min(chain.length, start + req.count);
    return { chainLength: chain.length, total: chain.length, start, items: itemsAt(s, c, start, end) };
  }
  const positions = filteredPositions(s, c, req.kinds);
  const start = Math.min(req.start, positions.length);
  const end = Math.min(positions.length, start + req.count);
  const items: ChainItem[] = [];
  for (let r = start; r < end; r++) items.push(chainItem(s, c, positions[r]));
  return { chainLength: chain.length, total: positions.length, start, items };
}

/** One projected message, its strings whole ("show all"); only values too deep to send become their JSON text. */
export function projectedMessage(
  s: OpenSession,
  req: LeafRequest & { message: number },
  signal?: CancelSignal,
): ProjectedMessage {
  const lp = leafContext(s, req, signal).lp;
  const m = lp.messages(req.message, req.message + 1, signal)[0];
  if (!m) {
    throw new ApiError(
      'not_found',
      `message ${req.message} is out of range: the projection has ${lp.messageCount} messages`,
    );
  }
  const r = clipForTransport(m.content, Infinity);
  return r.clipped ? { ...m, content: r.value as Json[] } : m;
}
