/** Opening ledger files by path: File → Open… and the Recent list (docs/open-files.md). */
import { openRecent } from '../store/files-slice';
import type { AppState } from '../store/types';
import { BROWSER_OPEN_TEXT, desktopFiles } from '../util/desktop-files';
import type { Action } from './action';

export const fileActions: readonly Action[] = [
  {
    id: 'file.open',
    title: 'Open file…',
    keys: ['Mod+O'],
    run: ({ state }) => {
      const files = desktopFiles();
      if (files) files.showOpenDialog();
      else state.showFileNotice(BROWSER_OPEN_TEXT);
    },
  },
];

/** One palette action per Recent file (disabled when it is missing, with why). */
export function recentFileActions(state: AppState, shortPath: (p: string) => string): Action[] {
  return state.recentFiles.map((f) => ({
    id: `file.recent:${f.path}`,
    title: `Open recent file: ${shortPath(f.path)}`,
    group: 'Files',
    run: ({ api, state: s }) => openRecent(api, s, f),
    enabled: () => f.missing === null && state.openByPath,
  }));
}
