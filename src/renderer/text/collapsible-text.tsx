import { useState, type ReactNode } from 'react';
import { fmtInt } from '../util/format';

/** Past this many characters a value is shown clipped with "show all". */
export const COLLAPSE_AT = 2000;

/** Renders `text` clipped when long; `render` draws whichever part is shown. */
export function CollapsibleText({ text, render }: { text: string; render: (t: string) => ReactNode }) {
  const [all, setAll] = useState(false);
  if (text.length <= COLLAPSE_AT || all) return <>{render(text)}</>;
  return (
    <>
      {render(text.slice(0, COLLAPSE_AT))}
      <button type="button" className="show-all" onClick={() => setAll(true)}>
        show all ({fmtInt(text.length)} chars)
      </button>
    </>
  );
}
