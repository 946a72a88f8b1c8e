import { useEffect, useState } from 'react';
import type { RawLine } from '../../shared/api';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';

/** The bytes of the physical line a warning points at, as text (React escapes it; nothing is parsed). */
export function RawLineView({ sessionKey, offset }: { sessionKey: string; offset: number }) {
  const api = useApi();
  const [line, setLine] = useState<RawLine | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.getLine({ key: sessionKey, offset }).then(
      (l) => live && setLine(l),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [api, sessionKey, offset]);
  if (error) return <p className="error">{error}</p>;
  if (!line) return <p className="dim">reading…</p>;
  const notes = [
    line.length === null ? 'clipped' : `${line.length} bytes`,
    line.validUtf8 ? null : 'invalid UTF-8 shown as �',
    line.terminated ? null : 'no \\n yet',
  ].filter((n) => n !== null);
  return (
    <figure className="raw-line">
      <pre aria-label={`Line at byte ${offset}`}>{line.text}</pre>
      <figcaption className="dim">{notes.join(' · ')}</figcaption>
    </figure>
  );
}
