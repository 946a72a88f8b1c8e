// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../store/app-store';
import { fixtureLine, SessionWriter } from '../test-support/backend-api';
import { press, renderOnBackend, renderSession, sessionHash, waitCursor } from '../test-support/render-backend';

const barButton = (name: RegExp) =>
  within(document.querySelector<HTMLElement>('.plan-bar')!).getByRole('button', { name });

// damaged.jsonl: a torn line 4 (no entry), hash_mismatch on e0006 (line 6), … (fixtures README).
describe('panels', () => {
  it('warnings list with a jump to the entry', async () => {
    await renderSession('damaged');
    fireEvent.click(barButton(/^warnings/));
    const list = await screen.findByRole('list', { name: 'Warnings' });
    const mismatch = within(list)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.includes('hash_mismatch'));
    expect(mismatch?.textContent).toContain('line 6');
    fireEvent.click(within(mismatch!).getByRole('button', { name: 'jump to e0006' }));
    await waitCursor('e0006');
    expect(window.location.hash).toContain('leaf=e0006');
  });

  it('a warning without an entry shows the raw bytes of its line', async () => {
    await renderSession('damaged');
    press('w');
    const list = await screen.findByRole('list', { name: 'Warnings' });
    const torn = within(list).getAllByRole('listitem')[0];
    expect(torn.textContent).toContain('torn_line');
    expect(within(torn).queryByRole('button', { name: /^jump/ })).toBeNull();
    fireEvent.click(within(torn).getByRole('button', { name: 'show line' }));
    const pre = await within(torn).findByLabelText('Line at byte 2261');
    expect(pre.textContent).toBe(fixtureLine('damaged', 4));
    fireEvent.click(within(torn).getByRole('button', { name: 'hide line' }));
    await waitFor(() => expect(within(torn).queryByLabelText('Line at byte 2261')).toBeNull());
  });

  it('usage shows the active chain and all branches, labelled', async () => {
    // linear.jsonl's answers record 208,868 input and 11,317 output tokens in all (one chain).
    await renderSession('linear');
    press('u');
    const t = await screen.findByRole('table', { name: 'Usage' });
    expect(t.textContent).toContain('active chain');
    expect(t.textContent).toContain('all branches');
    const input = within(t).getByText('input').closest('tr');
    expect([...input!.querySelectorAll('td.num')].map((td) => td.textContent)).toEqual(['208,868', '208,868']);
  });

  it('work lists each item in its folded state', async () => {
    const w = new SessionWriter()
      .header()
      .message('u1', 'h', 'user', [{ type: 'text', text: 'Evict by size.' }])
      .add('w1', 'u1', 'work', { work: { work_id: 'evict', event: 'opened', state: 'open', detail: 'evict by size' } })
      .add('w2', 'w1', 'work', { work: { work_id: 'evict', event: 'progress', state: 'open', detail: 'half done' } });
    await renderOnBackend({ written: { work: w }, hash: sessionHash('work') });
    fireEvent.click(await waitFor(() => barButton(/^work 1/)));
    const t = await screen.findByRole('table', { name: 'Work items' });
    const row = within(t).getAllByRole('row')[1];
    expect(row.textContent).toContain('evict');
    expect(row.textContent).toContain('half done');
    expect(row.textContent).toContain('2');
    fireEvent.click(screen.getByRole('button', { name: 'Close Work' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Work items' })).toBeNull());
  });

  it('work: the items are asked once when the panel opens, and again only when an append changes them', async () => {
    const w = new SessionWriter()
      .header()
      .message('u1', 'h', 'user', [{ type: 'text', text: 'Evict by size.' }])
      .add('w1', 'u1', 'work', { work: { work_id: 'evict', event: 'opened', state: 'open', detail: 'evict by size' } });
    const api = await renderOnBackend({ written: { work: w }, hash: sessionHash('work') });
    const asked = () => api.calls.filter((c) => c.method === 'getWork').length;
    // The bar shows the count the open carried; nothing asked for the items while the panel is closed.
    const button = await waitFor(() => barButton(/^work 1/));
    await waitFor(() => expect(document.querySelector('.leaf-panes[data-leaf-id="w1"]')).not.toBeNull());
    expect(asked()).toBe(0);
    fireEvent.click(button);
    const t = await screen.findByRole('table', { name: 'Work items' });
    expect(within(t).getAllByRole('row')[1].textContent).toContain('evict by size');
    expect(asked()).toBe(1);
    // An append without a work entry leaves the items as they are: not asked again.
    api.appendLines(api.keyOf('work'), w.message('a1', 'w1', 'assistant', [{ type: 'text', text: 'On it.' }]).take());
    await waitFor(() => expect(api.events.some((e) => e.type === 'session' && e.newIds.includes('a1'))).toBe(true));
    // A live work event updates the open panel.
    api.appendLines(
      api.keyOf('work'),
      w
        .add('w2', 'a1', 'work', { work: { work_id: 'evict', event: 'done', state: 'closed', detail: 'evicted' } })
        .add('w3', 'w2', 'work', { work: { work_id: 'log', event: 'opened', state: 'open' } })
        .take(),
    );
    await waitFor(() => barButton(/^work 2/));
    const rows = await waitFor(() => {
      const r = within(screen.getByRole('table', { name: 'Work items' })).getAllByRole('row');
      expect(r).toHaveLength(3);
      return r;
    });
    expect(rows[1].textContent).toContain('evicted');
    expect(rows[2].textContent).toContain('log');
    expect(asked()).toBe(2);
  });

  it('work: an answer for the session shown before is never shown for the next one', async () => {
    const session = (id: string) =>
      new SessionWriter()
        .header()
        .message('u1', 'h', 'user', [{ type: 'text', text: `Plan ${id}.` }])
        .add('w1', 'u1', 'work', { work: { work_id: id, event: 'opened', state: 'open', detail: `${id} detail` } });
    // The items' answers wait until the test lets each go, in the order it chooses.
    const held: { key: string; go: () => void }[] = [];
    const landed: string[] = [];
    const api = await renderOnBackend({
      written: { one: session('alpha'), two: session('beta') },
      hash: sessionHash('one'),
      before: (a) => {
        const ask = a.getWork.bind(a);
        a.getWork = async (req, opts) => {
          const answer = await ask(req, opts);
          await new Promise<void>((go) => held.push({ key: req.key, go }));
          landed.push(req.key);
          return answer;
        };
      },
    });
    fireEvent.click(await waitFor(() => barButton(/^work 1/)));
    await waitFor(() => expect(held.map((h) => h.key)).toEqual([api.keyOf('one')]));
    act(() => useAppStore.getState().selectSession(api.keyOf('two')));
    await waitFor(() => expect(held.map((h) => h.key)).toEqual([api.keyOf('one'), api.keyOf('two')]));
    // The first session's answer lands while the second is shown: it is not drawn.
    held[0].go();
    await waitFor(() => expect(landed).toEqual([api.keyOf('one')]));
    await act(async () => {}); // the panel's handler of that answer has run
    expect(screen.queryByRole('table', { name: 'Work items' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Work' }).textContent).toContain('loading');
    held[1].go();
    const t = await screen.findByRole('table', { name: 'Work items' });
    expect(t.textContent).toContain('beta detail');
    expect(t.textContent).not.toContain('alpha');
  });
});
