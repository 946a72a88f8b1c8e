import { describe, expect, it, vi } from 'vitest';
import { appMenuTemplate, SURVEY_MENU_LABEL } from './app-menu';
import { filesFromArgv } from './argv-files';
import { FileOpener } from './file-opener';

describe('filesFromArgv', () => {
  it('takes the files after the executable (packaged) or the app path (development), absolute', () => {
    expect(
      filesFromArgv(['/opt/vak-explorer', 'a.jsonl', '/tmp/b.jsonl'], { isPackaged: true, cwd: '/home/ana' }),
    ).toEqual(['/home/ana/a.jsonl', '/tmp/b.jsonl']);
    expect(
      filesFromArgv(['/x/electron', '/src/vak-explorer', '../c.jsonl'], { isPackaged: false, cwd: '/home/ana/w' }),
    ).toEqual(['/home/ana/c.jsonl']);
    expect(filesFromArgv(['/x/electron', '.'], { isPackaged: false, cwd: '/home/ana' })).toEqual([]);
  });

  it('skips the switches Chromium adds, except after --', () => {
    const argv = ['/opt/vak', '--allow-file-access-from-files', '--enable-features=X', 'a.jsonl', '--', '-odd.jsonl'];
    expect(filesFromArgv(argv, { isPackaged: true, cwd: '/w' })).toEqual(['/w/a.jsonl', '/w/-odd.jsonl']);
  });
});

describe('FileOpener', () => {
  it('keeps files that came before the backend, opens them at start, then opens at once', async () => {
    const f = new FileOpener();
    expect(await f.open(['/a.jsonl'])).toEqual([]);
    const openFiles = vi.fn(async (paths: string[]) => paths.map((path, n) => ({ path, key: `opened/${n}.jsonl` })));
    const focusWindow = vi.fn();
    expect(await f.start({ openFiles, focusWindow, failed: vi.fn() })).toEqual([
      { path: '/a.jsonl', key: 'opened/0.jsonl' },
    ]);
    expect(focusWindow).not.toHaveBeenCalled();
    await f.open(['/b.jsonl'], { focus: true });
    expect(openFiles).toHaveBeenLastCalledWith(['/b.jsonl']);
    expect(focusWindow).toHaveBeenCalledTimes(1);
    await f.open([]);
    expect(openFiles).toHaveBeenCalledTimes(2);
  });

  it('says so when the backend could not open anything', async () => {
    const f = new FileOpener();
    const failed = vi.fn();
    await f.start({ openFiles: () => Promise.reject(new Error('the reader stopped')), focusWindow: vi.fn(), failed });
    expect(await f.open(['/a.jsonl'])).toEqual([]);
    expect(failed).toHaveBeenCalledWith('could not open /a.jsonl: the reader stopped');
  });
});

describe('appMenuTemplate', () => {
  it('has File → Open… on CmdOrCtrl+O, which runs onOpen', () => {
    const onOpen = vi.fn();
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const file = appMenuTemplate(platform, onOpen, { state: null, toggle: vi.fn() }).find((m) => m.label === 'File');
      const items = file?.submenu as { label?: string; accelerator?: string; click?: () => void }[];
      const open = items.find((i) => i.label === 'Open…');
      expect(open?.accelerator).toBe('CmdOrCtrl+O');
      open?.click?.();
    }
    expect(onOpen).toHaveBeenCalledTimes(3);
  });

  it("has the secret survey's checkbox: disabled until known, ticked as the state says, a click asks the other", () => {
    const item = (state: { on: boolean; kept: boolean } | null, toggle = vi.fn()) => {
      const file = appMenuTemplate('linux', vi.fn(), { state, toggle }).find((m) => m.label === 'File');
      const items = file?.submenu as {
        label?: string;
        type?: string;
        checked?: boolean;
        enabled?: boolean;
        click?: () => void;
      }[];
      return items.find((i) => i.label === SURVEY_MENU_LABEL);
    };
    expect(item(null)).toMatchObject({ type: 'checkbox', enabled: false, checked: false });
    const toggle = vi.fn();
    expect(item({ on: true, kept: true }, toggle)).toMatchObject({ enabled: true, checked: true });
    item({ on: true, kept: true }, toggle)?.click?.();
    item({ on: false, kept: true }, toggle)?.click?.();
    expect(toggle.mock.calls).toEqual([[false], [true]]);
  });
});
