// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LeafRequest } from '../../shared/api';
import { SESSION_A, demoEntries } from '../api/fake-data';
import { press, renderWithSession } from '../test-support/render-app';

const lastLeafReq = (calls: { method: string; req: unknown }[]): LeafRequest =>
  calls.filter((c) => c.method === 'getLeafView').at(-1)!.req as LeafRequest;

describe('plan controls', () => {
  it('plan and profile inputs reach the request; bad values are refused in place', async () => {
    const api = await renderWithSession();
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'none' } });
    await waitFor(() => expect(lastLeafReq(api.calls).plan).toBe('none'));
    const w = screen.getByLabelText('window') as HTMLInputElement;
    fireEvent.change(w, { target: { value: '12x' } });
    expect(w.getAttribute('aria-invalid')).toBe('true');
    expect(lastLeafReq(api.calls).profile.window).toBe(200000);
    fireEvent.change(w, { target: { value: '150000' } });
    await waitFor(() => expect(lastLeafReq(api.calls).profile.window).toBe(150000));
    fireEvent.change(screen.getByLabelText('bytes/token'), { target: { value: '0' } });
    expect(screen.getByLabelText('bytes/token').getAttribute('aria-invalid')).toBe('true');
    expect(window.location.hash).toContain('plan=none');
    expect(window.location.hash).toContain('w=150000');
  });

  it('overrides a closed turn from its plan row', async () => {
    const api = await renderWithSession();
    fireEvent.click(screen.getByRole('button', { name: /^turns/ }));
    const sel = await screen.findByLabelText('Override turn e02');
    fireEvent.change(sel, { target: { value: 'card' } });
    await waitFor(() => expect(lastLeafReq(api.calls).overrides).toEqual({ e02: { fidelity: 'card' } }));
    const proj = screen.getByRole('region', { name: 'Projected context' });
    await waitFor(() => expect(proj.textContent).toContain('[turn card] Listed 3 TODOs under src/.'));
    expect(within(proj).getAllByText('card').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'turn e02 card' }).classList.contains('overridden')).toBe(true);
  });

  it('offers Card only for turns with a card and Packet only for packets covering the turn', async () => {
    const entries = [
      ...demoEntries(),
      {
        id: 'p1',
        parent_id: 'e13',
        ts: '2026-11-29T09:20:00.000Z',
        kind: 'compaction',
        packet: { summary: 'both turns', first_turn_id: 'e02', last_turn_id: 'e12' },
      },
      {
        id: 'p2',
        parent_id: 'p1',
        ts: '2026-11-29T09:21:00.000Z',
        kind: 'compaction',
        packet: { summary: 'wrong order', first_turn_id: 'e12', last_turn_id: 'e02' },
      },
    ];
    const api = await renderWithSession({ entries: { [SESSION_A]: entries } });
    fireEvent.click(screen.getByRole('button', { name: /^turns/ }));
    const options = async (turn: string) =>
      [...(await screen.findByLabelText(`Override turn ${turn}`)).querySelectorAll('option')].map((o) => o.value);
    expect(await options('e02')).toEqual(['', 'full', 'card', 'packet:p1']);
    // e12 has no turn card in the chain; p2 names its turns in the wrong order and is never offered.
    expect(await options('e12')).toEqual(['', 'full', 'packet:p1']);
    expect(api.calls.some((c) => c.method === 'getEntry')).toBe(false);
  });

  it('compares two plans turn by turn with token deltas and a text diff', async () => {
    await renderWithSession();
    // A small window makes plan auto turn e02 into a card; plan none keeps it full.
    fireEvent.change(screen.getByLabelText('window'), { target: { value: '900' } });
    fireEvent.change(screen.getByLabelText('reserve'), { target: { value: '0' } });
    press('c');
    const table = await screen.findByRole('table', { name: 'Per-turn comparison' });
    await waitFor(() => {
      const row = table.querySelector('tr[data-turn="e02"]')!;
      expect(row.classList.contains('differs')).toBe(true);
      expect(row.textContent).toContain('card');
      expect(row.textContent).toContain('full');
      expect(row.querySelector('.delta')?.textContent).toMatch(/^\+\d/);
    });
    expect(table.querySelector('tr[data-turn="e12"]')?.querySelector('.delta')?.textContent).toBe('±0');
    expect(screen.getByRole('region', { name: 'A · plan auto' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'B · plan none' })).toBeTruthy();
    press('d');
    const diff = await screen.findByLabelText('Text diff');
    await waitFor(() => expect(diff.querySelector('.diff-del')?.textContent).toMatch(/−[1-9]/));
    expect(diff.textContent).toContain('[turn card] Listed 3 TODOs');
  });

  it('compares two leaves', async () => {
    await renderWithSession();
    press('c');
    fireEvent.click(await screen.findByLabelText('two leaves'));
    // B keeps the active leaf; A moves to the abandoned branch.
    fireEvent.click(document.querySelector('.tree-row[data-entry-id="e09"]')!);
    const table = await screen.findByRole('table', { name: 'Per-turn comparison' });
    await waitFor(() => expect(table.querySelector('tr[data-turn="e08"]')?.textContent).toContain('full'));
    expect(table.querySelector('tr[data-turn="e12"]')?.textContent).toContain('—');
  });
});
