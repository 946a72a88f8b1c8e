import { useMemo } from 'react';
import { parseAnsi } from '../util/ansi';

/** Terminal output with its SGR colours as spans; everything else is plain text. */
export function AnsiText({ text }: { text: string }) {
  const spans = useMemo(() => parseAnsi(text), [text]);
  return (
    <pre className="ansi">
      {spans.map((s, i) => {
        const cls = [s.fg !== null && `ansi-fg-${s.fg}`, s.bg !== null && `ansi-bg-${s.bg}`, s.bold && 'ansi-bold']
          .filter(Boolean)
          .join(' ');
        return cls ? (
          <span key={i} className={cls}>
            {s.text}
          </span>
        ) : (
          <span key={i}>{s.text}</span>
        );
      })}
    </pre>
  );
}
