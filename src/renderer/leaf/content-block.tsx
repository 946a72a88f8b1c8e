import { stringifyJson } from '../../shared/json-text';
import type { Json } from '../../shared/ledger-types';
import { AnsiText } from './ansi-text';
import { CollapsibleText } from './collapsible-text';
import { MarkdownText } from './markdown-text';

type Block = { [k: string]: Json };

// Values are drawn as text, never as nested elements, and serialized without recursion
// (stringifyJson): a value of any depth shows, clipped with "show all" by CollapsibleText.
const str = (v: Json | undefined): string => (typeof v === 'string' ? v : v === undefined ? '' : stringifyJson(v));

/** One content block of a projected message, drawn by its type. */
export function ContentBlock({ block }: { block: Json }) {
  if (!block || typeof block !== 'object' || Array.isArray(block)) {
    return <CollapsibleText text={stringifyJson(block)} render={(t) => <pre className="block-raw">{t}</pre>} />;
  }
  const b = block as Block;
  switch (b.type) {
    case 'text':
      return <CollapsibleText text={str(b.text)} render={(t) => <MarkdownText text={t} />} />;
    case 'thinking':
      return (
        <details className="block-thinking">
          <summary>thinking ({str(b.text).length.toLocaleString('en-US')} chars)</summary>
          <CollapsibleText text={str(b.text)} render={(t) => <pre className="plain">{t}</pre>} />
        </details>
      );
    case 'tool_use':
      return (
        <div className="block-tool-use">
          <span className="tool-name">⚙ {str(b.name)}</span> <span className="dim">{str(b.id)}</span>
          <CollapsibleText text={stringifyJson(b.input ?? null, 2)} render={(t) => <pre className="json">{t}</pre>} />
        </div>
      );
    case 'tool_result':
      return (
        <div className={`block-tool-result${b.is_error ? ' is-error' : ''}`}>
          <span className="dim">
            result for {str(b.tool_use_id)}
            {b.is_error ? ' · error' : ''}
            {typeof b.digest === 'string' ? ' · has digest' : ''}
          </span>
          <CollapsibleText text={str(b.content)} render={(t) => <AnsiText text={t} />} />
        </div>
      );
    case 'image':
      return (
        <div className="block-image">
          [image {str(b.media_type)} · {str(b.bytes)} bytes · sha256 {str(b.sha256).slice(0, 12)}…]
        </div>
      );
    default:
      return <CollapsibleText text={stringifyJson(b, 2)} render={(t) => <pre className="json">{t}</pre>} />;
  }
}
