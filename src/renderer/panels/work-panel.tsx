import { useEffect, useState } from 'react';
import type { SessionKey, WorkItems, WorkSummary } from '../../shared/api';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';
import { fullTime, shortId, timeOfDay } from '../util/format';
import './panels.css';

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

const sameWork = (a: WorkSummary, b: WorkSummary): boolean => a.count === b.count && a.newest === b.newest;

/** An answer of `getWork`, with the session's generation (the store's `treeVersion`) it was asked in. */
interface HeldWork {
  key: SessionKey;
  generation: number;
  answer: WorkItems;
}

/**
 * Work items folded over the active chain: current state per work id. The items are asked when
 * the panel opens (the open carries only their summary) and again when an append or a reload
 * changes that summary; an answer shows only for the session, generation and summary it is of.
 */
export function WorkPanel() {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  const info = useAppStore((s) => s.sessionInfo);
  const generation = useAppStore((s) => s.treeVersion);
  const [held, setHeld] = useState<HeldWork | null>(null);
  const [error, setError] = useState<string | null>(null);
  const count = info?.work.count ?? 0;
  const newest = info?.work.newest ?? null;
  // While a first open still reads, the summary is of the bytes read then: any answer of this session is as good.
  const reading = info?.reading != null;
  const open = info !== null;
  const fits = (h: HeldWork | null): h is HeldWork =>
    h !== null &&
    h.key === key &&
    h.generation === generation &&
    (reading || sameWork(h.answer.work, { count, newest }));
  const current = fits(held);
  useEffect(() => {
    if (!key || !open || count === 0 || current) return;
    const ctl = new AbortController();
    api.getWork({ key }, { signal: ctl.signal }).then(
      (answer) => {
        if (ctl.signal.aborted) return;
        setError(null);
        setHeld({ key, generation, answer });
      },
      (e: unknown) => !ctl.signal.aborted && setError(describeError(e)),
    );
    return () => ctl.abort();
  }, [api, key, open, generation, count, newest, current]);
  if (!key || !info) return <p className="dim">No session open.</p>;
  if (count === 0) return <p className="dim">No work items on the active chain.</p>;
  if (error && !current) return <p className="error">{error}</p>;
  if (!current) return <p className="dim">loading…</p>;
  const items = held.answer.items;
  return (
    <table className="work-table" aria-label="Work items">
      <thead>
        <tr>
          <th>work id</th>
          <th>state</th>
          <th>last event</th>
          <th>detail</th>
          <th>events</th>
          <th>last</th>
        </tr>
      </thead>
      <tbody>
        {items.map((w) => (
          <tr key={w.work_id}>
            <td className="work-id">{w.work_id}</td>
            <td>{show(w.state)}</td>
            <td>{w.last_event}</td>
            <td className="clip">{show(w.detail)}</td>
            <td className="num">{w.events}</td>
            <td className="work-last">
              <button
                type="button"
                title={`Select ${w.last_entry} (${fullTime(w.last_ts)})`}
                onClick={() => void jumpToEntry(api, w.last_entry)}
              >
                {shortId(w.last_entry)} · {timeOfDay(w.last_ts)}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
