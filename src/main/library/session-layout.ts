/**
 * An open session's tree layout kept in step with its ledger: laid out on open (from a
 * kept layout on a reopen), extended after appends, built whole again when a read placed it
 * otherwise than a whole read would (a session looks the same however it was read), and handed
 * to the kept index only as a whole build.
 */
import type { LedgerIndex } from '../core/ledger-index';
import { TreeLayout, type KeptLayout } from '../core/tree-layout';
import type { Ledger } from '../core/ledger';

/**
 * What laying out a session's tree reads and sets of an open session (session-cache.ts's
 * `OpenSession` is one): declared here, so the layout does not depend on the cache that uses it.
 */
export interface LaidOutSession {
  ledger: Ledger;
  layout: TreeLayout;
  /** The index `layout` was built on (a ledger read again from byte 0 has a new one). */
  layoutIndex: LedgerIndex;
  /** Bumped on every change, so derived views know when to recompute. */
  revision: number;
  /** The ledger was read again and followers were not told yet. */
  reloadUnannounced: boolean;
}

/** The layout of a ledger just opened: a reopen places only the entries read since its kept layout. */
export function layoutOnOpen(index: LedgerIndex, kept: KeptLayout | null): TreeLayout {
  return (kept && TreeLayout.fromKept(index, kept)) ?? TreeLayout.build(index);
}

/**
 * Brings an open session's layout up to its ledger: extended after appends, rebuilt (and
 * the reload remembered for followers) when the ledger was read again from byte 0.
 */
export function settle(s: LaidOutSession): void {
  if (s.layoutIndex !== s.ledger.index) {
    s.layout = TreeLayout.build(s.ledger.index);
    s.layoutIndex = s.ledger.index;
    s.reloadUnannounced = true;
    s.revision++;
  } else if (s.layout.count < s.ledger.index.count) {
    s.layout.extend();
    s.revision++;
  }
}

/**
 * The layout of a session read to its end in steps: built again whole when its steps placed it
 * otherwise than a whole read (TreeLayout.isWhole) or the ledger was read again from byte 0 (the
 * reload remembered for followers, as `settle` does).
 */
export function layoutAtEnd(s: LaidOutSession): void {
  const reread = s.layoutIndex !== s.ledger.index;
  if (reread) s.reloadUnannounced = true;
  else s.layout.extend();
  if (reread || !s.layout.isWhole) s.layout = TreeLayout.build(s.ledger.index);
  s.layoutIndex = s.ledger.index;
}

/**
 * The session's layout as `build` gives it for the whole index, to keep: its own when it is one
 * (a session read and not appended to since), else one built now (off the path of requests: a
 * kept index is written a moment after its open answered, or as the session leaves).
 */
export function wholeLayout(s: LaidOutSession): KeptLayout | null {
  const own = s.layoutIndex === s.ledger.index ? s.layout.kept() : null;
  return own?.count === s.ledger.index.count ? own : TreeLayout.build(s.ledger.index).kept();
}
