import type { StateCreator } from 'zustand';
import type { Api, RecentFile } from '../../shared/api';
import { BROWSER_OPEN_TEXT } from '../util/desktop-files';
import type { AppState, FilesSlice } from './types';

export const filesInitial = () => ({
  recentFiles: [],
  openByPath: false,
  fileNotice: null,
});

/** Files opened by path: the Recent list, whether this transport opens paths, and what opening said. */
export const createFilesSlice: StateCreator<AppState, [], [], FilesSlice> = (set) => ({
  ...filesInitial(),
  recentLoaded: (r) => set({ recentFiles: r.files, openByPath: r.openByPath }),
  showFileNotice: (fileNotice) => set({ fileNotice }),
});

/** Opens a file of the Recent list; what it gives arrives as an `opened` event (or a notice says why not). */
export async function openRecent(api: Api, state: AppState, f: RecentFile): Promise<void> {
  if (f.missing !== null) {
    state.showFileNotice(f.missing);
    return;
  }
  if (!state.openByPath) {
    state.showFileNotice(BROWSER_OPEN_TEXT);
    return;
  }
  try {
    await api.openRecentFile({ path: f.path });
  } catch (e) {
    state.showFileNotice(e instanceof Error ? e.message : String((e as { message?: unknown }).message ?? e));
  }
}
