// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ContextSeries } from '../../shared/api-series';
import { useAppStore } from '../store/app-store';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionWriter } from '../test-support/backend-api';
import { press, renderOnBackend, renderSession, sessionHash, treeRow } from '../test-support/render-backend';
import { MIN_APPLY_R2 } from './fit-verdict';
import { injectFault } from '../test-support/api-faults';
import { PAD } from './chart-draw';
import { unpackSeries } from '../../shared/series-packed';
import { wholeSeries } from '../../shared/series-delta';

/** A session of the bundled demo home (twelve calls on its active chain). */
const DEMO_SESSION = 'agents/vak/sessions/43ea0aca2ad51db5/01a2076b-4400-7d8a-98d7-e70bd55f634b.jsonl';

const slider = () => screen.getByRole('slider', { name: /Context size per turn end/ });
const seriesCalls = (api: { calls: { method: string; req: unknown; signal?: AbortSignal }[] }) =>
  api.calls.filter((c) => c.method === 'getContextSeries');

/** The chart's series as the backend answers it (whole) for the request the chart made last. */
async function lastSeries(api: Awaited<ReturnType<typeof renderSession>>): Promise<ContextSeries> {
  const req = seriesCalls(api).at(-1)?.req as Parameters<typeof api.getContextSeries>[0];
  return wholeSeries(null, async (held) => unpackSeries(await api.getContextSeries({ ...req, held })));
}

/** The chart draws `s` whole: one column per point, each column's tooltip naming its turn and total. */
async function expectDrawn(s: ContextSeries): Promise<void> {
  expect(slider().getAttribute('data-columns')).toBe(String(s.points.length));
  act(() => slider().focus());
  fireEvent.keyDown(slider(), { key: 'End' });
  for (let k = s.points.length - 1; k >= 0; k--) {
    if (k < s.points.length - 1) fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    const tip = await screen.findByRole('tooltip');
    await waitFor(() => expect(tip.textContent).toContain(`turn ${k + 1} of ${s.points.length}`));
    expect(tip.textContent).toContain(`${s.points[k].total.toLocaleString('en-US')} tok`);
  }
}

