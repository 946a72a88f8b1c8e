import { useState } from 'react';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';

/** Unsent directives by session and parent: Esc or a click elsewhere closes the composer, not the text. */
const drafts = new Map<string, string>();

interface Props {
  parentId: string;
  top: number;
}

/** Writes one directive under an entry (§7, the explorer's only write). Enter sends, Shift+Enter breaks the line, Esc cancels. */
export function BranchComposer({ parentId, top }: Props) {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  const set = useAppStore((s) => s.set);
  const draftKey = `${key ?? ''}\n${parentId}`;
  const [text, setTextState] = useState(() => drafts.get(draftKey) ?? '');
  const setText = (t: string): void => {
    setTextState(t);
    if (t) drafts.set(draftKey, t);
    else drafts.delete(draftKey);
  };
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    if (!key || busy) return;
    if (!text.trim()) {
      setError('Write something first: an empty branch is refused.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const r = await api.branch({ key, parentId, text });
      drafts.delete(draftKey);
      // The live session event refreshes the tree; select the new entry now so the panes follow.
      useAppStore.getState().selectLeaf(r.id);
      set({ composerFor: null, pendingSelect: r.id });
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="branch-composer" style={{ top }} role="group" aria-label={`Branch from ${parentId}`}>
      <label className="composer-label" htmlFor="branch-text">
        New directive under <code>{parentId}</code> — Enter appends, Shift+Enter new line, Esc cancels
      </label>
      <textarea
        id="branch-text"
        autoFocus
        rows={3}
        value={text}
        disabled={busy}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            set({ composerFor: null });
          }
        }}
      />
      <div className="composer-actions">
        <button type="button" onClick={() => void send()} disabled={busy}>
          {busy ? 'Appending…' : 'Append branch'}
        </button>
        <button type="button" onClick={() => set({ composerFor: null })}>
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
