import { useLayoutEffect, useRef, useState } from 'react';
import { useApi } from '../api/api-context';
import { describeError, errorParts } from '../api/api-methods';
import { submissionAnswered, submissionKey } from '../api/branch-submission';
import { useAppStore } from '../store/app-store';
import { draftKey } from '../util/draft-key';
import { jumpToEntry } from './tree-nav';

interface Props {
  parentId: string;
  top: number;
}

/**
 * What the composer says when the append failed. A held lock gets one sentence of its own: the
 * backend's message says the same thing again, so it is not appended to it.
 */
function refusalText(e: unknown): string {
  if (errorParts(e).code === 'locked')
    return 'An agent holds the lock on this session (it is running): nothing was written. Try again when it stops.';
  return describeError(e);
}

/** Writes one directive under an entry (§7, the explorer's only write). Enter sends, Shift+Enter breaks the line, Esc cancels. */
export function BranchComposer({ parentId, top }: Props) {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  // Unsent text is kept in the store: Esc or a click elsewhere closes the composer, not the text.
  const text = useAppStore((s) => s.drafts[draftKey(key, parentId)] ?? '');
  const setDraft = useAppStore((s) => s.setDraft);
  const closeComposer = useAppStore((s) => s.closeComposer);
  const branched = useAppStore((s) => s.branched);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // The form opens under its row, which may be near the tree's bottom edge: the tree scrolls so
  // the whole form, and any refusal it shows, is in view (never under the plan bar, never cut off).
  useLayoutEffect(() => {
    box.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [error, busy]);

  const send = async () => {
    if (!key || busy) return;
    if (!text.trim()) {
      setError('Write something first: an empty branch is refused.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Sending the same text again after a lost reply reuses its key: the backend appends it at most once.
      const r = await api.branch({ key, parentId, text, idempotencyKey: submissionKey(key, parentId, text) });
      submissionAnswered(key, parentId);
      // The live session event refreshes the tree; the new entry is selected now so the panes follow.
      branched(parentId, r.id);
      // The live event may have come before this reply (and found nothing pending): the backend
      // knows the new row already, so put the cursor on it now; a later event only repeats this.
      await jumpToEntry(api, r.id);
    } catch (e) {
      setError(refusalText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div ref={box} className="branch-composer" style={{ top }} role="group" aria-label={`Branch from ${parentId}`}>
      <label className="composer-label" htmlFor="branch-text">
        New directive under <code>{parentId}</code> — Enter appends, Shift+Enter new line, Esc cancels
      </label>
      <textarea
        id="branch-text"
        autoFocus
        rows={3}
        value={text}
        disabled={busy}
        onChange={(e) => setDraft(parentId, e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            closeComposer();
          }
        }}
      />
      <div className="composer-actions">
        <button type="button" onClick={() => void send()} disabled={busy}>
          {busy ? 'Appending…' : 'Append branch'}
        </button>
        <button type="button" onClick={closeComposer}>
          Cancel
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
