// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BranchRequest } from '../../shared/api';
import { ApiError } from '../api/api-methods';
import { injectFault } from '../test-support/api-faults';
import { press, renderSession, treeRow } from '../test-support/render-backend';

const LOST = 'the connection dropped before the reply: the branch may or may not have been appended — look at the tree';
const rows = () => document.querySelectorAll('.tree-row:not(.placeholder)');

describe('branch composer when the reply is lost', () => {
  it('says the outcome is unknown in place, keeps the draft, and sends it again under the same key', async () => {
    const api = await renderSession();
    const sent: BranchRequest[] = [];
    injectFault(api, 'branch', async (req, real) => {
      sent.push(req);
      // The first submission "reached the server" (it is appended) and its reply was lost.
      const r = await real(req);
      if (sent.length === 1) throw new ApiError('unknown_outcome', LOST);
      return r;
    });
    fireEvent.click(treeRow('e0005'));
    await waitFor(() => expect(treeRow('e0005').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under e0005/ });
    fireEvent.change(box, { target: { value: 'only once' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toContain('may or may not have been appended');
    const kept = screen.getByRole('textbox', { name: /New directive under e0005/ }) as HTMLTextAreaElement;
    expect(kept.value).toBe('only once');
    await waitFor(() => expect(kept.disabled).toBe(false));

    fireEvent.keyDown(kept, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: /New directive/ })).toBeNull());
    expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);
    // The backend appended it once: 13 + 1 rows.
    await waitFor(() => expect(rows()).toHaveLength(14));
    expect((await api.openSession({ key: api.keyOf('branching') })).entryCount).toBe(14);

    // A new submission (even of the same text) after an answered one gets a new key.
    fireEvent.click(treeRow('e0005'));
    await waitFor(() => expect(treeRow('e0005').textContent).toContain('▶ selected'));
    press('b');
    const box2 = await screen.findByRole('textbox', { name: /New directive under e0005/ });
    fireEvent.change(box2, { target: { value: 'only once' } });
    fireEvent.keyDown(box2, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2].idempotencyKey).not.toBe(sent[0].idempotencyKey);
  });
});
