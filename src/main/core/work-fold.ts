import type { WorkItem } from '../../shared/ledger-types';
import { KIND } from './ledger-index';
import type { Ledger } from './ledger';

/**
 * §3 `work`: fold the events of each work_id, in chain order, into its current
 * state. An event without `state` keeps the previous state; `detail` is the newest given.
 */
export function foldWork(ledger: Ledger, chain: readonly number[]): WorkItem[] {
  const items = new Map<string, WorkItem>();
  const ix = ledger.index;
  for (const i of chain) {
    if (ix.kind[i] !== KIND.work) continue;
    const e = ledger.entry(i);
    if (e.kind !== 'work') continue; // a malformed work entry (no string work_id) folds into nothing
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
