// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../store/app-store';
import { SessionWriter } from '../test-support/backend-api';
import { press, renderOnBackend, sessionHash, treeRow, waitCursor } from '../test-support/render-backend';

/** A session an "agent" keeps writing to: one turn so far (the test appends with the same writer). */
const liveSession = (): SessionWriter =>
  new SessionWriter()
    .header()
    .message('u1', 'h', 'user', [{ type: 'text', text: 'Fix the cache.' }])
    .message('a1', 'u1', 'assistant', [{ type: 'text', text: 'Fixed.' }]);

const reasonA = () => screen.getByTestId('fate-reason-A').textContent;

describe('the fate strip of a live session', () => {
  it('is asked again when an append grows the active leaf’s chain', async () => {
    const w = liveSession();
    const api = await renderOnBackend({ written: { live: w }, hash: sessionHash('live') });
    await waitFor(() => expect(treeRow('a1')).toBeTruthy());
    // The active leaf stays selected (no leaf chosen): pin the first directive, open the strip.
    act(() => {
      useAppStore.getState().pin({ entries: ['u1'], messages: [] });
      useAppStore.getState().toggleFate(true);
    });
    await waitFor(() => expect(reasonA()).toBe('sent as itself at all 1 turn ends from its own on'));
    // A second turn is appended: one turn end more, with no change of selection, plan or profile.
    api.appendLines(
      api.keyOf('live'),
      w
        .message('u2', 'a1', 'user', [{ type: 'text', text: 'And the tests.' }])
        .message('a2', 'u2', 'assistant', [{ type: 'text', text: 'Done.' }])
        .take(),
    );
    await waitFor(() => expect(reasonA()).toBe('sent as itself at all 2 turn ends from its own on'));
    expect(useAppStore.getState().leaf).toBeNull();
  });

  it('follow mode: the strip keeps the entry as each new leaf is selected, and grows with it', async () => {
    const w = liveSession();
    const api = await renderOnBackend({ written: { live: w }, hash: sessionHash('live') });
    await waitFor(() => expect(treeRow('a1')).toBeTruthy());
    press('f');
    act(() => {
      useAppStore.getState().pin({ entries: ['u1'], messages: [] });
      useAppStore.getState().toggleFate(true);
    });
    await waitFor(() => expect(reasonA()).toBe('sent as itself at all 1 turn ends from its own on'));
    api.appendLines(
      api.keyOf('live'),
      w
        .message('u2', 'a1', 'user', [{ type: 'text', text: 'And the tests.' }])
        .message('a2', 'u2', 'assistant', [{ type: 'text', text: 'Done.' }])
        .take(),
    );
    // Follow selects the new leaf (which unpins in the History); the strip stays on u1, on a2's chain.
    await waitCursor('a2', 10_000);
    await waitFor(() => expect(reasonA()).toBe('sent as itself at all 2 turn ends from its own on'));
    expect(useAppStore.getState().leaf).toBe('a2');
    expect(screen.getByRole('region', { name: 'Fate of the pinned entry' }).textContent).toContain('u1');
  });
});
