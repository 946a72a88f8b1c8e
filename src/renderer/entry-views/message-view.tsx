import { ContentBlock } from '../leaf/content-block';
import { asText, Fields, objAt, own, usageLine, type JsonObject } from './parts';

/** §4 message: its blocks drawn by type (tool results as the tool's text, with colours), then its meta. */
export function MessageView({ e }: { e: JsonObject }) {
  const m = objAt(e, 'message');
  const content = own(m, 'content');
  const meta = objAt(e, 'meta');
  const control = own(meta, 'control');
  return (
    <div className="ev ev-message">
      <div className="ev-blocks">
        {(Array.isArray(content) ? content : []).map((b, i) => (
          <ContentBlock key={i} block={b} />
        ))}
      </div>
      <Fields
        rows={[
          ['model', asText(own(meta, 'model'))],
          ['stop reason', asText(own(meta, 'stop_reason'))],
          ['usage', own(meta, 'usage') !== undefined ? usageLine(own(meta, 'usage')) : null],
          ['control', control !== undefined && control !== null ? asText(control) : null],
        ]}
      />
    </div>
  );
}
