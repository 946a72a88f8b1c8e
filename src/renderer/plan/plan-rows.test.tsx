// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PlanTurnsRequest } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import type { BackendApi } from '../test-support/backend-api';
import { renderSession, treeRow } from '../test-support/render-backend';

const planCalls = (api: BackendApi): PlanTurnsRequest[] =>
  api.calls.filter((c) => c.method === 'getPlanTurns').map((c) => c.req as PlanTurnsRequest);
const marker = (id: string) => treeRow(id).querySelector('.turn-marker');

// linear.jsonl: closed turns e0003 and e0010, e0019 is open; the leaf view carries the plan as an outline.
describe('plan rows are read for what is on screen', { timeout: 90_000 }, () => {
  it('the tree marks turn rows by the fidelity asked for by id, the open turn unmarked', async () => {
    const api = await renderSession('linear');
    await waitFor(() => expect(marker('e0003')?.classList.contains('fid-full')).toBe(true));
    expect(marker('e0010')?.classList.contains('fid-full')).toBe(true);
    expect(marker('e0019')?.className).toBe('turn-marker');
    expect(marker('e0004')?.className).toBe('turn-marker');
    // Only user rows on screen were asked for, by id: never the plan's whole list.
    const byId = planCalls(api).filter((r) => 'ids' in r);
    expect(byId.length).toBeGreaterThan(0);
    for (const r of byId) expect(r.ids.every((id) => ['e0003', 'e0010', 'e0019'].includes(id))).toBe(true);
    expect(planCalls(api).filter((r) => 'start' in r)).toEqual([]);
    const view = useAppStore.getState().leafView!;
    expect(view.plan).toMatchObject({ turns: 2, full: 2, card: 0, packet: 0 });
    expect(view.plan.strip).toEqual([
      expect.objectContaining({ first: 0, count: 2, firstTurnId: 'e0003', fidelity: 'full', mixed: false }),
    ]);
    expect('turnOptions' in view).toBe(false);
    expect('plan' in view.projection).toBe(false);
  });

  it('the strip names the turn under the pointer once its rows arrive, and a click goes to it', async () => {
    const api = await renderSession('linear');
    const seg = await screen.findByRole('button', { name: 'segment of turns 1 to 2, full' });
    expect(seg.getAttribute('title')).toMatch(/^turns 1–2 of 2 · full/);
    fireEvent.mouseMove(seg);
    // jsdom has no layout: the pointer is at the segment's start, on its first turn.
    await waitFor(() => expect(seg.getAttribute('title')).toMatch(/^turn e0003 · full · [\d,]+ tok — click/));
    expect(planCalls(api).some((r) => 'start' in r && r.start === 0)).toBe(true);
    fireEvent.click(seg, { detail: 1 });
    await waitFor(() => expect(useAppStore.getState().pinned?.entries).toEqual(['e0003']));
  });

  it('the History pane names each projected message with its fidelity from the chain item', async () => {
    await renderSession('linear');
    await waitFor(() => {
      const item = document.querySelector('.history-item[data-entry-id="e0003"]');
      expect(item?.querySelector('.projected-as')?.textContent).toContain('full');
    });
    const view = useAppStore.getState().leafView!;
    const tail = view.chain.find((c) => c.id === view.leaf)!;
    expect(tail.projectedFidelity).toEqual(tail.projectedAs.map(() => expect.stringMatching(/^(open|tail)$/)));
    expect(tail.projectedFidelity).toContain('tail');
  });
});
