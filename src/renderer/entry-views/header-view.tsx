import type { Json } from '../../shared/ledger-types';
import { asText, Fields, isObj, JsonBlock, own, Text, type JsonObject } from './parts';
import { ParentSessionLink } from './session-links';
import { fmtInt } from '../util/format';

/** §3 header: the session's frozen execution contract. */
export function HeaderView({ e }: { e: JsonObject }) {
  const tools = own(e, 'tools');
  const system = asText(own(e, 'system_prompt'));
  return (
    <div className="ev ev-header">
      <Fields
        rows={[
          ['app version', asText(own(e, 'app_version'))],
          ['provider', asText(own(e, 'provider'))],
          ['model', asText(own(e, 'model'))],
          ['permission mode', asText(own(e, 'permission_mode'))],
          ['cwd', asText(own(e, 'cwd'))],
          ['session id', asText(own(e, 'session_id'))],
          ['parent session', isObj(own(e, 'parent_session')) ? <ParentSessionLink /> : null],
        ]}
      />
      <details className="ev-section">
        <summary>system prompt ({fmtInt(system.length)} chars)</summary>
        <Text value={system} />
      </details>
      <ToolList tools={Array.isArray(tools) ? tools : []} />
    </div>
  );
}

/** The header's tools: name and description, the input schema on demand. */
function ToolList({ tools }: { tools: Json[] }) {
  return (
    <details className="ev-section" open={tools.length <= 8}>
      <summary>
        {tools.length} tool{tools.length === 1 ? '' : 's'}
      </summary>
      <ul className="ev-tools">
        {tools.map((t, i) => {
          const o = isObj(t) ? t : {};
          return (
            <li key={i}>
              <code className="ev-tool-name">{asText(own(o, 'name')) || '(no name)'}</code>{' '}
              <Text value={own(o, 'description')} />
              {own(o, 'input_schema') !== undefined && (
                <details className="ev-schema">
                  <summary>schema</summary>
                  <JsonBlock value={own(o, 'input_schema')} />
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
