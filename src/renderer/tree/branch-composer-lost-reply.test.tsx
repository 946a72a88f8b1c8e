// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BranchRequest } from '../../shared/api';
import { ApiError } from '../api/api-methods';
import { press, renderWithSession, treeRow } from '../test-support/render-app';

const LOST = 'the connection dropped before the reply: the branch may or may not have been appended — look at the tree';

describe('branch composer when the reply is lost', () => {
  it('says the outcome is unknown in place, keeps the draft, and sends it again under the same key', async () => {
    const api = await renderWithSession();
    const append = api.branch.bind(api);
    const sent: BranchRequest[] = [];
    api.branch = async (req) => {
      sent.push(req);
      // The first submission "reached the server" and its reply was lost.
      if (sent.length === 1) throw new ApiError('unknown_outcome', LOST);
      return append(req);
    };
    fireEvent.click(treeRow('e05'));
    await waitFor(() => expect(treeRow('e05').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under e05/ });
    fireEvent.change(box, { target: { value: 'only once' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toContain('may or may not have been appended');
    const kept = screen.getByRole('textbox', { name: /New directive under e05/ }) as HTMLTextAreaElement;
    expect(kept.value).toBe('only once');
    await waitFor(() => expect(kept.disabled).toBe(false));

    fireEvent.keyDown(kept, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: /New directive/ })).toBeNull());
    await waitFor(() => expect(treeRow('b1')).toBeTruthy());
    expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);

    // A new submission (even of the same text) after an answered one gets a new key.
    fireEvent.click(treeRow('e05'));
    await waitFor(() => expect(treeRow('e05').textContent).toContain('▶ selected'));
    press('b');
    const box2 = await screen.findByRole('textbox', { name: /New directive under e05/ });
    fireEvent.change(box2, { target: { value: 'only once' } });
    fireEvent.keyDown(box2, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2].idempotencyKey).not.toBe(sent[0].idempotencyKey);
  });
});
