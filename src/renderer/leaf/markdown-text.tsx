import { type ReactElement, useMemo } from 'react';
import Markdown, { type Components } from 'react-markdown';

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

/** Texts whose parsed markdown is kept, and how many characters of text in all (bounds, whatever the session). */
const KEPT_TEXTS = 500;
const KEPT_CHARS = 1_000_000;

/**
 * Parsed markdown by text, the most recently used last. Neighbouring leaves share most of their
 * messages, and a list draws a row again as it scrolls or as its page arrives: parsing each
 * time took a few ms a message, in the task that draws a new view (issue 9). A parse is pure
 * (react-markdown's `Markdown` with no hooks), so its elements can be drawn again anywhere.
 */
const kept = new Map<string, ReactElement>();
let keptChars = 0;

function parsed(text: string): ReactElement {
  const have = kept.get(text);
  if (have) {
    kept.delete(text);
    kept.set(text, have);
    return have;
  }
  const el = Markdown({ children: text, skipHtml: true, components }) as ReactElement;
  kept.set(text, el);
  keptChars += text.length;
  for (const [t] of kept) {
    if (kept.size <= KEPT_TEXTS && keptChars <= KEPT_CHARS) break;
    kept.delete(t);
    keptChars -= t.length;
  }
  return el;
}

/** A text block as markdown, raw HTML skipped (ledger content is untrusted). */
export function MarkdownText({ text }: { text: string }) {
  const el = useMemo(() => parsed(text), [text]);
  return <div className="markdown">{el}</div>;
}
