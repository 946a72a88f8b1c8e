// @vitest-environment jsdom
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import { renderOnBackend, sessionHash } from '../test-support/render-backend';

describe('the reader notice', () => {
  it('says the reader restarted and why, until dismissed', async () => {
    // The in-process backend has no worker to lose: the event a restarted worker sends is injected.
    const listeners: ((e: ApiEvent) => void)[] = [];
    await renderOnBackend({
      fixtures: ['linear'],
      hash: sessionHash('linear'),
      before: (api) => {
        const real = api.onEvent.bind(api);
        api.onEvent = (l) => {
          listeners.push(l);
          return real(l);
        };
      },
    });
    expect(screen.queryByText(/ledger reader stopped/)).toBeNull();
    const reason = 'it ran out of memory (its heap limit is 4096 MB)';
    act(() => listeners.forEach((l) => l({ type: 'reader', change: 'restarted', reason })));
    const alert = (await screen.findByText(/ledger reader stopped and was restarted/)).closest('[role="alert"]');
    expect(alert?.textContent).toContain(reason);
    fireEvent.click(screen.getByRole('button', { name: 'dismiss' }));
    expect(screen.queryByText(/ledger reader stopped/)).toBeNull();
    act(() => listeners.forEach((l) => l({ type: 'reader', change: 'stopped', reason: 'it stopped 5 times' })));
    expect((await screen.findByText(/was not restarted/)).textContent).toContain('it stopped 5 times');
  });
});
