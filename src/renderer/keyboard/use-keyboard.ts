import { useEffect } from 'react';
import type { Api } from '../../shared/api';
import { actionForKey } from '../actions/registry';
import { useAppStore } from '../store/app-store';
import { isModChord, keyChord } from './key-map';
import { focusRegion } from './regions';
import { startRovingLists } from './roving';

const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color']);

/** Focus is in a field that takes text (checkboxes and radios leave the keys to the app). */
const typing = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement &&
  (t.isContentEditable ||
    t.tagName === 'TEXTAREA' ||
    t.tagName === 'SELECT' ||
    (t instanceof HTMLInputElement && !NOT_TEXT.has(t.type)));

/** Keys that also move inside lists and buttons: they drive the tree only from the tree or nowhere. */
const LIST_KEYS = new Set(['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageDown', 'PageUp']);

/**
 * The explorer's global keys, dispatched from the action registry (actions/registry.ts).
 * While typing in a field only Esc and Ctrl/⌘ chords reach the app; a modal overlay (the
 * palette) keeps its own keys.
 */
export function useKeyboard(api: Api): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      // F6 / Shift+F6 move between the regions from anywhere, a field included (as in a desktop app).
      if (e.key === 'F6' && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        focusRegion(e.shiftKey ? -1 : 1);
        return;
      }
      const chord = keyChord(e);
      if (chord === null) return;
      const always = chord === 'Escape' || isModChord(chord);
      if (!always && typing(e.target)) return;
      if (LIST_KEYS.has(chord)) {
        const inTree = e.target instanceof HTMLElement && !!e.target.closest('.tree-scroll');
        const bare = e.target === document.body || e.target === document.documentElement || e.target === null;
        if (!inTree && !bare) return;
      }
      const action = actionForKey(chord);
      if (!action) return;
      const state = useAppStore.getState();
      if (action.enabled && !action.enabled(state)) return;
      e.preventDefault();
      void action.run({ api, state });
    };
    window.addEventListener('keydown', onKey);
    // Each long list is one tab stop, its arrows move within it (roving.ts).
    const stopRoving = startRovingLists(document.querySelector<HTMLElement>('.app') ?? document.body);
    return () => {
      window.removeEventListener('keydown', onKey);
      stopRoving();
    };
  }, [api]);
}
