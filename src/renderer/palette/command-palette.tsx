import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useApi } from '../api/api-context';
import type { ActionPrompt } from '../actions/action';
import type { RegisteredAction } from '../actions/registry';
import { keyChord, keysLabel } from '../keyboard/key-map';
import { openHit } from '../search/open-hit';
import type { SearchSnapshot } from '../search/search-run';
import { useAppStore } from '../store/app-store';
import { fmtInt, formatBytes } from '../util/format';
import { actionEntries, entryEntries, rankEntries, sessionEntries, type PaletteEntry } from './palette-entries';
import { useIdLookup } from './use-id-lookup';
import './palette.css';

/** The title with its matched characters in <b> (text nodes only). */
function Marked({ text, marks }: { text: string; marks: readonly number[] }) {
  if (marks.length === 0) return <>{text}</>;
  const set = new Set(marks);
  const out: ReactNode[] = [];
  let run = '';
  let inMark = false;
  const flush = (k: number) => {
    if (run) out.push(inMark ? <b key={k}>{run}</b> : run);
    run = '';
  };
  for (let i = 0; i < text.length; i++) {
    if (set.has(i) !== inMark) {
      flush(i);
      inMark = !inMark;
    }
    run += text[i];
  }
  flush(text.length);
  return <>{out}</>;
}

const optionId = (k: number): string => `palette-option-${k}`;

/** Bytes are worth saying only when files are big enough for a lookup to take a while. */
const BIG = 64 << 20;

/** How far a lookup by id has searched: files (and bytes, when big) of the total, until it finds the entry. */
function IdLookupStatus({ snap, onStop }: { snap: SearchSnapshot; onStop: () => void }) {
  const total = `${fmtInt(snap.filesTotal)} ${snap.filesTotal === 1 ? 'file' : 'files'}`;
  const files = snap.filesTotal === 0 ? '' : ` · ${fmtInt(snap.filesScanned)} of ${total} searched`;
  const bytes = snap.totalBytes >= BIG ? ` · ${formatBytes(snap.scannedBytes)} of ${formatBytes(snap.totalBytes)}` : '';
  if (snap.status === 'running' && snap.hits === 0) {
    return (
      <p className="palette-status" role="status">
        <progress value={snap.scannedBytes} max={Math.max(1, snap.totalBytes)} aria-label="Entry lookup progress" />
        looking for the entry{files}
        {bytes}{' '}
        <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={onStop}>
          stop
        </button>
      </p>
    );
  }
  if (snap.status === 'done' && snap.hits === 0) {
    return (
      <p className="palette-status" role="status">
        No entry with this id in {total}.
      </p>
    );
  }
  if (snap.status === 'cancelled' && snap.hits === 0) {
    return (
      <p className="palette-status" role="status">
        stopped{files}
        {bytes}
      </p>
    );
  }
  if (snap.status === 'error') {
    return (
      <p className="palette-status palette-error" role="alert">
        Looking for the entry failed: {snap.error}
      </p>
    );
  }
  return null;
}

/**
 * The command palette (Ctrl/⌘+K): every action of the registry, the sessions by title and
 * entries by id, fuzzy-matched. ↑/↓ move, Enter runs, Esc closes; the focus goes back
 * where it was. An action with a prompt (a profile field) asks for its value in place.
 */
