import { useEffect } from 'react';
import type { Api } from '../../shared/api';
import { actionForKey } from '../actions/registry';
import { useAppStore } from '../store/app-store';
import { navigate, type NavCommand } from '../tree/tree-nav';

const NAV: Record<string, NavCommand> = {
  j: 'down',
  ArrowDown: 'down',
  k: 'up',
  ArrowUp: 'up',
  h: 'parent',
  ArrowLeft: 'parent',
  l: 'child',
  ArrowRight: 'child',
  '[': 'prevSibling',
  ']': 'nextSibling',
  Home: 'root',
  End: 'active',
};

const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color']);

/** Focus is in a field that takes text (checkboxes and radios leave the keys to the app). */
const typing = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement &&
  (t.isContentEditable ||
    t.tagName === 'TEXTAREA' ||
    t.tagName === 'SELECT' ||
    (t instanceof HTMLInputElement && !NOT_TEXT.has(t.type)));

/** The explorer's global keys (see key-map.ts); ignored while typing in a field. */
export function useKeyboard(api: Api): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const s = useAppStore.getState();
      if (e.key === 'Escape') {
        s.escape();
        return;
      }
      if (typing(e.target)) return;
      // Arrow keys keep their meaning inside lists and buttons other than the tree.
      const inTree = e.target instanceof HTMLElement && !!e.target.closest('.tree-scroll');
      const bare = e.target === document.body || e.target === document.documentElement || e.target === null;
      const nav = NAV[e.key];
      if (nav) {
        if (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End') {
          if (!inTree && !bare) return;
        }
        e.preventDefault();
        void navigate(api, nav);
        return;
      }
      // Keys bound in the action registry (the palette lists the same actions).
      const action = actionForKey(e.key);
      if (action) {
        if (action.enabled?.(s) ?? true) {
          e.preventDefault();
          void action.run({ api, state: s });
        }
        return;
      }
      switch (e.key) {
        case '/':
          e.preventDefault();
          document.getElementById('library-filter')?.focus();
          break;
        case '?':
          s.togglePanel('keys');
          break;
        case 'b': {
          const id = s.leafView?.leaf ?? null;
          if (id) {
            e.preventDefault();
            s.openComposer(id);
          }
          break;
        }
        case 'c':
          s.toggleCompare();
          break;
        case 'd':
          if (s.compare.open) s.toggleDiff();
          break;
        case 'f':
          s.toggleFollow();
          break;
        case 'p':
          s.setPlan(s.plan === 'auto' ? 'none' : 'auto');
          break;
        case 'a':
          s.toggleFoldAudit();
          break;
        case 'w':
          s.togglePanel('warnings');
          break;
        case 'u':
          s.togglePanel('usage');
          break;
        case 't':
          s.togglePanel('plan');
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [api]);
}
