/** Views of the kinds with a few flat fields: compaction, intent, work. */
import { asText, EntryLink, Fields, isObj, JsonBlock, num, objAt, own, Text, type JsonObject } from './parts';

const valueOf = (v: Parameters<typeof asText>[0]) =>
  isObj(v) || Array.isArray(v) ? <JsonBlock value={v} /> : <Text value={v} />;

/** §3 compaction: a packet standing for a range of turns, or a reset of everything before it. */
export function CompactionView({ e }: { e: JsonObject }) {
  if (own(e, 'reset_all') === true)
    return (
      <div className="ev ev-compaction">
        <p className="ev-lead">
          <b>Reset</b> <span className="dim">— everything before it reaches the model only as this summary.</span>
        </p>
        <Fields
          rows={[
            ['summary', <Text value={own(e, 'summary')} />],
            ['model', asText(own(e, 'model'))],
            ['tokens before', num(own(e, 'tokens_before'))],
          ]}
        />
      </div>
    );
  const p = objAt(e, 'packet');
  const first = own(p, 'first_turn_id');
  const last = own(p, 'last_turn_id');
  return (
    <div className="ev ev-compaction">
      <p className="ev-lead">
        <b>Packet</b> <span className="dim">— a summary a plan may put in place of these turns.</span>
      </p>
      <Fields
        rows={[
          ['first turn', typeof first === 'string' ? <EntryLink id={first} /> : asText(first)],
          ['last turn', typeof last === 'string' ? <EntryLink id={last} /> : asText(last)],
          ['summary', <Text value={own(p, 'summary')} />],
          ['model', asText(own(p, 'model'))],
          ['tokens before', num(own(p, 'tokens_before'))],
        ]}
      />
    </div>
  );
}

/** §3 intent: how the runtime reads the user's intent; only `model_visible` reaches the model (the newest, in the tail). */
export function IntentView({ e }: { e: JsonObject }) {
  const i = objAt(e, 'intent');
  return (
    <div className="ev ev-intent">
      <Fields
        rows={[
          ['reading', asText(own(i, 'reading'))],
          ['engagement', asText(own(i, 'engagement'))],
          ['provenance', asText(own(i, 'provenance'))],
          ['model visible', valueOf(own(i, 'model_visible'))],
        ]}
      />
    </div>
  );
}

/** §3 work: one event of a work item (the Work panel folds them per id). */
export function WorkView({ e }: { e: JsonObject }) {
  const w = objAt(e, 'work');
  return (
    <div className="ev ev-work">
      <Fields
        rows={[
          ['work id', <code>{asText(own(w, 'work_id'))}</code>],
          ['event', asText(own(w, 'event'))],
          ['state', valueOf(own(w, 'state'))],
          ['detail', valueOf(own(w, 'detail'))],
        ]}
      />
    </div>
  );
}
