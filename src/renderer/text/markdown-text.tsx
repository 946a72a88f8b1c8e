import { type ReactElement, useMemo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { Lru } from '../../shared/lru';
import { COLLAPSE_AT } from './collapsible-text';

/** Links are never followed from ledger text: shown as text with the address in a tooltip. */
const components: Components = {
  a: ({ children, href }) => (
    <span className="md-link" title={href ?? undefined}>
      {children}
    </span>
  ),
  img: ({ alt, src }) => (
    <span className="md-image" title={typeof src === 'string' ? src : undefined}>
      [image: {alt ?? ''}]
    </span>
  ),
};

/**
 * Parsed markdown by text (the 500 last used, each of at most COLLAPSE_AT characters: what a
 * clipped block shows; a text shown whole is parsed each time). Neighbouring leaves share most
 * of their messages, and a list draws a row again as it scrolls or as its page arrives: parsing
 * each time took a few ms a message, in the task that draws a new view. A parse is pure
 * (react-markdown's `Markdown` with no hooks), so its elements can be drawn again anywhere.
 */
const kept = new Lru<string, ReactElement>(500);

function parsed(text: string): ReactElement {
  const have = kept.get(text);
  if (have) return have;
  const el = Markdown({ children: text, components }) as ReactElement;
  if (text.length <= COLLAPSE_AT) kept.set(text, el);
  return el;
}

/**
 * A text block as markdown: the view a user switches on. Raw HTML in the text (`<rules>`, `a<b`)
 * is drawn as the text it is, never left out and never live DOM (react-markdown turns raw nodes
 * into text when no plugin parses them); links and images stay text (see `components`).
 */
export function MarkdownText({ text }: { text: string }) {
  const el = useMemo(() => parsed(text), [text]);
  return <div className="markdown">{el}</div>;
}
