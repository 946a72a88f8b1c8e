import type { Json } from '../../shared/ledger-types';
import { MessageBlocks } from '../text/message-blocks';
import { asText, Fields, objAt, own, usageLine, type JsonObject } from './parts';

const NO_BLOCKS: Json[] = [];

/** §4 message: its blocks drawn by type (tool results as the tool's text, with colours), then its meta. */
export function MessageView({ e }: { e: JsonObject }) {
  const m = objAt(e, 'message');
  const content = own(m, 'content');
  const meta = objAt(e, 'meta');
  const control = own(meta, 'control');
  return (
    <div className="ev ev-message">
      <div className="ev-blocks">
        <MessageBlocks content={Array.isArray(content) ? content : NO_BLOCKS} />
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
