import { useMemo, useState } from 'react';
import type { Json } from '../../shared/ledger-types';
import { COLLAPSE_AT } from './collapsible-text';
import { blockText, ContentBlock } from './content-block';
import { fmtInt } from '../util/format';

interface Props {
  content: readonly Json[];
  /**
   * Set when the message came clipped for transport: asks for the whole message (which then
   * arrives as a new `content`).
   */
  fetchRest?: () => void;
}

/**
 * The blocks of one message, long texts clipped to their first COLLAPSE_AT characters with one
 * "show all" for the whole message: the same button shows every block whole and, for a message
 * clipped for transport, fetches the rest.
 */
export function MessageBlocks({ content, fetchRest }: Props) {
  const [all, setAll] = useState(false);
  const texts = useMemo(() => content.map(blockText), [content]);
  const long = texts.some((t) => t !== null && t.length > COLLAPSE_AT);
  const shown = all || !long;
  const total = texts.reduce((n, t) => n + (t?.length ?? 0), 0);
  return (
    <>
      {content.map((b, i) => {
        const t = texts[i];
        const clip = !shown && t !== null && t.length > COLLAPSE_AT;
        return (
          <ContentBlock
            key={i}
            block={b}
            text={clip ? t.slice(0, COLLAPSE_AT) : t}
            hidden={clip ? t.length - COLLAPSE_AT : 0}
            atLeast={fetchRest !== undefined}
          />
        );
      })}
      {(!shown || (fetchRest && !all)) && (
        <button
          type="button"
          className="show-all"
          onClick={() => {
            setAll(true);
            fetchRest?.();
          }}
        >
          {fetchRest ? 'show all (clipped for transport)' : `show all (${fmtInt(total)} chars)`}
        </button>
      )}
    </>
  );
}
