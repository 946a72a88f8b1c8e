// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LeafRequest } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { useAppStore } from '../store/app-store';
import type { BackendApi } from '../test-support/backend-api';
import { press, renderSession } from '../test-support/render-backend';

const leafReqs = (api: BackendApi): LeafRequest[] =>
  api.calls.filter((c) => c.method === 'getLeafView').map((c) => c.req as LeafRequest);
const lastLeafReq = (api: BackendApi): LeafRequest => leafReqs(api).at(-1)!;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const table = () => screen.getByRole('table', { name: 'Per-turn comparison' });
const row = (turn: string) => table().querySelector<HTMLElement>(`tr[data-turn="${turn}"]`);
const compareLabels = () => document.querySelector('.compare-labels')?.textContent ?? '';

// linear.jsonl: closed turns e0003 and e0010 (cards e0009, e0017), open turn e0019; 665 tokens in all.
// Each test drives the whole app on the real backend: allow for a loaded machine.
describe('compare: each side its own plan, profile and overrides', { timeout: 90_000 }, () => {
  it('B with a 600-token window and plan auto against A at 200,000: cards, deltas and labels', async () => {
    const api = await renderSession('linear');
    press('c');
    await screen.findByRole('table', { name: 'Per-turn comparison' });
    // B starts on A's profile: its inputs show A's values.
    expect((screen.getByLabelText('B window') as HTMLInputElement).value).toBe('200000');
    fireEvent.change(screen.getByLabelText('Plan B'), { target: { value: 'auto' } });
    type('B reserve', '0');
    type('B window', '600');
    await waitFor(() =>
      expect(leafReqs(api)).toContainEqual(
        expect.objectContaining({ plan: 'auto', profile: { window: 600, reserve: 0, bytes_per_token: 4 } }),
      ),
    );
    // A is untouched by B's profile.
    expect(useAppStore.getState().leafViewRequest?.profile).toEqual(DEFAULT_PROFILE);
    await waitFor(() => {
      const r = row('e0003');
      expect(r?.classList.contains('differs')).toBe(true);
      expect(r?.querySelectorAll('.fid-badge')[1]?.textContent).toBe('card');
      expect(r?.querySelector('.delta')?.textContent).toMatch(/^−\d/);
    });
    expect(compareLabels()).toContain('window 200,000');
    expect(compareLabels()).toContain('window 600');
    expect(compareLabels()).toContain('reserve 16,000');
    expect(compareLabels()).toContain('reserve 0');
    expect(compareLabels()).not.toContain('plan'); // both sides plan auto
    expect(screen.getByRole('region', { name: 'B · window 600 · reserve 0' })).toBeTruthy();
    expect(table().querySelector('tr.total')?.textContent).toContain('665');
  });

  it('overrides a turn on side B only, and the labels say so', async () => {
    const api = await renderSession('linear');
    press('c');
    await screen.findByRole('table', { name: 'Per-turn comparison' });
    fireEvent.change(screen.getByLabelText('Plan B'), { target: { value: 'auto' } });
    fireEvent.click(screen.getByRole('button', { name: /^B overrides/ }));
    // B's plan rows are read after B's view arrives (a page of getPlanTurns).
    const sel = await screen.findByLabelText('B Override turn e0003');
    fireEvent.change(sel, { target: { value: 'card' } });
    await waitFor(() =>
      expect(leafReqs(api)).toContainEqual(
        expect.objectContaining({ plan: 'auto', overrides: { e0003: { fidelity: 'card' } } }),
      ),
    );
    await waitFor(() => expect(row('e0003')?.querySelectorAll('.fid-badge')[1]?.textContent).toBe('card'));
    expect(row('e0003')?.querySelectorAll('.fid-badge')[0]?.textContent).toBe('full');
    expect(compareLabels()).toMatch(/A no overrides vs B overrides: 1 turn/);
    expect(screen.getByRole('button', { name: /^B overrides \(1\)/ })).toBeTruthy();
    // A's own overrides stay empty.
    expect(leafReqs(api).filter((r) => r.plan === 'auto' && Object.keys(r.overrides).length === 0)).not.toHaveLength(0);
    expect(window.location.hash).toContain('bov=e0003%3Acard');
  });

  it('refuses a profile whose reserve is not below its window, in place, for A and for B', async () => {
    const api = await renderSession('linear');
    type('reserve', '300000');
    const alertA = await screen.findByRole('alert');
    expect(alertA.textContent).toContain('reserve (300,000) must be below the window (200,000)');
    expect(alertA.textContent).toContain('still using window 200,000, reserve 16,000');
    expect(screen.getByLabelText('reserve').getAttribute('aria-invalid')).toBe('true');
    expect(leafReqs(api).every((r) => r.profile.reserve === 16000)).toBe(true);
    // Fixing the window makes the same reserve valid: the whole profile is taken then.
    type('window', '400000');
    await waitFor(() =>
      expect(lastLeafReq(api).profile).toEqual({ window: 400000, reserve: 300000, bytes_per_token: 4 }),
    );
    expect(screen.queryByRole('alert')).toBeNull();

    press('c');
    await screen.findByRole('table', { name: 'Per-turn comparison' });
    const before = leafReqs(api).length;
    type('B window', '1000');
    const group = screen.getByRole('group', { name: 'Side B' });
    const alertB = await within(group).findByRole('alert');
    expect(alertB.textContent).toContain('reserve (300,000) must be below the window (1,000)');
    type('B bytes/token', '0');
    expect(within(group).getByRole('alert').textContent).toContain('bytes/token');
    expect(
      leafReqs(api)
        .slice(before)
        .every((r) => r.profile.window === 400000),
    ).toBe(true);
    // Esc puts back the profile in use.
    fireEvent.keyDown(screen.getByLabelText('B window'), { key: 'Escape' });
    expect((screen.getByLabelText('B window') as HTMLInputElement).value).toBe('400000');
    expect(within(group).queryByRole('alert')).toBeNull();
  });

  it('steps through the diff with n / N and F7, unchanged runs folded', async () => {
    await renderSession('linear');
    type('reserve', '0');
    type('window', '600');
    press('c');
    press('d');
    const diff = await screen.findByLabelText('Text diff');
    await waitFor(() => expect(diff.textContent).toMatch(/\d+ changes?/));
    const total = Number(/(\d+) changes?/.exec(diff.textContent ?? '')?.[1]);
    expect(total).toBeGreaterThan(0);
    press('n');
    await waitFor(() => expect(diff.textContent).toContain(`change 1 of ${total}`));
    expect(diff.querySelector('.diff-line.current')).not.toBeNull();
    press('N');
    await waitFor(() => expect(diff.textContent).toContain(`change ${total} of ${total}`));
    act(() => {
      fireEvent.keyDown(document.body, { key: 'F7' });
    });
    await waitFor(() => expect(diff.textContent).toContain(`change 1 of ${total}`));
    act(() => {
      fireEvent.keyDown(document.body, { key: 'F7', shiftKey: true });
    });
    await waitFor(() => expect(diff.textContent).toContain(`change ${total} of ${total}`));
    fireEvent.click(within(diff).getByRole('button', { name: /next/ }));
    await waitFor(() => expect(diff.textContent).toContain(`change 1 of ${total}`));
    fireEvent.click(within(diff).getByRole('button', { name: /previous/ }));
    await waitFor(() => expect(diff.textContent).toContain(`change ${total} of ${total}`));
  });
});

describe('turns panel', () => {
  it("names each turn by its directive's text, full text on hover", async () => {
    await renderSession('linear');
    fireEvent.click(screen.getByRole('button', { name: /^turns/ }));
    const t = await screen.findByRole('table', { name: 'Plan rows' });
    // Plan rows come by page (getPlanTurns): the table can show before its rows.
    await waitFor(() => expect(t.querySelector('tr[data-turn="e0003"] td.directive')).not.toBeNull());
    const cell = t.querySelector<HTMLElement>('tr[data-turn="e0003"] td.directive');
    expect(cell?.textContent).toMatch(/^The test `parses_empty_input`/);
    expect(cell?.title).toBe(cell?.textContent);
    expect(t.querySelector('tr[data-turn="e0010"] td.directive')?.textContent).toMatch(
      /^Please fix it and run the test/,
    );
  });
});
