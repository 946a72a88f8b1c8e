import type { ReactNode } from 'react';
import './entry-views.css';
import type { ChainItem, EntryDetail } from '../../shared/api';
import { ownValue } from '../../shared/own-key';
import { ActivityView } from './activity-view';
import { CapabilitiesView } from './capabilities-view';
import { ChildRunView } from './child-run-view';
import { GoalUpdateView, GoalView } from './goal-view';
import { HeaderView } from './header-view';
import { MessageView } from './message-view';
import { isObj, JsonBlock, type JsonObject } from './parts';
import { PresentationView } from './presentation-view';
import { ReceiptView } from './receipt-view';
import { CompactionView, IntentView, WorkView } from './small-views';
import { TurnCardView } from './turn-card-view';

const COMMON = ['id', 'parent_id', 'ts', 'prev_hash', 'kind'];

/** The fields each kind's view draws (§3); any other field is shown under "other fields". */
const DRAWN: Record<string, string[]> = {
  header: [
    'session_id',
    'app_version',
    'provider',
    'model',
    'system_prompt',
    'tools',
    'permission_mode',
    'cwd',
    'parent_session',
  ],
  message: ['message', 'meta'],
  compaction: ['packet', 'reset_all', 'summary', 'model', 'tokens_before'],
  receipt: ['receipt'],
  goal: ['goal'],
  goal_update: ['goal_update'],
  activity: ['activity'],
  work: ['work'],
  intent: ['intent'],
  child_run: ['child_run'],
  turn_capabilities_bound: ['capabilities'],
  presentation: ['presentation'],
  turn_card: ['turn_card'],
};

function viewOf(kind: string, e: JsonObject, item: ChainItem): ReactNode {
  switch (kind) {
    case 'header':
      return <HeaderView e={e} />;
    case 'message':
      return <MessageView e={e} />;
    case 'compaction':
      return <CompactionView e={e} />;
    case 'receipt':
      return <ReceiptView e={e} />;
    case 'goal':
      return <GoalView e={e} pos={item.pos} />;
    case 'goal_update':
      return <GoalUpdateView e={e} pos={item.pos} />;
    case 'activity':
      return <ActivityView e={e} />;
    case 'work':
      return <WorkView e={e} />;
    case 'intent':
      return <IntentView e={e} />;
    case 'child_run':
      return <ChildRunView e={e} id={item.id} />;
    case 'turn_capabilities_bound':
      return <CapabilitiesView e={e} />;
    case 'presentation':
      return <PresentationView e={e} />;
    case 'turn_card':
      return <TurnCardView e={e} pos={item.pos} />;
    default:
      return null;
  }
}

/**
 * The readable view of one entry, by kind. What cannot be read as its kind is shown as
 * recorded, with one line saying why: a line too long to parse here, a payload the core
 * found malformed, an unknown kind.
 */
export function EntryView({ detail, item, raw }: { detail: EntryDetail; item: ChainItem; raw: ReactNode }) {
  const e = detail.json;
  if (!isObj(e))
    return (
      <>
        <p className="ev-note">This line is too long to read as a whole here: it is shown raw, a slice at a time.</p>
        {raw}
      </>
    );
  if (detail.problem !== null)
    return (
      <>
        <p className="ev-note" role="note">
          Malformed {detail.kind}: {detail.problem}. Shown as recorded.
        </p>
        {raw}
      </>
    );
  const view = viewOf(detail.kind, e, item);
  if (view === null)
    return (
      <>
        <p className="ev-note" role="note">
          Unknown kind “{detail.kind}”: kept as recorded, never model-visible.
        </p>
        {raw}
      </>
    );
  const drawn = new Set([...COMMON, ...(ownValue(DRAWN, detail.kind) ?? [])]);
  const extra = Object.keys(e).filter((k) => !drawn.has(k));
  return (
    <>
      {view}
      {extra.length > 0 && (
        <details className="ev-section ev-extra">
          <summary>other fields: {extra.join(', ')}</summary>
          <JsonBlock value={Object.fromEntries(extra.map((k) => [k, e[k]]))} />
        </details>
      )}
    </>
  );
}
