import { type ReactNode, useMemo } from 'react';
import './verbatim.css';

/**
 * Characters that draw nothing, or move other text, where they stand: controls other than tab
 * and newline (a CR, an ANSI escape), zero-width and invisible formatting characters, and the
 * bidirectional controls that would reorder the text around them.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\0-\x08\x0b-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

const NAMES = new Map<number, string>([
  [0xad, 'SHY'],
  [0x61c, 'ALM'],
  [0x180e, 'MVS'],
  [0x200b, 'ZWSP'],
  [0x200c, 'ZWNJ'],
  [0x200d, 'ZWJ'],
  [0x200e, 'LRM'],
  [0x200f, 'RLM'],
  [0x2028, 'LS'],
  [0x2029, 'PS'],
  [0x202a, 'LRE'],
  [0x202b, 'RLE'],
  [0x202c, 'PDF'],
  [0x202d, 'LRO'],
  [0x202e, 'RLO'],
  [0x2060, 'WJ'],
  [0x2066, 'LRI'],
  [0x2067, 'RLI'],
  [0x2068, 'FSI'],
  [0x2069, 'PDI'],
  [0xfeff, 'BOM'],
]);

const hex = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** The C0 controls' names (tab and newline are drawn as themselves). */
const C0 =
  'NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US'.split(
    ' ',
  );

/**
 * What stands in for an invisible character: its name (ESC, CR, ZWSP, RLO) or code point. Names,
 * not the Control Pictures (␛): the monospace fonts at hand have no glyph for those.
 */
export function invisibleLabel(c: number): string {
  if (c < 0x20) return C0[c];
  if (c === 0x7f) return 'DEL';
  return NAMES.get(c) ?? hex(c);
}

function pieces(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(INVISIBLE)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const c = text.charCodeAt(m.index);
    // The character itself stays in the text (copies and textContent are exact); its label is
    // drawn by CSS from data-ctl, and it is isolated so that a bidi control moves nothing else.
    out.push(
      <span key={m.index} className="ctl" data-ctl={invisibleLabel(c)} title={hex(c)}>
        {m[0]}
      </span>,
    );
    at = m.index + 1;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/**
 * Text exactly as recorded: every character, whitespace as it is (`white-space: pre-wrap`), markup
 * as characters; invisible characters are kept and shown by a visible label beside nothing else.
 * The element's textContent is the text itself, character for character.
 */
export function VerbatimText({ text, className }: { text: string; className?: string }) {
  const children = useMemo(() => pieces(text), [text]);
  return <pre className={className ? `verbatim ${className}` : 'verbatim'}>{children}</pre>;
}
