// @vitest-environment jsdom
import { fireEvent, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderSession, treeRow } from '../test-support/render-backend';
import { stubScrolling } from '../test-support/scroll-stub';

/** The scroll margin each render of a projected list passed to its rows (the History's are not recorded). */
const margins = vi.hoisted(() => [] as number[]);
vi.mock('./pane-rows', async (importOriginal) => {
  const m = await importOriginal<typeof import('./pane-rows')>();
  return {
    ...m,
    usePaneRows: (...args: Parameters<typeof m.usePaneRows>) => {
      if (args[0].scrollMargin !== undefined) margins.push(args[0].scrollMargin);
      return m.usePaneRows(...args);
    },
  };
});

/** The height above the projected list (system prompt, tools): jsdom lays nothing out. */
const ABOVE = 300;

describe('the projected list of a new view', () => {
  let unstub: () => void;
  const offsetTop = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetTop');
  beforeAll(() => {
    unstub = stubScrolling(28);
    Object.defineProperty(HTMLElement.prototype, 'offsetTop', {
      configurable: true,
      get(this: HTMLElement) {
        const inList = this.tagName === 'DIV' && this.parentElement?.matches('.projected-pane .pane-scroll');
        return inList ? ABOVE : 0;
      },
    });
  });
  afterAll(() => {
    unstub();
    if (offsetTop) Object.defineProperty(HTMLElement.prototype, 'offsetTop', offsetTop);
  });

  it('starts at the height above it that the last list measured: no second render to learn it', async () => {
    await renderSession();
    const panes = () => document.querySelector<HTMLElement>('.leaf-panes[data-leaf-id]');
    await waitFor(() => expect(panes()?.getAttribute('aria-busy')).toBe('false'));
    // The first list of the pane has nothing to start from: it learns the height once drawn.
    expect(margins.at(-1)).toBe(ABOVE);
    margins.length = 0;
    fireEvent.click(treeRow('e0009'));
    await waitFor(() => expect(panes()?.getAttribute('data-leaf-id')).toBe('e0009'));
    await waitFor(() => expect(panes()?.getAttribute('aria-busy')).toBe('false'));
    // Every render of the new list, its first included, is at the kept height (from 0, each new
    // view's list was rendered and committed again at once, in the task that showed it).
    expect(margins.length).toBeGreaterThan(0);
    expect(margins.filter((m) => m !== ABOVE)).toEqual([]);
  });
});