export function CommandPalette() {
  const api = useApi();
  const close = useAppStore((s) => s.togglePalette);
  const sessions = useAppStore((s) => s.sessions);
  const session = useAppStore((s) => s.sessionKey);
  // Recomputed when the palette opens and as the state that enables actions changes.
  const state = useAppStore((s) => s);
  const [query, setQuery] = useState('');
  // The cursor belongs to the list it was moved in: new text or new id matches start at the top.
  const [cursor, setCursor] = useState<{ list: string; n: number }>({ list: '', n: 0 });
  const [prompt, setPrompt] = useState<{ action: RegisteredAction; spec: ActionPrompt; value: string } | null>(null);
  const [promptError, setPromptError] = useState<string | null>(null);
  const [before] = useState<Element | null>(() => document.activeElement);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const idLookup = useIdLookup(api, prompt ? '' : query, session);
  const byIdGroups = idLookup.groups;
  const actions = useMemo(() => actionEntries(state), [state]);
  const userHome = useAppStore((s) => s.home?.userHome);
  const sessionList = useMemo(() => sessionEntries(sessions, userHome), [sessions, userHome]);
  const byId = useMemo(() => byIdGroups.flatMap((g) => entryEntries(g.key, g.hits)), [byIdGroups]);
  const ranked = useMemo(() => rankEntries(query, actions, sessionList, byId), [query, actions, sessionList, byId]);

  const listKey = `${query}\n${byId.length}`;
  const active = cursor.list === listKey ? cursor.n : 0;
  const setActive = (n: number | ((a: number) => number)) =>
    setCursor({ list: listKey, n: typeof n === 'function' ? n(active) : n });
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [prompt]);
  useEffect(() => {
    list.current?.querySelector(`#${optionId(active)}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);
  // Closed from outside (Esc through the app, the key again): the focus still goes back.
  useEffect(
    () => () => {
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && before instanceof HTMLElement && before.isConnected) before.focus();
    },
    [before],
  );

  /** Closes, gives the focus back, then runs what was chosen (which may move the focus on). */
  const finish = (then?: () => void) => {
    if (before instanceof HTMLElement && before.isConnected) before.focus();
    close(false);
    then?.();
  };

  const choose = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    const s = useAppStore.getState();
    switch (entry.type) {
      case 'action': {
        if (!entry.enabled) return;
        const { action } = entry;
        if (action.prompt) {
          setPrompt({ action, spec: action.prompt, value: action.prompt.initial(s) });
          setPromptError(null);
          return;
        }
        finish(() => void action.run({ api, state: useAppStore.getState() }));
        return;
      }
      case 'session':
        finish(() => s.selectSession(entry.key));
        return;
      case 'entry':
        finish(() => void openHit(api, entry.key, entry.entryId));
        return;
    }
  };

  const submitPrompt = () => {
    if (!prompt) return;
    const problem = prompt.spec.check(prompt.value, useAppStore.getState());
    if (problem) {
      setPromptError(problem);
      return;
    }
    const { action, value } = prompt;
    finish(() => void action.run({ api, state: useAppStore.getState(), input: value }));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const chord = keyChord(e.nativeEvent);
    const stop = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (chord === 'Escape') {
      stop();
      if (prompt) setPrompt(null);
      else finish();
    } else if (chord === 'Mod+K') {
      stop();
      finish();
    } else if (prompt) {
      if (chord === 'Enter') {
        stop();
        submitPrompt();
      }
    } else if (chord === 'ArrowDown' || chord === 'ArrowUp') {
      stop();
      const n = ranked.length;
      if (n > 0) setActive((a) => (a + (chord === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (chord === 'PageDown' || chord === 'PageUp') {
      stop();
      setActive((a) => Math.max(0, Math.min(ranked.length - 1, a + (chord === 'PageDown' ? 8 : -8))));
    } else if (chord === 'Enter') {
      stop();
      choose(ranked[active]?.entry);
    }
  };

  return (
    <div className="overlay palette-overlay" onMouseDown={() => finish()}>
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        onMouseDown={(e) => e.stopPropagation()}
      >
        {prompt ? (
          <label className="palette-prompt-label" htmlFor="palette-input">
            {prompt.spec.label} <span className="palette-hint">Enter sets it · Esc goes back</span>
          </label>
        ) : null}
        <input
          ref={input}
          id="palette-input"
          className="palette-input"
          type="text"
          role="combobox"
          aria-expanded={!prompt}
          aria-controls="palette-list"
          aria-activedescendant={!prompt && ranked.length > 0 ? optionId(active) : undefined}
          aria-label={prompt ? prompt.spec.label : 'Command'}
          aria-invalid={promptError !== null}
          placeholder={prompt ? '' : 'Type a command, a session title, or an entry id…'}
          autoComplete="off"
          spellCheck={false}
          value={prompt ? prompt.value : query}
          onChange={(e) => {
            if (prompt) {
              setPrompt({ ...prompt, value: e.target.value });
              setPromptError(null);
            } else setQuery(e.target.value);
          }}
          onKeyDown={onKeyDown}
        />
        {!prompt && idLookup.progress && <IdLookupStatus snap={idLookup.progress} onStop={idLookup.stop} />}
        {prompt ? (
          promptError && (
            <p className="palette-error" role="alert">
              {promptError}
            </p>
          )
        ) : (
          <ul ref={list} id="palette-list" className="palette-list" role="listbox" aria-label="Commands">
            {ranked.map(({ entry, marks }, k) => (
              <li
                key={entry.id}
                id={optionId(k)}
                role="option"
                aria-selected={k === active}
                aria-disabled={entry.type === 'action' && !entry.enabled ? true : undefined}
                className={`palette-item palette-${entry.type}${k === active ? ' active' : ''}`}
                data-palette-id={entry.id}
                onMouseMove={() => setActive(k)}
                onClick={() => choose(entry)}
              >
                <span className="palette-title">
                  <Marked text={entry.title} marks={marks} />
                </span>
                <span className="palette-detail">{entry.detail}</span>
                {entry.type === 'action' && entry.action.keys && entry.action.keys.length > 0 && (
                  <kbd className="palette-keys">{keysLabel(entry.action.keys)}</kbd>
                )}
              </li>
            ))}
            {ranked.length === 0 && <li className="palette-empty">Nothing matches “{query.trim()}”.</li>}
          </ul>
        )}
      </div>
    </div>
  );
}
