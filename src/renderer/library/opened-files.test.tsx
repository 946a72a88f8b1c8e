// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../test-support/fixtures';
import { useAppStore } from '../store/app-store';
import { renderOnBackend } from '../test-support/render-backend';
import { refusalNotice } from './use-opened-files';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function outside(name: string, fixture = 'linear.jsonl'): string {
  const d = mkdtempSync(join(tmpdir(), 'vak-opened-ui-'));
  dirs.push(d);
  const p = join(d, name);
  copyFileSync(join(FIXTURES, fixture), p);
  return p;
}
const nav = () => screen.getByRole('navigation', { name: 'Library' });

describe('Opened files in the library', () => {
  it('lists a file opened by path apart, with its path, outside the agent groups', async () => {
    const file = outside('colleague.jsonl');
    await renderOnBackend({ fixtures: ['branching'], openFiles: [file] });
    const list = await within(nav()).findByRole('list', { name: 'Opened files' });
    expect(within(list).getByText(file)).toBeTruthy();
    expect(list.querySelector('[data-session-key="opened/0.jsonl"]')).not.toBeNull();
    // Not also under an agent: one row for it in the whole library.
    expect(nav().querySelectorAll('[data-session-key="opened/0.jsonl"]')).toHaveLength(1);
  });

  it('shows the first file an opening gave, and says why another was refused', async () => {
    const data = mkdtempSync(join(tmpdir(), 'vak-opened-data-'));
    dirs.push(data);
    const api = await renderOnBackend({ fixtures: ['branching'], userDataDir: data, openByPath: true });
    await within(nav()).findAllByRole('button', { name: /./ });
    const notes = join(data, 'notes.jsonl');
    writeFileSync(notes, 'plain words\n');
    const file = outside('theirs.jsonl');
    await api.openFiles([notes, file]);
    await waitFor(() => expect(useAppStore.getState().sessionKey).toBe('opened/0.jsonl'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(`${notes} is not a vak ledger`);
    fireEvent.click(within(alert).getByRole('button', { name: 'dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
    // It is on the Recent list now (shown only for files not open already).
    await waitFor(() => expect(useAppStore.getState().recentFiles.map((f) => f.path)).toEqual([file]));
  });

  it('puts every refusal of one opening in one notice', () => {
    expect(refusalNotice([{ path: '/a', key: 'opened/0.jsonl' }])).toBeNull();
    expect(
      refusalNotice([
        { path: '/a', problem: '/a is a directory' },
        { path: '/b', problem: '/b does not exist' },
      ]),
    ).toBe('/a is a directory\n/b does not exist');
  });
});
