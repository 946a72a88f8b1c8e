// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSession } from '../test-support/render-backend';

const history = () => screen.getByRole('region', { name: 'History' });
const historyIds = () => [...history().querySelectorAll('.history-item')].map((n) => n.getAttribute('data-entry-id'));

describe('History kind filter', () => {
  it('with every kind hidden, says so and offers to show all again', async () => {
    await renderSession();
    await waitFor(() => expect(historyIds().length).toBe(9));
    const chips = within(within(history()).getByRole('group', { name: 'Filter by kind' })).getAllByRole('button');
    expect(screen.queryByText('All kinds hidden.', { exact: false })).toBeNull();
    for (const c of chips) fireEvent.click(c);
    await waitFor(() => expect(historyIds()).toEqual([]));
    expect(within(history()).getByRole('status').textContent).toContain('All kinds hidden.');
    fireEvent.click(within(history()).getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(historyIds().length).toBe(9));
    for (const c of chips) expect(c.getAttribute('aria-pressed')).toBe('true');
  });
});
