import { ownValue } from '../../shared/own-key';
import { asText, Fields, isObj, JsonBlock, objAt, own, Text, type JsonObject } from './parts';

/** What each activity type (§3) records, in one sentence. */
const ACTIVITY: Record<string, { label: string; means: string }> = {
  approval: { label: 'Approval', means: 'A tool call needed permission; the detail says who decided and how.' },
  retry: { label: 'Retry', means: 'A model call failed and was tried again.' },
  route_fallback: {
    label: 'Route fallback',
    means: 'The preferred provider route failed and another route served the call.',
  },
  prefix_cache_break: {
    label: 'Prefix-cache break',
    means:
      'The prompt prefix changed, so the provider could not reuse its cached prefix: the next call pays full input.',
  },
  capacity_probe: { label: 'Capacity probe', means: "The runtime measured the model's context capacity." },
  capacity_feedback: {
    label: 'Capacity feedback',
    means: 'The provider reported the context was too large or near its limit.',
  },
  drift: { label: 'Drift', means: 'The work drifted from the goal or the recorded plan.' },
  freshness: { label: 'Freshness', means: 'Something read earlier may be stale (a file changed since it was read).' },
};

/** §3 activity, by type. */
export function ActivityView({ e }: { e: JsonObject }) {
  const a = objAt(e, 'activity');
  const type = asText(own(a, 'type'));
  const known = ownValue(ACTIVITY, type) ?? null;
  const detail = own(a, 'detail');
  return (
    <div className={`ev ev-activity ev-activity-${known ? type : 'other'}`}>
      <p className="ev-lead">
        <b>{known?.label ?? (type || 'activity')}</b>
        {known && <span className="dim"> — {known.means}</span>}
      </p>
      <Fields
        rows={[
          ['detail', isObj(detail) || Array.isArray(detail) ? <JsonBlock value={detail} /> : <Text value={detail} />],
        ]}
      />
    </div>
  );
}
