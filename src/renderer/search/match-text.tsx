import type { ReactNode } from 'react';

/** Characters kept before the first match: the snippet is clipped so the match is in view. */
const LEAD = 24;

/**
 * A snippet with its matches in <mark>: text nodes only (ledger text is never HTML). The
 * text before the first match is clipped to a short lead, so a narrow column still shows it.
 */
export function MatchText({ text, matches }: { text: string; matches: readonly [number, number][] }) {
  const firstAt = matches.length > 0 ? matches[0][0] : 0;
  const from = firstAt > LEAD ? text.lastIndexOf(' ', firstAt - LEAD) + 1 || firstAt - LEAD : 0;
  const parts: ReactNode[] = [];
  if (from > 0) parts.push('…');
  let at = from;
  for (const [start, end] of matches) {
    if (start < at || end > text.length || end <= start) continue; // overlapping or out of range: skip
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <span className="match-text">{parts}</span>;
}
