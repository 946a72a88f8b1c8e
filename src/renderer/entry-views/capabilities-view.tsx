import { asList, Fields, objAt, own, Text, type JsonObject } from './parts';

const Chips = ({ names }: { names: string[] }) =>
  names.length === 0 ? (
    <span className="dim">none</span>
  ) : (
    <span className="ev-chips">
      {names.map((n, i) => (
        <code key={i} className="ev-chip">
          {n}
        </code>
      ))}
    </span>
  );

/** §3 turn_capabilities_bound: which tools the turn had at once, which on request, and their domains. */
export function CapabilitiesView({ e }: { e: JsonObject }) {
  const c = objAt(e, 'capabilities');
  const domains = objAt(c, 'domains');
  const tools = Object.keys(domains);
  return (
    <div className="ev ev-capabilities">
      <Fields
        rows={[
          ['core tools', <Chips names={asList(own(c, 'core_tools'))} />],
          ['deferred tools', <Chips names={asList(own(c, 'deferred_tools'))} />],
          [
            'domains',
            tools.length === 0 ? (
              <span className="dim">none declared</span>
            ) : (
              <ul className="ev-list">
                {tools.map((t) => (
                  <li key={t}>
                    <code>{t}</code>: <Chips names={asList(own(domains, t))} />
                  </li>
                ))}
              </ul>
            ),
          ],
          ['tool index', <Text value={own(c, 'tool_index_text')} />],
        ]}
      />
    </div>
  );
}
