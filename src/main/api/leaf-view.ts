import type { ChainItem, LeafRequest, LeafView } from '../../shared/api';
import type { Json, ProjectedMessage, Projection } from '../../shared/ledger-types';
import { chainToRoot } from '../core/chain';
import { entryPreview } from '../core/entry-preview';
import { project } from '../core/projection';
import { chainVisibility } from '../core/visibility';
import type { OpenSession } from '../library/session-cache';
import { ApiError } from './api-backend';

/** Strings longer than this inside projected message content are clipped for transport. */
export const CLIP_CHARS = 64 * 1024;

/** The leaf's index: the request's id, or the active leaf when null. */
export function leafIndex(s: OpenSession, leaf: string | null): number {
  const ix = s.ledger.index;
  if (leaf === null) {
    if (ix.count === 0) throw new ApiError('not_found', `${s.key} has no entries`);
    return ix.activeLeaf;
  }
  const i = s.ledger.indexOf(leaf);
  if (i === undefined) throw new ApiError('not_found', `no entry ${leaf} in ${s.key}`);
  return i;
}

/** The projection a leaf request asks for (plan, profile, per-turn overrides). */
export function projectionFor(s: OpenSession, req: LeafRequest, leaf: number): Projection {
  return project(s.ledger, leaf, {
    plan: req.plan,
    profile: req.profile,
    overrides: new Map(Object.entries(req.overrides)),
  });
}

/** A JSON value with every string longer than `max` cut (marked), and whether anything was cut. */
export function clipStrings(v: Json, max = CLIP_CHARS): { value: Json; clipped: boolean } {
  if (typeof v === 'string') {
    if (v.length <= max) return { value: v, clipped: false };
    return { value: `${v.slice(0, max)}… [clipped: ${v.length - max} more characters]`, clipped: true };
  }
  if (Array.isArray(v)) {
    let clipped = false;
    const value = v.map((x) => {
      const r = clipStrings(x, max);
      clipped ||= r.clipped;
      return r.value;
    });
    return clipped ? { value, clipped } : { value: v, clipped };
  }
  if (v !== null && typeof v === 'object') {
    let clipped = false;
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) {
      const r = clipStrings(x, max);
      clipped ||= r.clipped;
      out[k] = r.value;
    }
    return clipped ? { value: out, clipped } : { value: v, clipped };
  }
  return { value: v, clipped: false };
}

/** Both panes for one leaf: the chain with each entry's visibility, and the (clipped) projection. */
export function leafView(s: OpenSession, req: LeafRequest): LeafView {
  const ledger = s.ledger;
  const ix = ledger.index;
  const leaf = leafIndex(s, req.leaf);
  const projection = projectionFor(s, req, leaf);
  const chain = chainToRoot(ix, leaf);
  const vis = chainVisibility(ledger, chain, projection);
  const items: ChainItem[] = chain.map((i, k) => {
    const e = ledger.entry(i);
    const kind = ix.kindName(i);
    const p = entryPreview(e, kind);
    return {
      id: ix.ids[i],
      index: i,
      kind,
      role: p.role,
      control: p.control,
      line: ix.line[i],
      ts: typeof e['ts'] === 'string' ? e['ts'] : '',
      text: p.text,
      turnId: vis[k].turnId,
      projectedAs: vis[k].projectedAs,
      hidden: vis[k].hidden,
    };
  });
  const clipped: number[] = [];
  const messages: ProjectedMessage[] = projection.messages.map((m, k) => {
    const r = clipStrings(m.content);
    if (!r.clipped) return m;
    clipped.push(k);
    return { ...m, content: r.value as Json[] };
  });
  return { leaf: ix.ids[leaf], chain: items, projection: { ...projection, messages }, clipped };
}

/** One projected message, unclipped. */
export function projectedMessage(s: OpenSession, req: LeafRequest & { message: number }): ProjectedMessage {
  const projection = projectionFor(s, req, leafIndex(s, req.leaf));
  const m = projection.messages[req.message];
  if (!m) {
    throw new ApiError(
      'not_found',
      `message ${req.message} is out of range: the projection has ${projection.messages.length} messages`,
    );
  }
  return m;
}
