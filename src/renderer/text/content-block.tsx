import { useContext } from 'react';
import { stringifyJson } from '../../shared/json-text';
import type { Json } from '../../shared/ledger-types';
import { AnsiText } from './ansi-text';
import { MarkdownText } from './markdown-on-demand';
import { TextViewContext } from './text-view';
import { VerbatimText } from './verbatim-text';
import { fmtInt } from '../util/format';

type Block = { [k: string]: Json };

const isBlock = (b: Json): b is Block => typeof b === 'object' && b !== null && !Array.isArray(b);

// Values are drawn as text, never as nested elements, and serialized without recursion
// (stringifyJson): a value of any depth shows.
const asText = (v: Json | undefined): string =>
  typeof v === 'string' ? v : v === undefined ? '' : stringifyJson(v, 2);

/**
 * The text a block shows, as the model got it: a text's or thinking's text, a tool call's input
 * and a value of any other shape as JSON text, a tool result's content; null for an image (its
 * line says what it is).
 */
export function blockText(block: Json): string | null {
  if (!isBlock(block)) return stringifyJson(block, 2);
  switch (block.type) {
    case 'text':
    case 'thinking':
      return asText(block.text);
    case 'tool_use':
      return asText(block.input ?? null);
    case 'tool_result':
      return asText(block.content);
    case 'image':
      return null;
    default:
      return stringifyJson(block, 2);
  }
}

interface Props {
  block: Json;
  /** `blockText(block)`, whole or its first part (see `hidden`). */
  text: string | null;
  /** How many characters of the text are not shown (0: all of it is). */
  hidden: number;
  /** The message was clipped for transport: more than `hidden` characters are left out. */
  atLeast?: boolean;
}

/** One content block of a message, drawn by its type; the text verbatim unless the pane's view is rendered. */
export function ContentBlock({ block, text, hidden, atLeast = false }: Props) {
  const view = useContext(TextViewContext);
  const body = text ?? '';
  const note =
    hidden > 0 ? (
      <div className="clip-note">
        … {atLeast ? 'at least ' : ''}
        {fmtInt(hidden)} more characters
      </div>
    ) : null;
  if (!isBlock(block))
    return (
      <div className="block block-raw">
        <VerbatimText text={body} />
        {note}
      </div>
    );
  switch (block.type) {
    case 'text':
      return (
        <div className="block block-text">
          {view === 'rendered' ? <MarkdownText text={body} /> : <VerbatimText text={body} />}
          {note}
        </div>
      );
    case 'thinking':
      return (
        <details className="block block-thinking">
          <summary>thinking ({fmtInt(asText(block.text).length)} chars)</summary>
          <VerbatimText text={body} />
          {note}
        </details>
      );
    case 'tool_use':
      return (
        <div className="block block-tool-use">
          <span className="tool-name">⚙ {asText(block.name)}</span> <span className="dim">{asText(block.id)}</span>
          <VerbatimText text={body} className="json" />
          {note}
        </div>
      );
    case 'tool_result':
      return (
        <div className={`block block-tool-result${block.is_error ? ' is-error' : ''}`}>
          <span className="dim">
            result for {asText(block.tool_use_id)}
            {block.is_error ? ' · error' : ''}
            {typeof block.digest === 'string' ? ' · has digest' : ''}
          </span>
          {view === 'rendered' ? <AnsiText text={body} /> : <VerbatimText text={body} />}
          {note}
        </div>
      );
    case 'image':
      return (
        <div className="block block-image">
          [image {asText(block.media_type)} · {asText(block.bytes)} bytes · sha256 {asText(block.sha256).slice(0, 12)}…]
        </div>
      );
    default:
      return (
        <div className="block block-other">
          <VerbatimText text={body} className="json" />
          {note}
        </div>
      );
  }
}
