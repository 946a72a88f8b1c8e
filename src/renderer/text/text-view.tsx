import { createContext, useCallback, useSyncExternalStore } from 'react';

/**
 * How a pane draws message text: `verbatim` (the default) shows every character the model got,
 * as characters; `rendered` draws text blocks as markdown and tool output with its colours, a
 * view a user switches on.
 */
export type TextView = 'verbatim' | 'rendered';

/** The pane a choice is remembered for. */
export type TextViewPane = 'projected' | 'history';

/** The view of the pane a block is drawn in. */
export const TextViewContext = createContext<TextView>('verbatim');

const keyOf = (pane: TextViewPane) => `vak-explorer.text-view.${pane}.v1`;
const listeners = new Set<() => void>();
// The choice made in this page, in case the storage refused it.
const memory = new Map<TextViewPane, TextView>();

/** localStorage when there is one that works (a sandboxed page may throw on access). */
function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function read(pane: TextViewPane): TextView {
  try {
    return storage()?.getItem(keyOf(pane)) === 'rendered' ? 'rendered' : 'verbatim';
  } catch {
    return 'verbatim';
  }
}

/** Sets a pane's view and remembers it (every pane of that kind follows). */
export function setTextView(pane: TextViewPane, view: TextView): void {
  try {
    storage()?.setItem(keyOf(pane), view);
  } catch {
    // A full or refused storage only loses the memory of the choice: this page keeps it in `memory`.
  }
  memory.set(pane, view);
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The pane's remembered view and a toggle between verbatim and rendered. */
export function useTextView(pane: TextViewPane): [TextView, () => void] {
  const view = useSyncExternalStore(subscribe, () => memory.get(pane) ?? read(pane));
  const toggle = useCallback(() => setTextView(pane, view === 'verbatim' ? 'rendered' : 'verbatim'), [pane, view]);
  return [view, toggle];
}

/** The pane-head button that switches the rendered view on and off. */
export function TextViewToggle({ view, onToggle }: { view: TextView; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="text-view-toggle"
      aria-pressed={view === 'rendered'}
      onClick={onToggle}
      title={
        view === 'rendered'
          ? 'Showing text as markdown and tool output in colour: click for the text exactly as the model got it'
          : 'Showing the text exactly as the model got it: click to draw markdown and tool output colours'
      }
    >
      markdown
    </button>
  );
}
