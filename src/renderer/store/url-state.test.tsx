// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { SESSION_A } from '../api/fake-data';
import { renderApp, treeRow } from '../test-support/render-app';
import { useAppStore } from './app-store';
import { formatUrlState, parseUrlState } from './url-state';

describe('URL state', () => {
  it('round-trips and keeps defaults out', () => {
    const s = {
      session: SESSION_A,
      leaf: 'e09',
      plan: 'none' as const,
      profile: { window: 1000, reserve: 10, bytes_per_token: 3 },
    };
    expect(parseUrlState(formatUrlState(s))).toEqual(s);
    expect(formatUrlState({ session: null, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE })).toBe('');
    expect(parseUrlState('#w=abc&b=0').profile).toEqual(DEFAULT_PROFILE);
  });

  it('restores session, leaf and plan from the hash on load', async () => {
    const api = renderApp({ hash: `#s=${encodeURIComponent(SESSION_A)}&leaf=e09&plan=none&w=5000` });
    await waitFor(() => expect(treeRow('e09').textContent).toContain('▶ selected'));
    await waitFor(() => expect(document.querySelector('.tree-row.cursor')?.getAttribute('data-entry-id')).toBe('e09'));
    const req = api.calls.filter((c) => c.method === 'getLeafView').at(-1)!.req;
    expect(req).toMatchObject({ key: SESSION_A, leaf: 'e09', plan: 'none', profile: { window: 5000 } });
    expect(useAppStore.getState().plan).toBe('none');
  });

  it('follows a hash change (back/forward or a pasted link)', async () => {
    renderApp({ hash: `#s=${encodeURIComponent(SESSION_A)}` });
    await waitFor(() => expect(treeRow('e13')).toBeTruthy());
    window.location.hash = `#s=${encodeURIComponent(SESSION_A)}&leaf=e05`;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await waitFor(() => expect(treeRow('e05').textContent).toContain('▶ selected'));
  });
});
