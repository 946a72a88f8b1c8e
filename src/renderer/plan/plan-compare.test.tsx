// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LeafRequest } from '../../shared/api';
import type { BackendApi } from '../test-support/backend-api';
import { press, renderSession, treeRow } from '../test-support/render-backend';

const lastLeafReq = (api: BackendApi): LeafRequest =>
  api.calls.filter((c) => c.method === 'getLeafView').at(-1)!.req as LeafRequest;
const projected = () => screen.getByRole('region', { name: 'Projected context' });

// linear.jsonl: closed turns e0003 and e0010, each with a turn card (e0009, e0017); e0019 is open.
describe('plan controls', { timeout: 90_000 }, () => {
  it('plan and profile inputs reach the request; bad values are refused in place', async () => {
    const api = await renderSession('linear');
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'none' } });
    await waitFor(() => expect(lastLeafReq(api).plan).toBe('none'));
    const w = screen.getByLabelText('window') as HTMLInputElement;
    fireEvent.change(w, { target: { value: '12x' } });
    expect(w.getAttribute('aria-invalid')).toBe('true');
    expect(lastLeafReq(api).profile.window).toBe(200000);
    fireEvent.change(w, { target: { value: '150000' } });
    await waitFor(() => expect(lastLeafReq(api).profile.window).toBe(150000));
    fireEvent.change(screen.getByLabelText('bytes/token'), { target: { value: '0' } });
    expect(screen.getByLabelText('bytes/token').getAttribute('aria-invalid')).toBe('true');
    expect(window.location.hash).toContain('plan=none');
    expect(window.location.hash).toContain('w=150000');
  });

  it('overrides a closed turn from its plan row', async () => {
    const api = await renderSession('linear');
    fireEvent.click(screen.getByRole('button', { name: /^turns/ }));
    // The panel's rows are a page of getPlanTurns, read once it shows.
    const sel = await screen.findByLabelText('Override turn e0003');
    fireEvent.change(sel, { target: { value: 'card' } });
    await waitFor(() => expect(lastLeafReq(api).overrides).toEqual({ e0003: { fidelity: 'card' } }));
    await waitFor(() => expect(projected().textContent).toContain('[turn card] Why does parses_empty_input fail'));
    expect(within(projected()).getAllByText('card').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'turn e0003 card' }).classList.contains('overridden')).toBe(true);
  });

  it('offers Card only for turns with a card and Packet only for packets covering the turn', async () => {
    // packets.jsonl: e0012 has no turn card; packet e0021 covers e0007…e0016, e0027 covers e0002…e0012.
    const api = await renderSession('packets');
    fireEvent.click(screen.getByRole('button', { name: /^turns/ }));
    const options = async (turn: string) =>
      [...(await screen.findByLabelText(`Override turn ${turn}`)).querySelectorAll('option')].map((o) => o.value);
    expect(await options('e0002')).toEqual(['', 'full', 'card', 'packet:e0027']);
    expect(await options('e0012')).toEqual(['', 'full', 'packet:e0021', 'packet:e0027']);
    expect(await options('e0022')).toEqual(['', 'full', 'card']);
    expect(api.calls.some((c) => c.method === 'getEntry')).toBe(false);
  });

  it('compares two plans turn by turn with token deltas and a text diff', async () => {
    await renderSession('linear');
    // All of it takes 665 tokens: in a 600-token window plan auto turns e0003 into its card; plan none keeps it full.
    fireEvent.change(screen.getByLabelText('reserve'), { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('window'), { target: { value: '600' } });
    press('c');
    const table = await screen.findByRole('table', { name: 'Per-turn comparison' });
    await waitFor(() => {
      const row = table.querySelector('tr[data-turn="e0003"]')!;
      expect(row.classList.contains('differs')).toBe(true);
      expect(row.textContent).toContain('card');
      expect(row.textContent).toContain('full');
      expect(row.querySelector('.delta')?.textContent).toMatch(/^\+\d/);
    });
    expect(table.querySelector('tr[data-turn="e0010"]')?.querySelector('.delta')?.textContent).toBe('±0');
    expect(screen.getByRole('region', { name: 'A · plan auto' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'B · plan none' })).toBeTruthy();
    press('d');
    const diff = await screen.findByLabelText('Text diff');
    await waitFor(() => expect(diff.querySelector('.diff-del')?.textContent).toMatch(/−[1-9]/));
    expect(diff.textContent).toContain('[turn card] Why does parses_empty_input fail');
  });

  it('compares two leaves', async () => {
    // branching.jsonl: B keeps the active leaf e0013; A moves to the other branch (e0009).
    await renderSession('branching');
    press('c');
    fireEvent.click(await screen.findByLabelText('two leaves'));
    fireEvent.click(treeRow('e0009'));
    const table = await screen.findByRole('table', { name: 'Per-turn comparison' });
    await waitFor(() => expect(table.querySelector('tr[data-turn="e0006"]')?.textContent).toContain('full'));
    expect(table.querySelector('tr[data-turn="e0010"]')?.textContent).toContain('—');
  });
});
