// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRovingLists } from './roving';

/** Frame callbacks held until the test runs them: the frame's paint comes after them. */
let frames: FrameRequestCallback[] = [];

beforeEach(() => {
  frames = [];
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => undefined);
  // jsdom lays nothing out: every control has a box.
  vi.spyOn(HTMLElement.prototype, 'getClientRects').mockImplementation(
    () => ({ length: 1, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList,
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

function runFrame(): void {
  const due = frames;
  frames = [];
  for (const cb of due) cb(performance.now());
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

const aTask = () => new Promise<void>((resolve) => setTimeout(resolve));

describe('roving tab stops', () => {
  it('settles rows added to a list after the frame that shows them, not inside its callback', async () => {
    const root = rootWithList('a');
    const stop = startRovingLists(root);
    const list = root.querySelector('.library-tree')!;
    expect(list.querySelector('button')!.getAttribute('tabindex')).toBe('0');

    const b = document.createElement('button');
    b.textContent = 'b';
    list.append(b);
    await Promise.resolve(); // the mutation observer's record
    expect(frames).toHaveLength(1);
    const reads = vi.mocked(HTMLElement.prototype.getClientRects);
    reads.mockClear();
    runFrame();
    // Nothing of the layout is read in the frame's callback: its layout is the paint's.
    expect(reads).not.toHaveBeenCalled();
    expect(b.hasAttribute('tabindex')).toBe(false);
    await aTask();
    expect(b.getAttribute('tabindex')).toBe('-1');
    expect(list.querySelector('button')!.getAttribute('tabindex')).toBe('0');
    stop();
  });

  it('a stop before the frame is painted settles nothing', async () => {
    const root = rootWithList();
    const stop = startRovingLists(root);
    const b = document.createElement('button');
    root.querySelector('.library-tree')!.append(b);
    await Promise.resolve();
    runFrame();
    stop();
    await aTask();
    expect(b.hasAttribute('tabindex')).toBe(false);
  });
});
