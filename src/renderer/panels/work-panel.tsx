import { useApi } from '../api/api-context';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';
import { fullTime, shortId, timeOfDay } from '../util/format';
import './panels.css';

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Work items folded over the active chain: current state per work id. */
export function WorkPanel() {
  const api = useApi();
  const info = useAppStore((s) => s.sessionInfo);
  if (!info) return <p className="dim">No session open.</p>;
  if (info.work.length === 0) return <p className="dim">No work items on the active chain.</p>;
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
        {info.work.map((w) => (
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
