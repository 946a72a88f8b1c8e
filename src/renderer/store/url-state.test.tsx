// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { renderOnBackend, sessionHash, treeRow } from '../test-support/render-backend';
import { useAppStore } from './app-store';
import { formatUrlState, parseUrlState, type UrlState } from './url-state';

const EMPTY: UrlState = {
  session: null,
  leaf: null,
  plan: 'auto',
  profile: DEFAULT_PROFILE,
  overrides: {},
  panels: [],
  compare: null,
};

describe('URL state encoding', () => {
  it('round-trips everything a link carries, and keeps defaults out', () => {
    const s: UrlState = {
      session: 'agents/vak/sessions/abc/s.jsonl',
      leaf: 'e0009',
      plan: 'none',
      profile: { window: 1000, reserve: 10, bytes_per_token: 3 },
      overrides: { e0003: { fidelity: 'card' }, 'odd,id:%': { fidelity: 'packet', packet_id: 'p:1,2' } },
      panels: ['usage', 'plan'],
      compare: {
        mode: 'leaf',
        leafB: 'e0013',
        planB: 'auto',
        profileB: { window: 3000, reserve: 500, bytes_per_token: 4 },
        overridesB: { e0010: { fidelity: 'full' } },
        diff: true,
      },
    };
    const hash = formatUrlState(s);
    expect(hash.startsWith('#v=2&')).toBe(true);
    expect(parseUrlState(hash)).toEqual(s);
    // Two plans on one leaf: B follows A's profile when it has none of its own.
    const plans: UrlState = {
      ...EMPTY,
      session: 'k',
      compare: { mode: 'plan', leafB: null, planB: 'none', profileB: null, overridesB: {}, diff: false },
    };
    expect(parseUrlState(formatUrlState(plans))).toEqual(plans);
    expect(formatUrlState(EMPTY)).toBe('');
  });

  it('keeps an override whose turn id is __proto__ as an own key', () => {
    const s: UrlState = { ...EMPTY, session: 'k', overrides: JSON.parse('{"__proto__":{"fidelity":"full"}}') };
    const back = parseUrlState(formatUrlState(s));
    expect(Object.hasOwn(back.overrides, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(back.overrides)).toBe(Object.prototype);
  });

  it('reads a version-1 link (no v) and ignores the parts it did not have', () => {
    const u = parseUrlState('#s=k&leaf=e1&plan=none&w=5000&r=0&cmp=plan&ov=e1:card');
    expect(u).toEqual({
      ...EMPTY,
      session: 'k',
      leaf: 'e1',
      plan: 'none',
      profile: { ...DEFAULT_PROFILE, window: 5000, reserve: 0 },
    });
    // A version this build does not know: only the version-1 parts are read.
    expect(parseUrlState('#v=9&s=k&cmp=plan').compare).toBeNull();
  });

  it('ignores invalid parts, one by one, without throwing', () => {
    const bad = [
      '#v=2&s=k&w=abc&b=0',
      '#v=2&s=k&w=1000&r=1000', // reserve not below the window
      '#v=2&s=k&w=0&r=0',
      '#v=2&s=k&b=0',
      '#v=2&s=k&w=99999999999',
    ];
    for (const h of bad) expect(parseUrlState(h).profile).toEqual(DEFAULT_PROFILE);
    const u = parseUrlState(
      '#v=2&s=k&ov=e1:card,%E0%A4%A:full,e2:bogus,e3:packet:,e4:full:x,:card,e5:packet:p9&panels=plan,keys,nope,__proto__&cmp=sideways&diff=1',
    );
    expect(u.overrides).toEqual({ e1: { fidelity: 'card' }, e5: { fidelity: 'packet', packet_id: 'p9' } });
    expect(u.panels).toEqual(['plan']);
    expect(u.compare).toBeNull();
    const c = parseUrlState('#v=2&s=k&cmp=plan&bplan=maybe&bw=100&br=200&bb=4&bov=%');
    expect(c.compare).toEqual({
      mode: 'plan',
      leafB: null,
      planB: 'none',
      profileB: null,
      overridesB: {},
      diff: false,
    });
    expect(parseUrlState(`#v=2&leaf=${'x'.repeat(600)}`).leaf).toBeNull();
    expect(() => parseUrlState('#%%%&&==&v=2&s=%E0')).not.toThrow();
  });
});

describe('URL state in the app', () => {
  it('restores session, leaf, plan, overrides, panels and compare from the hash on load', async () => {
    const api = await renderOnBackend({
      fixtures: ['linear'],
      hash: (a) =>
        `${sessionHash('linear', 'e0019')(a)}&v=2&plan=none&w=5000&r=0&ov=e0003:card&panels=plan&cmp=plan&bplan=auto&bw=600&br=0&bb=4&diff=1`,
    });
    await waitFor(() => expect(treeRow('e0019').textContent).toContain('▶ selected'));
    await waitFor(() => {
      const reqs = api.calls.filter((c) => c.method === 'getLeafView').map((c) => c.req);
      expect(reqs).toContainEqual(
        expect.objectContaining({
          key: api.keyOf('linear'),
          leaf: 'e0019',
          plan: 'none',
          profile: { window: 5000, reserve: 0, bytes_per_token: 4 },
          overrides: { e0003: { fidelity: 'card' } },
        }),
      );
      expect(reqs).toContainEqual(
        expect.objectContaining({ plan: 'auto', profile: { window: 600, reserve: 0, bytes_per_token: 4 } }),
      );
    });
    expect(screen.getByRole('table', { name: 'Plan rows' })).toBeTruthy();
    expect(await screen.findByLabelText('Text diff')).toBeTruthy();
    expect((screen.getByLabelText('B window') as HTMLInputElement).value).toBe('600');
    expect(useAppStore.getState().compare).toMatchObject({ open: true, mode: 'plan', planB: 'auto', diff: true });
  });

  it('a leaf selection is a new history entry; other changes replace the current one; Back restores', async () => {
    const api = await renderOnBackend({ fixtures: ['branching'], hash: sessionHash('branching') });
    await waitFor(() => expect(treeRow('e0013')).toBeTruthy());
    const before = window.history.length;
    fireEvent.click(treeRow('e0009'));
    await waitFor(() => expect(window.location.hash).toContain('leaf=e0009'));
    expect(window.history.length).toBe(before + 1);
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'none' } });
    await waitFor(() => expect(window.location.hash).toContain('plan=none'));
    expect(window.history.length).toBe(before + 1);
    fireEvent.click(treeRow('e0005'));
    await waitFor(() => expect(window.location.hash).toContain('leaf=e0005'));
    expect(window.history.length).toBe(before + 2);

    window.history.back();
    await waitFor(() => expect(treeRow('e0009').textContent).toContain('▶ selected'));
    expect(useAppStore.getState().plan).toBe('none');
    expect(window.history.length).toBe(before + 2); // restoring wrote no new entry
    window.history.forward();
    await waitFor(() => expect(treeRow('e0005').textContent).toContain('▶ selected'));
    // The row is marked before the panes ask for their leaf view (that call may come a moment later).
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'getLeafView').at(-1)?.req).toMatchObject({ leaf: 'e0005' }),
    );
  });

  it('follows a pasted link (hashchange)', async () => {
    const api = await renderOnBackend({ fixtures: ['branching'], hash: sessionHash('branching') });
    await waitFor(() => expect(treeRow('e0013')).toBeTruthy());
    window.location.hash = sessionHash('branching', 'e0005')(api);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await waitFor(() => expect(treeRow('e0005').textContent).toContain('▶ selected'));
  });
});
