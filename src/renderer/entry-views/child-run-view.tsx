import { asText, Fields, objAt, own, Text, type JsonObject } from './parts';
import { ChildSessionLink } from './session-links';

/** §3 child_run: a sub-agent's run, linked to its own session. */
export function ChildRunView({ e, id }: { e: JsonObject; id: string }) {
  const c = objAt(e, 'child_run');
  const child = asText(own(c, 'child_session_id'));
  return (
    <div className="ev ev-child-run">
      <Fields
        rows={[
          ['agent', asText(own(c, 'agent'))],
          ['outcome', asText(own(c, 'outcome'))],
          ['summary', <Text value={own(c, 'summary')} />],
          ['child session', <ChildSessionLink entryId={id} childSessionId={child} />],
        ]}
      />
    </div>
  );
}
