// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { renderOnBackend, sessionHash, treeRow } from '../test-support/render-backend';
import { useAppStore } from './app-store';
import { formatUrlState, parseUrlState } from './url-state';

describe('URL state', () => {
  it('round-trips and keeps defaults out', () => {
    const s = {
      session: 'agents/vak/sessions/abc/s.jsonl',
      leaf: 'e0009',
      plan: 'none' as const,
      profile: { window: 1000, reserve: 10, bytes_per_token: 3 },
    };
    expect(parseUrlState(formatUrlState(s))).toEqual(s);
    expect(formatUrlState({ session: null, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE })).toBe('');
    expect(parseUrlState('#w=abc&b=0').profile).toEqual(DEFAULT_PROFILE);
  });

  it('restores session, leaf and plan from the hash on load', async () => {
    const api = await renderOnBackend({
      fixtures: ['branching'],
      hash: (a) => `${sessionHash('branching', 'e0009')(a)}&plan=none&w=5000`,
    });
    await waitFor(() => expect(treeRow('e0009').textContent).toContain('▶ selected'), { timeout: 10_000 });
    await waitFor(() =>
      expect(document.querySelector('.tree-row.cursor')?.getAttribute('data-entry-id')).toBe('e0009'),
    );
    const req = api.calls.filter((c) => c.method === 'getLeafView').at(-1)!.req;
    expect(req).toMatchObject({ key: api.keyOf('branching'), leaf: 'e0009', plan: 'none', profile: { window: 5000 } });
    expect(useAppStore.getState().plan).toBe('none');
  });

  it('follows a hash change (back/forward or a pasted link)', async () => {
    const api = await renderOnBackend({ fixtures: ['branching'], hash: sessionHash('branching') });
    await waitFor(() => expect(treeRow('e0013')).toBeTruthy(), { timeout: 10_000 });
    window.location.hash = sessionHash('branching', 'e0005')(api);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await waitFor(() => expect(treeRow('e0005').textContent).toContain('▶ selected'));
  });
});
