import { useEffect, useState } from 'react';
import type { LedgerWarning } from '../../shared/ledger-types';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';
import { RawLineView } from './raw-line';

/** The reader's warnings for the open session, each with a jump to its entry and the line's raw bytes. */
export function WarningsPanel() {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  // Any live change, a reload or an append patched in from its delta, asks again.
  const treeVersion = useAppStore((s) => s.treeVersion + s.appendVersion);
  const [warnings, setWarnings] = useState<LedgerWarning[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<ReadonlySet<number>>(new Set());
  const toggle = (k: number): void =>
    setShown((cur) => {
      const next = new Set(cur);
      if (!next.delete(k)) next.add(k);
      return next;
    });
  useEffect(() => {
    if (!key) return;
    let live = true;
    api.getWarnings({ key }).then(
      (w) => live && setWarnings(w),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [api, key, treeVersion]);
  if (!key) return <p className="dim">No session open.</p>;
  if (error) return <p className="error">{error}</p>;
  if (!warnings) return <p className="dim">loading…</p>;
  if (warnings.length === 0) return <p className="dim">No warnings: every line read cleanly.</p>;
  return (
    <ul className="warnings-list" aria-label="Warnings">
      {warnings.map((w, i) => (
        <li key={i}>
          <span className="warn-code">{w.code}</span> line {w.line} · offset {w.offset} — {w.message}{' '}
          {w.id ? (
            <button type="button" onClick={() => void jumpToEntry(api, w.id!)}>
              jump to {w.id}
            </button>
          ) : (
            <span className="dim">(no entry: the line did not parse)</span>
          )}{' '}
          <button type="button" aria-expanded={shown.has(i)} onClick={() => toggle(i)}>
            {shown.has(i) ? 'hide line' : 'show line'}
          </button>
          {shown.has(i) && <RawLineView sessionKey={key} offset={w.offset} />}
        </li>
      ))}
    </ul>
  );
}
