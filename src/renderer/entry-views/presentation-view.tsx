import { asList, asText, EntryLink, Fields, JsonBlock, objAt, own, Text, type JsonObject } from './parts';

/** §3 presentation: a card the agent showed the user, its canonical payload and what backs it. */
export function PresentationView({ e }: { e: JsonObject }) {
  const p = objAt(e, 'presentation');
  const evidence = asList(own(p, 'evidence'));
  return (
    <div className="ev ev-presentation">
      <Fields
        rows={[
          ['card type', asText(own(p, 'card_type'))],
          ['tool call', <code>{asText(own(p, 'tool_use_id'))}</code>],
          ['ack', <Text value={own(p, 'ack')} />],
          [
            'digest',
            own(p, 'digest') !== undefined ? <code className="ev-digest">{asText(own(p, 'digest'))}</code> : null,
          ],
          [
            'identity digest',
            own(p, 'identity_digest') !== undefined ? (
              <code className="ev-digest">{asText(own(p, 'identity_digest'))}</code>
            ) : null,
          ],
          [
            'evidence',
            evidence.length ? (
              <span className="ev-links">
                {evidence.map((id, i) => (
                  <EntryLink key={i} id={id} />
                ))}
              </span>
            ) : null,
          ],
        ]}
      />
      <div className="ev-sub">payload</div>
      <JsonBlock value={own(p, 'payload')} />
    </div>
  );
}
