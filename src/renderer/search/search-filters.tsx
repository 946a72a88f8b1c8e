import { useMemo } from 'react';
import { useAppStore } from '../store/app-store';
import { shortPath } from '../util/format';
import { ENTRY_KINDS } from './search-params';

/** Agent, working directory, kind and date range: what narrows a search ('' = any). */
export function SearchFilters() {
  const sessions = useAppStore((s) => s.sessions);
  const f = useAppStore((s) => s.searchFilters);
  const scope = useAppStore((s) => s.searchScope);
  const set = useAppStore((s) => s.setSearchFilters);
  const agents = useMemo(() => [...new Set(sessions.map((s) => s.agent))].sort(), [sessions]);
  // The directories of the chosen agent (all agents' when none is chosen).
  const cwds = useMemo(
    () =>
      [
        ...new Set(sessions.flatMap((s) => (s.cwd !== null && (!f.agent || s.agent === f.agent) ? [s.cwd] : []))),
      ].sort(),
    [sessions, f.agent],
  );
  const inSession = scope === 'session';
  return (
    <fieldset className="search-filters">
      <legend className="sr-only">Filters</legend>
      {!inSession && (
        <>
          <select aria-label="Agent" value={f.agent} onChange={(e) => set({ agent: e.target.value, cwd: '' })}>
            <option value="">any agent</option>
            {agents.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
          <select aria-label="Working directory" value={f.cwd} onChange={(e) => set({ cwd: e.target.value })}>
            <option value="">any cwd</option>
            {cwds.map((c) => (
              <option key={c} value={c} title={c}>
                {shortPath(c)}
              </option>
            ))}
          </select>
        </>
      )}
      <select aria-label="Kind" value={f.kind} onChange={(e) => set({ kind: e.target.value })}>
        <option value="">any kind</option>
        <option value="audit">audit entries</option>
        {ENTRY_KINDS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
      <label className="search-date" title="Entry time, UTC day">
        from
        <input
          type="date"
          aria-label="From date"
          value={f.from}
          max={f.to || undefined}
          onChange={(e) => set({ from: e.target.value })}
        />
      </label>
      <label className="search-date" title="Entry time, UTC day">
        to
        <input
          type="date"
          aria-label="To date"
          value={f.to}
          min={f.from || undefined}
          onChange={(e) => set({ to: e.target.value })}
        />
      </label>
    </fieldset>
  );
}
