import type { Json, WorkItem } from '../../shared/ledger-types';
import { isObject } from './entry-types';
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
    const w = e['work'];
    if (!isObject(w) || typeof w['work_id'] !== 'string') continue;
    const id = w['work_id'];
    const ts = typeof e['ts'] === 'string' ? e['ts'] : '';
    const event = typeof w['event'] === 'string' ? w['event'] : '';
    let item = items.get(id);
    if (!item) {
      item = {
        work_id: id,
        state: null,
        last_event: event,
        detail: null,
        events: 0,
        first_entry: ix.ids[i],
        last_entry: ix.ids[i],
        last_ts: ts,
      };
      items.set(id, item);
    }
    item.events++;
    item.last_event = event;
    item.last_entry = ix.ids[i];
    item.last_ts = ts;
    if (w['state'] !== undefined) item.state = w['state'] as Json;
    if (w['detail'] !== undefined) item.detail = w['detail'] as Json;
  }
  return [...items.values()];
}
