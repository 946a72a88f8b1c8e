// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createBackendApi } from '../test-support/backend-api';
import { press, renderOnBackend } from '../test-support/render-backend';
import { groupSessions } from './group-sessions';

const nav = () => screen.getByRole('navigation', { name: 'Library' });

describe('library sidebar', () => {
  it('groups sessions agent → cwd, newest first', async () => {
    // The demo home: agent vak's newest session is in "facturé" (Nov 25); reviewer has one, older.
    const api = await createBackendApi({ demoHome: true });
    try {
      const g = groupSessions(await api.listSessions({}));
      expect(g.map((a) => a.agent)).toEqual(['vak', 'reviewer']);
      expect(g[0].cwds.map((c) => c.cwd)).toEqual([
        '/home/ana/Projets/facturé',
        '/home/ana/projects/vak-explorer',
        '/home/ana/projects/vak',
      ]);
      const times = g[0].cwds[2].sessions.map((s) => s.lastTs ?? '');
      expect(times).toEqual([...times].sort().reverse());
    } finally {
      await api.close();
    }
  });

  it('shows the demo label, badges and live dot, and filters', async () => {
    // damaged.jsonl has 8 warnings; an agent holds linear.jsonl's lock.
    await renderOnBackend({
      fixtures: ['branching', 'linear', 'damaged'],
      isDemo: true,
      label: 'Demo home (bundled)',
      locked: ['linear'],
    });
    expect(await screen.findByText('Demo home (bundled)')).toBeTruthy();
    await within(nav()).findByText('List the TODO comments under src/.');
    const live = within(nav()).getAllByLabelText('live: an agent holds the lock');
    expect(live.map((d) => d.closest('button')?.getAttribute('title'))).toEqual([
      expect.stringMatching(/linear\.jsonl$/),
    ]);
    // A small file is read whole when listed: its 8 warnings (fixtures README) are counted at once.
    const warned = within(nav()).getAllByLabelText(/warnings$/);
    expect(warned.map((d) => [d.getAttribute('aria-label'), d.closest('button')?.getAttribute('title')])).toEqual([
      ['8 warnings', expect.stringMatching(/damaged\.jsonl$/)],
    ]);

    press('/');
    const filter = screen.getByLabelText('Filter sessions');
    expect(document.activeElement).toBe(filter);
    fireEvent.change(filter, { target: { value: 'parses_empty' } });
    expect(within(nav()).queryByText('List the TODO comments under src/.')).toBeNull();
    expect(within(nav()).getByText(/^The test `parses_empty_input` fails/)).toBeTruthy();
    fireEvent.change(filter, { target: { value: 'nothing-matches' } });
    expect(within(nav()).getByText('No session matches the filter.')).toBeTruthy();
  });

  it('labels a real home by its label, not as demo', async () => {
    await renderOnBackend({ fixtures: ['branching'], label: '~/.vak' });
    expect(await screen.findByText('~/.vak')).toBeTruthy();
    expect(screen.queryByText('Demo home (bundled)')).toBeNull();
  });

  it('opens a session on click and puts it in the URL', async () => {
    const api = await renderOnBackend({ fixtures: ['branching', 'linear'] });
    fireEvent.click(await within(nav()).findByText('List the TODO comments under src/.'));
    await waitFor(() => expect(document.querySelector('.tree-row[data-entry-id="e0013"]')).not.toBeNull());
    expect(decodeURIComponent(window.location.hash)).toContain(`s=${api.keyOf('branching')}`);
  });

  it('says the sessions are loading until the library has answered, not that there are none', async () => {
    // A page opened on a session holds its library's requests until its first screen is drawn.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await renderOnBackend({
      fixtures: ['branching'],
      before: (api) => {
        const list = api.listSessions.bind(api);
        api.listSessions = (req, opts) => held.then(() => list(req, opts));
      },
    });
    expect(await within(nav()).findByText('Loading the sessions…')).toBeTruthy();
    expect(within(nav()).queryByText('No sessions.')).toBeNull();
    release();
    await within(nav()).findByText('List the TODO comments under src/.');
    expect(within(nav()).queryByText('Loading the sessions…')).toBeNull();
  });
});
