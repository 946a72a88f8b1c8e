import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir';
import { testBackendOptions } from '../../test-support/test-backend';
import type { ApiClient } from '../api/api-backend';
import { SETTINGS_FILE } from '../api/app-settings';
import { ExplorerBackend } from '../api/explorer-backend';
import { SurveyMenuSync, type SurveyMenuState } from './survey-menu';

const tempDir = useTempDir('vak-survey-menu-');
let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

/** A backend as the desktop app makes it (settings kept in `data`), on an empty home. */
async function desktopBackend(data: string): Promise<ExplorerBackend> {
  const home = tempDir();
  mkdirSync(join(home, 'agents'), { recursive: true });
  backend = await ExplorerBackend.create(
    testBackendOptions(home, { userDataDir: data, secretSurvey: true, keepSettings: true }),
  );
  return backend;
}

describe('the app menu’s survey checkbox', () => {
  it('shows the kept setting, and a click changes it where the windows hear it', async () => {
    const data = tempDir();
    writeFileSync(join(data, SETTINGS_FILE), JSON.stringify({ secretSurvey: false }));
    const b = await desktopBackend(data);
    const seen: SurveyMenuState[] = [];
    const menu = new SurveyMenuSync(b, (s) => seen.push(s));
    await menu.start();
    expect(menu.current()).toEqual({ on: false, kept: true });

    // A window subscribed to the library hears the menu's change.
    const window: ApiClient = { id: 'window', push: vi.fn() };
    await b.call('subscribe', { topic: 'library' }, window);
    expect(await menu.toggle(true)).toBeNull();
    expect(menu.current()).toEqual({ on: true, kept: true });
    expect(window.push).toHaveBeenCalledWith({ type: 'secretSurvey', survey: { on: true, kept: true } });
    expect(JSON.parse(readFileSync(join(data, SETTINGS_FILE), 'utf8'))).toMatchObject({ secretSurvey: true });
    expect(seen.at(-1)).toEqual({ on: true, kept: true });
    menu.stop();
  });

  it('follows a change made in a window', async () => {
    const b = await desktopBackend(tempDir());
    const menu = new SurveyMenuSync(b, () => undefined);
    await menu.start();
    expect(menu.current()?.on).toBe(true);
    await b.call('setSecretSurvey', { on: false }, { id: 'window', push: () => undefined });
    expect(menu.current()).toEqual({ on: false, kept: true });
    menu.stop();
  });

  it('draws the menu again with the unchanged state when the change fails', async () => {
    const b = await desktopBackend(tempDir());
    const seen: SurveyMenuState[] = [];
    const menu = new SurveyMenuSync(b, (s) => seen.push(s));
    await menu.start();
    await b.close();
    backend = null;
    const problem = await menu.toggle(false);
    expect(problem).toMatch(/./);
    expect(seen.at(-1)).toEqual({ on: true, kept: true });
  });
});
