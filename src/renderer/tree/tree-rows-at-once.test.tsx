// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { injectFault } from '../test-support/api-faults';
import { renderOnBackend, sessionHash } from '../test-support/render-backend';

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

/** Resolves in the next macrotask queued now (after every microtask, before any task queued later). */
const nextTask = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('the tree draws a page of rows when its answer comes', () => {
  it('in the task that takes the answer, not a scheduler task later', async () => {
    const rows = gate();
    const view = gate();
    let asked!: () => void;
    const rowsAsked = new Promise<void>((r) => (asked = r));
    await renderOnBackend({
      fixtures: ['branching'],
      hash: sessionHash('branching'),
      before: (a) => {
        // Every request but the rows' and the leaf view's is answered as usual; those two wait,
        // so that nothing else draws the page for the tree (the leaf view's answer would).
        injectFault(a, 'getTreeRows', async (req, real) => {
          const answer = await real(req);
          asked();
          await rows.opened;
          return answer;
        });
        injectFault(a, 'getLeafView', async (req, real) => {
          await view.opened;
          return real(req);
        });
      },
    });
    await rowsAsked;
    // The tree is open and waits for its page: its list shows placeholders only.
    await screen.findByRole('listbox', { name: 'Entries' });
    expect(document.querySelector('.tree-row[data-entry-id]')).toBeNull();
    // The answer comes; a task queued now runs after the answer's microtasks and before any
    // task they queue (as React's scheduler does for an update it does not render at once).
    const after = nextTask();
    rows.open();
    await after;
    expect(document.querySelector('.tree-row[data-entry-id="e0001"]')).not.toBeNull();
    view.open();
    await screen.findByText(/active leaf/);
  });
});