describe('context over time', () => {
  it('while a series is built, shows how far the build has come as the backend tells it, then the chart', async () => {
    // The backend tells every step here (a small session's build is over before the first word
    // otherwise); its answer is held until the test lets it go.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await renderOnBackend({
      fixtures: ['linear'],
      hash: sessionHash('linear'),
      seriesProgressMs: { first: 0, every: 0 },
      before: (a) =>
        injectFault(a, 'getContextSeries', async (req, real) => {
          const res = await real(req);
          await held;
          return res;
        }),
    });
    const bar = await screen.findByRole('progressbar', { name: 'Drawing the context over time' });
    await waitFor(() => expect(Number(bar.getAttribute('value'))).toBeGreaterThan(0.5));
    expect(Number(bar.getAttribute('value'))).toBeLessThan(1);
    const region = screen.getByRole('region', { name: 'Context over time' });
    expect(within(region).getByText(/^loading… \d+%$/)).toBeTruthy();
    expect(within(region).queryByText(/turn ends?$/)).toBeNull();
    release();
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(2));
    expect(screen.queryByRole('progressbar', { name: 'Drawing the context over time' })).toBeNull();
    expect(within(region).getByText(/^\d+ turn ends$/)).toBeTruthy();
  });

  it('draws one column per turn end of the active chain, with the selected leaf as the cursor', async () => {
    const api = await renderSession('linear');
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(0));
    const s = await lastSeries(api);
    expect(s.points.length).toBeGreaterThan(2);
    expect(slider().getAttribute('aria-valuemax')).toBe(String(s.points.length));
    expect(slider().getAttribute('data-columns')).toBe(String(s.points.length));
    // The active leaf is the last point: the cursor is on the last column.
    await waitFor(() => expect(slider().getAttribute('data-cursor')).toBe(String(s.points.length - 1)));
    const region = screen.getByRole('region', { name: 'Context over time' });
    expect(within(region).getByText(`${s.points.length} turn ends`)).toBeTruthy();
  });

  it('draws a series that comes in pages (a long chain) whole: every column, each with its turn and total', async () => {
    // Pages of one point each (the backend's own pages are 4 MiB, some 10,000 points).
    const api = await renderOnBackend({ fixtures: ['linear'], hash: sessionHash('linear'), seriesPageBytes: 1 });
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(2));
    const held = seriesCalls(api).map((c) => (c.req as { held?: { points: number } }).held?.points ?? 0);
    const whole = await lastSeries(api);
    expect(whole.rest).toBe(0);
    // One answer per point, each naming the points the chart held by then.
    expect(held).toEqual(whole.points.map((_, k) => k));
    expect(slider().getAttribute('data-columns')).toBe(String(whole.points.length));
    await expectDrawn(whole);
  });

  it('←/→ move between columns, the tooltip names the turn, Enter selects that leaf', async () => {
    const api = await renderSession('linear');
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(2));
    const s = await lastSeries(api);
    act(() => slider().focus());
    fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    const k = s.points.length - 3;
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toContain(`turn ${k + 1} of ${s.points.length}`);
    expect(tip.textContent).toContain(`${s.points[k].total.toLocaleString('en-US')} tok`);
    if (s.points[k].measured)
      expect(tip.textContent).toContain(`measured ${s.points[k].measured!.tokens.toLocaleString('en-US')}`);
    fireEvent.keyDown(slider(), { key: 'Enter' });
    await waitFor(() => expect(useAppStore.getState().leaf).toBe(s.points[k].leaf));
    await waitFor(() =>
      expect(document.querySelector('.leaf-panes')?.getAttribute('data-leaf-id')).toBe(s.points[k].leaf),
    );
    // Selecting a point of the chart keeps the chart on its chain: same columns, cursor on the point.
    await waitFor(() => expect(slider().getAttribute('data-cursor')).toBe(String(k)));
    expect(slider().getAttribute('aria-valuemax')).toBe(String(s.points.length));
  });

  it('a leaf off the drawn chain redraws the chart through that leaf; the active leaf again, the active chain', async () => {
    const api = await renderSession('branching');
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(0));
    const key = api.keyOf('branching');
    const rows = await api.getTreeRows({ key, start: 0, count: 500, foldAudit: false });
    const other = rows.rows.find((r) => r.isLeaf && !r.isActiveLeaf);
    expect(other).toBeDefined();
    fireEvent.click(treeRow(other!.id));
    await waitFor(() =>
      expect(seriesCalls(api).some((c) => (c.req as { leaf: string | null }).leaf === other!.id)).toBe(true),
    );
    // Every series asked before is aborted (cancelled in the backend if still running): only the last stands.
    const asked = seriesCalls(api); // (the chart's own: lastSeries below asks too)
    expect(asked.every((c) => c.signal !== undefined)).toBe(true);
    expect(asked.filter((c) => !c.signal?.aborted).map((c) => (c.req as { leaf: string | null }).leaf)).toEqual([
      other!.id,
    ]);
    const s = await lastSeries(api);
    expect(s.leaf).toBe(other!.id);
    await waitFor(() => expect(slider().getAttribute('data-cursor')).toBe(String(s.points.length - 1)));
    // End selects the active leaf: the chart draws the active chain again.
    press('End');
    const active = useAppStore.getState().sessionInfo?.activeLeaf ?? null;
    await waitFor(() =>
      expect([null, active]).toContain((seriesCalls(api).at(-1)?.req as { leaf: string | null }).leaf),
    );
    await waitFor(async () => expect((await lastSeries(api)).leaf).toBe(active));
  });

  it('a click on a column selects that leaf', async () => {
    const api = await renderSession('linear');
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(1));
    const s = await lastSeries(api);
    // jsdom lays the canvas at x = 0, 1000 px wide (render-backend's stub): columns share the plot.
    const cw = (1000 - PAD.left - PAD.right) / s.points.length;
    fireEvent.click(slider(), { clientX: PAD.left + cw * 1.5, clientY: 50 });
    await waitFor(() => expect(useAppStore.getState().leaf).toBe(s.points[1].leaf));
  });

  it('one click applies a good fit (the bundled demo: usage as a provider reports it); the chart asks again with it', async () => {
    // A demo session, its entries written anew under the test's clock.
    const w = new SessionWriter();
    const demo = readFileSync(join(import.meta.dirname, '../../../resources/demo-home', DEMO_SESSION), 'utf8');
    for (const line of demo.split('\n').filter(Boolean)) {
      const {
        id,
        parent_id,
        ts: _ts,
        prev_hash: _prev,
        kind,
        ...payload
      } = JSON.parse(line) as Record<string, unknown>;
      w.add(id as string, parent_id as string | null, kind as string, payload);
    }
    const api = await renderOnBackend({ written: { demo: w }, hash: sessionHash('demo') });
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(0));
    const s = await lastSeries(api);
    expect(s.fit.r2!).toBeGreaterThanOrEqual(MIN_APPLY_R2);
    const current = useAppStore.getState().profile.bytes_per_token;
    expect(s.fit.suggested).toBe(current); // the demo's figures fit the default: nothing to apply
    expect(document.querySelector('.chart-head .apply-fit')).toBeNull();
    act(() => useAppStore.getState().setProfile({ bytes_per_token: current + 3 }));
    // (Queried by class: a role query over this many rows takes longer than the chart.)
    const applyButton = () => document.querySelector<HTMLButtonElement>('.chart-head .apply-fit');
    await waitFor(() => expect(applyButton()?.textContent).toBe(`apply ${s.fit.suggested} bytes/token`));
    const apply = applyButton()!;
    expect(screen.getByText(/measured input fits/).textContent).toContain(`(${s.fit.points} call`);
    fireEvent.click(apply);
    expect(useAppStore.getState().profile.bytes_per_token).toBe(s.fit.suggested);
    await waitFor(() =>
      expect((seriesCalls(api).at(-1)?.req as { profile: { bytes_per_token: number } }).profile.bytes_per_token).toBe(
        s.fit.suggested,
      ),
    );
    await waitFor(() => expect(applyButton()).toBeNull());
  }, 60_000);

  it('offers no apply for a poor fit, and says why', async () => {
    const api = await renderSession('linear');
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(0));
    const s = await lastSeries(api);
    // The fixture's usage does not follow its content: least squares still finds a value.
    expect(s.fit.suggested).not.toBeNull();
    expect(s.fit.r2!).toBeLessThan(MIN_APPLY_R2);
    await waitFor(() => expect(screen.getByText(/measured input fits/).textContent).toContain('a poor fit'));
    expect(screen.queryByRole('button', { name: /^apply / })).toBeNull();
  });

  it('follows live appends: a new turn is a new column', async () => {
    const api = await renderSession('linear');
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBeGreaterThan(0));
    const before = Number(slider().getAttribute('aria-valuemax'));
    const info = useAppStore.getState().sessionInfo!;
    const last = info.activeLeaf!;
    const lines = (await api.getEntry({ key: api.keyOf('linear'), id: last })).raw;
    const prevHash = (await import('node:crypto')).createHash('sha256').update(lines, 'utf8').digest('hex');
    const entry = (id: string, parent: string, prev: string, role: string, text: string) =>
      JSON.stringify({
        id,
        parent_id: parent,
        ts: '2030-01-01T00:00:00Z',
        prev_hash: prev,
        kind: 'message',
        message: { role, content: [{ type: 'text', text }] },
      });
    const u = entry('live-u', last, prevHash, 'user', 'one more thing');
    const uHash = (await import('node:crypto')).createHash('sha256').update(u, 'utf8').digest('hex');
    api.appendLines(api.keyOf('linear'), [u, entry('live-a', 'live-u', uHash, 'assistant', 'done')]);
    await waitFor(() => expect(Number(slider().getAttribute('aria-valuemax'))).toBe(before + 1));
    // Asked again naming the series drawn: the answer sent only the points after the old leaf's turn.
    const req = seriesCalls(api).at(-1)!.req as Parameters<typeof api.getContextSeries>[0];
    expect(req.held).toMatchObject({ leaf: last, points: before });
    const delta = await api.getContextSeries(req);
    expect([delta.kept, delta.points.n]).toEqual([before - 1, 2]);
    await expectDrawn(await lastSeries(api));
  });

  it("takes its width from the observer's first observation, not by reading the page in its commit", async () => {
    // An observer that reports when the test says, as a browser's does after the frame's layout.
    const observed: (() => void)[] = [];
    const w = window as unknown as { ResizeObserver?: unknown };
    const before = w.ResizeObserver;
    w.ResizeObserver = class {
      constructor(private readonly cb: () => void) {}
      observe() {
        observed.push(() => this.cb());
      }
      unobserve() {}
      disconnect() {}
    };
    try {
      await renderSession('linear');
      // Mounted, committed, nothing observed yet: the strip read no width from the page (a read
      // there lays out the whole new view in the commit's task).
      expect(slider().style.width).toBe('800px');
      act(() => {
        for (const report of observed) report();
      });
      // The layout stub makes every box 1,000 px wide.
      expect(slider().style.width).toBe('1000px');
    } finally {
      w.ResizeObserver = before;
    }
  });

  it('g hides and shows the chart; compare in plan mode draws plan B too', async () => {
    const api = await renderSession('linear');
    await screen.findByRole('region', { name: 'Context over time' });
    press('g');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Context over time' })).toBeNull());
    press('g');
    await screen.findByRole('region', { name: 'Context over time' });
    press('c');
    await waitFor(() =>
      expect(
        seriesCalls(api).some((c) => (c.req as { plan: string }).plan === useAppStore.getState().compare.planB),
      ).toBe(true),
    );
    expect(await screen.findByText(/plan B \(/)).toBeTruthy();
  });
});
