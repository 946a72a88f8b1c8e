// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { press, renderWithSession, waitCursor } from '../test-support/render-app';

describe('panels', () => {
  it('warnings list with a jump to the entry', async () => {
    await renderWithSession();
    fireEvent.click(
      within(document.querySelector<HTMLElement>('.plan-bar')!).getByRole('button', { name: /^warnings/ }),
    );
    const list = await screen.findByRole('list', { name: 'Warnings' });
    expect(list.textContent).toContain('hash_mismatch');
    expect(list.textContent).toContain('line 4');
    fireEvent.click(within(list).getByRole('button', { name: 'jump to e04' }));
    await waitCursor('e04');
    expect(window.location.hash).toContain('leaf=e04');
  });

  it('a warning without an entry shows the raw bytes of its line', async () => {
    await renderWithSession();
    press('w');
    const list = await screen.findByRole('list', { name: 'Warnings' });
    expect(list.textContent).toContain('torn_line');
    const torn = within(list).getAllByRole('listitem')[1];
    expect(within(torn).queryByRole('button', { name: /^jump/ })).toBeNull();
    fireEvent.click(within(torn).getByRole('button', { name: 'show line' }));
    const pre = await within(torn).findByLabelText('Line at byte 1400');
    expect(pre.textContent).toBe('{"id":"e09","parent_id":"e08","ts":"2026-');
    fireEvent.click(within(torn).getByRole('button', { name: 'hide line' }));
    await waitFor(() => expect(within(torn).queryByLabelText('Line at byte 1400')).toBeNull());
  });

  it('usage shows the active chain and all branches, labelled', async () => {
    await renderWithSession();
    press('u');
    const t = await screen.findByRole('table', { name: 'Usage' });
    expect(t.textContent).toContain('active chain');
    expect(t.textContent).toContain('all branches');
    expect(t.textContent).toContain('600');
    expect(t.textContent).toContain('650');
  });

  it('work lists each item in its folded state', async () => {
    await renderWithSession();
    fireEvent.click(within(document.querySelector<HTMLElement>('.plan-bar')!).getByRole('button', { name: /^work/ }));
    const t = await screen.findByRole('table', { name: 'Work items' });
    expect(t.textContent).toContain('w1');
    expect(t.textContent).toContain('open');
    fireEvent.click(screen.getByRole('button', { name: 'Close Work' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Work items' })).toBeNull());
  });
});
