import type { SessionSummary } from '../../shared/api';

export interface CwdGroup {
  cwd: string;
  sessions: SessionSummary[];
}
export interface AgentGroup {
  agent: string;
  cwds: CwdGroup[];
}

/** The session's last entry time; the file's mtime only when the tail could not be read (a copy resets mtimes). */
const recency = (s: SessionSummary): number => (s.lastTs ? Date.parse(s.lastTs) || s.mtimeMs : s.mtimeMs);

/** Case-insensitive match on title, agent, cwd, model and session id. */
export function matchesFilter(s: SessionSummary, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  if (!f) return true;
  return [s.title, s.agent, s.cwd, s.model, s.sessionId].some((v) => v?.toLowerCase().includes(f));
}

/** Sessions of files opened by path (listed on their own, with their paths), newest first. */
export function openedSessions(sessions: SessionSummary[], filter = ''): SessionSummary[] {
  return sessions
    .filter(
      (s) =>
        s.openedPath !== undefined &&
        (matchesFilter(s, filter) || matchesFilter({ ...s, title: s.openedPath }, filter)),
    )
    .sort((a, b) => recency(b) - recency(a));
}

/** The home's sessions grouped agent → working directory, newest first at every level (opened files apart). */
export function groupSessions(sessions: SessionSummary[], filter = ''): AgentGroup[] {
  const agents = new Map<string, Map<string, SessionSummary[]>>();
  for (const s of sessions) {
    if (s.openedPath !== undefined || !matchesFilter(s, filter)) continue;
    const cwd = s.cwd ?? `(unknown cwd ${s.cwdHash})`;
    const byCwd = agents.get(s.agent) ?? new Map<string, SessionSummary[]>();
    agents.set(s.agent, byCwd);
    byCwd.set(cwd, [...(byCwd.get(cwd) ?? []), s]);
  }
  const newest = (list: SessionSummary[]) => Math.max(...list.map(recency));
  return [...agents.entries()]
    .map(([agent, byCwd]) => ({
      agent,
      cwds: [...byCwd.entries()]
        .map(([cwd, list]) => ({ cwd, sessions: [...list].sort((a, b) => recency(b) - recency(a)) }))
        .sort((a, b) => newest(b.sessions) - newest(a.sessions)),
    }))
    .sort((a, b) => newest(b.cwds.flatMap((c) => c.sessions)) - newest(a.cwds.flatMap((c) => c.sessions)));
}
