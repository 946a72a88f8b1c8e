// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEMO_HOME } from '../api/fake-data';
import { press, renderApp } from '../test-support/render-app';
import { groupSessions } from './group-sessions';
import { demoSessions } from '../api/fake-data';

describe('library sidebar', () => {
  it('groups sessions agent → cwd, newest first', () => {
    const g = groupSessions(demoSessions());
    expect(g.map((a) => a.agent)).toEqual(['vak', 'reviewer']);
    expect(g[0].cwds.map((c) => c.cwd)).toEqual(['/home/ana/projects/mdlite', '/home/ana/src/other']);
    expect(g[0].cwds[0].sessions.map((s) => s.title)).toEqual(['Add tests for the parser', 'List the TODO comments']);
  });

  it('shows the demo label, badges and live dot, and filters', async () => {
    renderApp();
    expect(await screen.findByText('Demo home (bundled)')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Library' });
    await within(nav).findByText('Add tests for the parser');
    expect(within(nav).getByLabelText('live: an agent holds the lock')).toBeTruthy();
    expect(within(nav).getByLabelText('1 warnings')).toBeTruthy();
    // Before opening, a torn tail is all the library can tell of a damaged session; while an
    // agent holds the file, a missing \n is a write in progress and gets no badge.
    expect(within(nav).getAllByLabelText(/^torn tail/)).toHaveLength(1);
    expect(within(nav).getAllByText('~/projects/mdlite', { exact: false })).toHaveLength(2);

    press('/');
    const filter = screen.getByLabelText('Filter sessions');
    expect(document.activeElement).toBe(filter);
    fireEvent.change(filter, { target: { value: 'lexer' } });
    expect(within(nav).queryByText('Add tests for the parser')).toBeNull();
    expect(within(nav).getByText('Refactor the lexer')).toBeTruthy();
    fireEvent.change(filter, { target: { value: 'nothing-matches' } });
    expect(within(nav).getByText('No session matches the filter.')).toBeTruthy();
  });

  it('labels a real home by its label, not as demo', async () => {
    renderApp({ home: { ...DEMO_HOME, isDemo: false, label: '~/.vak' } });
    expect(await screen.findByText('~/.vak')).toBeTruthy();
    expect(screen.queryByText('Demo home (bundled)')).toBeNull();
  });

  it('opens a session on click and puts it in the URL', async () => {
    renderApp();
    fireEvent.click(await screen.findByText('List the TODO comments'));
    await screen.findByText('List the TODO comments under src/.', { selector: '.tree-row .row-text' });
    expect(decodeURIComponent(window.location.hash)).toContain('s=agents/vak/sessions/abc123/sess-a.jsonl');
  });
});
