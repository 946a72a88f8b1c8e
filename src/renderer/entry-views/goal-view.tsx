import { MAX_CHAIN_ITEMS, type ChainItem } from '../../shared/api';
import { timeOfDay, fullTime } from '../util/format';
import { asList, asText, EntryLink, Fields, objAt, own, Text, type JsonObject } from './parts';
import { useChainItems } from './use-chain-items';

const GOAL_KINDS = ['goal', 'goal_update'];

/** The goal an entry at `pos` belongs to and that goal's updates, from the chain's goal entries in order. */
function lifecycle(items: ChainItem[], pos: number): { goal: ChainItem | null; updates: ChainItem[] } {
  let goal: ChainItem | null = null;
  let updates: ChainItem[] = [];
  for (const c of items) {
    if (c.kind === 'goal') {
      if (c.pos > pos) break;
      goal = c;
      updates = [];
    } else updates.push(c);
  }
  return { goal, updates };
}

/** §3 goal: the objective and its criteria, then every update it had on this chain. */
export function GoalView({ e, pos }: { e: JsonObject; pos: number }) {
  const g = objAt(e, 'goal');
  const criteria = asList(own(g, 'criteria'));
  return (
    <div className="ev ev-goal">
      <Fields
        rows={[
          ['objective', <Text value={own(g, 'objective')} />],
          [
            'criteria',
            criteria.length ? (
              <ul className="ev-list">
                {criteria.map((c, i) => (
                  <li key={i}>{c}</li>
                ))}
              </ul>
            ) : (
              <span className="dim">none</span>
            ),
          ],
        ]}
      />
      <Lifecycle pos={pos} />
    </div>
  );
}

/** §3 goal_update: a step in a goal's lifecycle, with the goal it updates. */
export function GoalUpdateView({ e, pos }: { e: JsonObject; pos: number }) {
  const u = objAt(e, 'goal_update');
  return (
    <div className="ev ev-goal-update">
      <Fields
        rows={[
          ['status', asText(own(u, 'status'))],
          ['relation', asText(own(u, 'relation'))],
          ['note', <Text value={own(u, 'note')} />],
        ]}
      />
      <Lifecycle pos={pos} />
    </div>
  );
}

function Lifecycle({ pos }: { pos: number }) {
  const { items, error } = useChainItems(0, MAX_CHAIN_ITEMS, GOAL_KINDS);
  if (error) return <p className="error">{error}</p>;
  if (!items) return null;
  const { goal, updates } = lifecycle(items, pos);
  return (
    <div className="ev-lifecycle">
      <div className="ev-sub">
        lifecycle
        {goal ? (
          <>
            {' '}
            of goal <EntryLink id={goal.id}>{goal.text || goal.id}</EntryLink>
          </>
        ) : (
          ' (no goal before it on this chain)'
        )}
      </div>
      {updates.length === 0 ? (
        <p className="dim">No update yet on this chain.</p>
      ) : (
        <ol className="ev-entry-links">
          {updates.map((c) => (
            <li key={c.id} className={c.pos === pos ? 'ev-current' : undefined}>
              <span className="row-time" title={fullTime(c.ts)}>
                {timeOfDay(c.ts)}
              </span>{' '}
              <EntryLink id={c.id}>{c.text || c.id}</EntryLink>
              {c.pos === pos ? <span className="dim"> (this entry)</span> : null}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
