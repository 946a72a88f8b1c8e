import { Icon } from '../icons/icon';
import { useAppStore } from '../store/app-store';
import { shortId } from '../util/format';

/** From a child session back to the parent session's spawning entry (its `child_run`). */
export function ParentSessionLink() {
  const parent = useAppStore((s) => s.sessionInfo?.summary.parentSession ?? null);
  const openSessionAt = useAppStore((s) => s.openSessionAt);
  if (!parent) return null;
  const label = `session ${shortId(parent.sessionId)} at ${shortId(parent.entryId)}`;
  if (!parent.key)
    return (
      <span className="dim" title={`${parent.sessionId} is not in this home`}>
        {label} (not in this home)
      </span>
    );
  const key = parent.key;
  return (
    <button
      type="button"
      className="ev-link session-link"
      title={`Open the parent session ${parent.sessionId} at the entry that spawned this one (${parent.entryId})`}
      onClick={() => openSessionAt(key, parent.entryId)}
    >
      <Icon name="parent" /> {label}
    </button>
  );
}

/** From a `child_run` entry to the child session it names. */
export function ChildSessionLink({ entryId, childSessionId }: { entryId: string; childSessionId: string }) {
  const run = useAppStore((s) => s.sessionInfo?.childRuns.find((c) => c.entryId === entryId) ?? null);
  const openSessionAt = useAppStore((s) => s.openSessionAt);
  if (!run?.key)
    return (
      <span className="dim" title="No session with this id is in this home">
        {childSessionId} (not in this home)
      </span>
    );
  const key = run.key;
  return (
    <button
      type="button"
      className="ev-link session-link"
      title={`Open the child session ${childSessionId} (agent ${run.agent})`}
      onClick={() => openSessionAt(key, null)}
    >
      <Icon name="child_run" /> open {run.agent ? `${run.agent} ` : ''}session {shortId(childSessionId)}
    </button>
  );
}
