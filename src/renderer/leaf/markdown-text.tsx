import ReactMarkdown, { type Components } from 'react-markdown';

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

/** A text block as markdown, raw HTML skipped (ledger content is untrusted). */
export function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown skipHtml components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
