// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRovingLists } from './roving';

/** Idle callbacks held until the test runs them (jsdom has none), with the options each was asked with. */
let idles: { cb: IdleRequestCallback; options?: IdleRequestOptions; cancelled: boolean }[] = [];

beforeEach(() => {
  idles = [];
  window.requestIdleCallback = (cb, options) => idles.push({ cb, options, cancelled: false });
  window.cancelIdleCallback = (id) => {
    if (idles[id - 1]) idles[id - 1].cancelled = true;
  };
  // jsdom lays nothing out: every control has a box.
  vi.spyOn(HTMLElement.prototype, 'getClientRects').mockImplementation(
    () => ({ length: 1, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList,
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
  delete (window as Partial<Window>).requestIdleCallback;
  delete (window as Partial<Window>).cancelIdleCallback;
});

function runIdle(): void {
  const due = idles.filter((i) => !i.cancelled);
  for (const i of due) i.cancelled = true;
  for (const i of due) i.cb({ didTimeout: false, timeRemaining: () => 10 });
}

/** A root holding one roving list (the tree's) with the given buttons. */
function rootWithList(...labels: string[]): HTMLElement {
  const root = document.createElement('div');
  const list = document.createElement('div');
  list.className = 'library-tree';
  for (const l of labels) {
    const b = document.createElement('button');
    b.textContent = l;
    list.append(b);
  }
  root.append(list);
  document.body.append(root);
  return root;
}

describe('roving tab stops', () => {
  it('settles rows added to a list in the next idle period, reading no box before it', async () => {
    const root = rootWithList('a');
    const stop = startRovingLists(root);
    const list = root.querySelector('.library-tree')!;
    expect(list.querySelector('button')!.getAttribute('tabindex')).toBe('0');

    const reads = vi.mocked(HTMLElement.prototype.getClientRects);
    reads.mockClear();
    const b = document.createElement('button');
    b.textContent = 'b';
    list.append(b);
    const c = document.createElement('button');
    list.append(c);
    await Promise.resolve(); // the mutation observer's record
    // One settle for both rows, in an idle period (capped, so a busy page still gets it).
    expect(idles).toHaveLength(1);
    expect(idles[0].options?.timeout).toBeGreaterThan(0);
    await new Promise<void>((resolve) => setTimeout(resolve));
    expect(reads).not.toHaveBeenCalled();
    expect(b.hasAttribute('tabindex')).toBe(false);
    runIdle();
    expect(b.getAttribute('tabindex')).toBe('-1');
    expect(c.getAttribute('tabindex')).toBe('-1');
    expect(list.querySelector('button')!.getAttribute('tabindex')).toBe('0');
    stop();
  });

  it('a Tab pressed before the idle period settles at once (from the body too)', async () => {
    const root = rootWithList('a');
    const stop = startRovingLists(root);
    const b = document.createElement('button');
    root.querySelector('.library-tree')!.append(b);
    await Promise.resolve();
    expect(idles).toHaveLength(1);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    expect(b.getAttribute('tabindex')).toBe('-1');
    expect(idles[0].cancelled).toBe(true);
    // Another key settles nothing more and queues nothing.
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'x', bubbles: true }));
    expect(idles).toHaveLength(1);
    stop();
  });

  it('a stop before the idle period settles nothing', async () => {
    const root = rootWithList();
    const stop = startRovingLists(root);
    const b = document.createElement('button');
    root.querySelector('.library-tree')!.append(b);
    await Promise.resolve();
    stop();
    expect(idles.every((i) => i.cancelled)).toBe(true);
    runIdle();
    expect(b.hasAttribute('tabindex')).toBe(false);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    expect(b.hasAttribute('tabindex')).toBe(false);
  });
});
