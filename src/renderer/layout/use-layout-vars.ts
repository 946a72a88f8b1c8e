import { useEffect } from 'react';
import { useAppStore } from '../store/app-store';

/** The narrowest the projected pane may get; compare stacks its sides when narrow (layout.css), so it needs little more. */
export const RIGHT_MIN = { projected: 300, compare: 320 } as const;
/** The width the right pane asks for before the tree gives way: compare wants room for its table. */
export const RIGHT_WANT = { projected: 300, compare: 520 } as const;

/**
 * Publishes the pane widths as CSS variables on the root element (layout.css sizes the tree,
 * History and the right-hand pane from them). Compare takes only the projected pane's place:
 * History keeps its width, and when the window is too narrow the panes scroll sideways.
 */
export function useLayoutVars(root: HTMLElement = document.documentElement): void {
  const tree = useAppStore((s) => s.paneWidths.tree);
  const history = useAppStore((s) => s.paneWidths.history);
  const comparing = useAppStore((s) => s.compare.open);
  useEffect(() => {
    root.style.setProperty('--tree-w', `${tree}px`);
    root.style.setProperty('--history-w', `${history}px`);
    root.style.setProperty('--right-min', `${comparing ? RIGHT_MIN.compare : RIGHT_MIN.projected}px`);
    root.style.setProperty('--right-want', `${comparing ? RIGHT_WANT.compare : RIGHT_WANT.projected}px`);
  }, [root, tree, history, comparing]);
}
