import type { WorkItem } from '../../shared/ledger-types';
import { KIND } from './ledger-index';
import type { Ledger } from './ledger';

/**
 * The §3 work fold of a chain as far as its entry `tip` (an entry index): a later fold of a chain
 * through `tip` starts from it and reads only the work entries after it (an append or a
 * reopen from a kept index folds what came since, not the whole chain's work entries again).
 */
export interface WorkFold {
  tip: number;
  items: readonly WorkItem[];
}

/**
 * Where `tip` sits on `chain` (root first), or -1. Searched from the leaf end: a fold is extended
 * along the chain it was taken on, usually a few entries back.
 */
function positionOn(chain: Int32Array, tip: number): number {
  for (let k = chain.length - 1; k >= 0; k--) {
    if (chain[k] === tip) return k;
    if (chain[k] < tip) return -1; // entries come after their parents: tip is not on this chain
  }
  return -1;
}

/**
 * §3 `work`: fold the events of each work_id, in chain order, into its current
 * state. An event without `state` keeps the previous state; `detail` is the newest given.
 * With `from` (a fold of this ledger's index whose tip is on `chain`) only the entries after
 * its tip are read; otherwise the whole chain. `from` is not modified.
 */
export function foldWork(ledger: Ledger, chain: Int32Array, from: WorkFold | null = null): WorkItem[] {
  const items = new Map<string, WorkItem>();
  const ix = ledger.index;
  let start = 0;
  const at = from === null || from.tip >= ix.count ? -1 : positionOn(chain, from.tip);
  if (from !== null && at >= 0) {
    for (const w of from.items) items.set(w.work_id, { ...w });
    start = at + 1;
  }
  for (let k = start; k < chain.length; k++) {
    const i = chain[k];
    if (ix.kind[i] !== KIND.work) continue;
    const e = ledger.workEvent(i);
    if (e === null) continue; // a malformed work entry (no string work_id) folds into nothing
    const w = e.work;
    let item = items.get(w.work_id);
    if (!item) {
      item = {
        work_id: w.work_id,
        state: null,
        last_event: w.event,
        detail: null,
        events: 0,
        first_entry: ix.ids[i],
        last_entry: ix.ids[i],
        last_ts: e.ts,
      };
      items.set(w.work_id, item);
    }
    item.events++;
    item.last_event = w.event;
    item.last_entry = ix.ids[i];
    item.last_ts = e.ts;
    if (w.state !== undefined) item.state = w.state;
    if (w.detail !== undefined) item.detail = w.detail;
  }
  return [...items.values()];
}
