/**
 * Roving tabindex over the app's long lists: a list is one tab stop (the control last focused in
 * it, else the first one on screen) and the arrow keys move within it. Without it, Tab walked
 * through every button of every History row and projected message (over a hundred stops before
 * the projected pane). Lists are found by selector, since their rows come and go as they scroll.
 */
import { whenIdle } from '../util/after-paint';

/** Lists whose controls are one tab stop between them. */
export const ROVING_LISTS = [
  '.library-tree',
  '.chips',
  '.history-pane .pane-scroll',
  '.projected-pane .pane-scroll',
  '.leaf-head .export-menu',
] as const;

/** A settle waits for an idle period at most this long (a page kept busy still gets its tab stops). */
const SETTLE_CAP_MS = 1000;

const CONTROL = 'button, a[href], input, select, textarea, summary, [tabindex]';

/** Fields keep their own arrow keys (a caret moves in them). */
const TEXT_FIELD = 'input:not([type=checkbox]):not([type=radio]):not([type=button]), textarea, select';

/** The controls of a list that focus can land on, in document order. */
export function listControls(list: Element): HTMLElement[] {
  return [...list.querySelectorAll<HTMLElement>(CONTROL)].filter(
    (el) => !(el as HTMLButtonElement).disabled && !el.closest('[hidden], [inert]') && el.getClientRects().length > 0,
  );
}

/** The first control inside the list's visible box (a scrolled list's first rows are above it). */
function firstOnScreen(list: Element, controls: HTMLElement[]): HTMLElement | undefined {
  const box = list.getBoundingClientRect();
  return controls.find((c) => {
    const r = c.getBoundingClientRect();
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  });
}

/**
 * Keeps each list under `root` at one tab stop, and moves focus within a list on the arrow keys,
 * Home and End. Returns the function that stops it.
 */
export function startRovingLists(root: HTMLElement, selectors: readonly string[] = ROVING_LISTS): () => void {
  const current = new WeakMap<Element, HTMLElement>();
  const selector = selectors.join(', ');
  const listOf = (el: Element | null): Element | null => el?.closest(selector) ?? null;

  const settle = (list: Element) => {
    const controls = listControls(list);
    let stop = current.get(list);
    if (!stop || !stop.isConnected || !list.contains(stop)) stop = firstOnScreen(list, controls) ?? controls[0];
    for (const c of controls) {
      const want = c === stop ? '0' : '-1';
      if (c.getAttribute('tabindex') !== want) c.setAttribute('tabindex', want);
    }
  };
  const settleAll = () => root.querySelectorAll(selector).forEach(settle);

  // Rows mount and unmount as lists scroll: settle after any change, in the page's next idle
  // period. The settle reads the controls' boxes. Inside a frame's callback that forced the frame's
  // whole layout before new rows could show; in a task queued after the paint it still ran between
  // a session's answers (its shell drawn, its rows not yet) and laid out the shell's new DOM there.
  // Idle, the layout is the last paint's and the reads are cheap. A Tab pressed before then
  // settles at once, so the key always finds one stop per list.
  let pending: (() => void) | null = null;
  const settleNow = () => {
    pending = null;
    settleAll();
  };
  const schedule = () => {
    if (pending !== null) return;
    pending = whenIdle(settleNow, SETTLE_CAP_MS);
  };
  const observer = new MutationObserver(schedule);
  observer.observe(root, { childList: true, subtree: true });
  // A scrolled list's tab stop follows what is on screen unless the user chose one.
  root.addEventListener('scroll', schedule, { capture: true, passive: true });

  const onFocusIn = (e: FocusEvent) => {
    const t = e.target;
    if (!(t instanceof HTMLElement)) return;
    const list = listOf(t);
    if (!list || !t.matches(CONTROL)) return;
    current.set(list, t);
    settle(list);
  };

  // (on the document: a Tab pressed with nothing focused is the body's, outside the root)
  const onTab = (e: KeyboardEvent) => {
    if (e.key !== 'Tab' || pending === null) return;
    pending();
    settleNow();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (!(t instanceof HTMLElement) || t.matches(TEXT_FIELD)) return;
    const list = listOf(t);
    if (!list) return;
    const controls = listControls(list);
    const at = controls.indexOf(t);
    if (at < 0) return;
    let next: number;
    if (e.key === 'ArrowDown' || e.key === 'ArrowRight') next = Math.min(controls.length - 1, at + 1);
    else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') next = Math.max(0, at - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = controls.length - 1;
    else return;
    e.preventDefault();
    const el = controls[next];
    el.focus();
    el.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  };

  root.addEventListener('focusin', onFocusIn);
  root.addEventListener('keydown', onKeyDown);
  root.ownerDocument.addEventListener('keydown', onTab, { capture: true });
  settleAll();
  return () => {
    observer.disconnect();
    pending?.();
    root.removeEventListener('scroll', schedule, { capture: true });
    root.removeEventListener('focusin', onFocusIn);
    root.removeEventListener('keydown', onKeyDown);
    root.ownerDocument.removeEventListener('keydown', onTab, { capture: true });
  };
}
