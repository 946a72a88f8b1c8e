/**
 * The IPC side of DesktopFiles (preload → main): the window asks for the Open dialog, or hands over
 * the paths of files dropped on it. Heard only from the main frame of a window showing our own page
 * (as ipc-adapter.ts hears the API).
 */
import { ipcMain, type IpcMainEvent } from 'electron';
import { IPC_OPEN_DIALOG_CHANNEL, IPC_OPEN_DROPPED_CHANNEL } from '../../shared/api-methods';

/** Most files one drop may open. */
const MAX_DROPPED = 64;

export interface OpenFilesIpcHandlers {
  showOpenDialog(): void;
  openDropped(paths: string[]): void;
}

/** Registers the two channels; returns a function that removes them. */
export function registerOpenFilesIpc(h: OpenFilesIpcHandlers, isOwnUrl: (url: string) => boolean): () => void {
  const trusted = (event: IpcMainEvent): boolean => {
    const frame = event.senderFrame;
    return !!frame && frame.parent === null && frame === event.sender.mainFrame && isOwnUrl(frame.url);
  };
  const onDialog = (event: IpcMainEvent): void => {
    if (trusted(event)) h.showOpenDialog();
  };
  const onDropped = (event: IpcMainEvent, raw: unknown): void => {
    if (!trusted(event) || !Array.isArray(raw)) return;
    const paths = raw.filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length <= 4096);
    if (paths.length > 0) h.openDropped(paths.slice(0, MAX_DROPPED));
  };
  ipcMain.on(IPC_OPEN_DIALOG_CHANNEL, onDialog);
  ipcMain.on(IPC_OPEN_DROPPED_CHANNEL, onDropped);
  return () => {
    ipcMain.removeListener(IPC_OPEN_DIALOG_CHANNEL, onDialog);
    ipcMain.removeListener(IPC_OPEN_DROPPED_CHANNEL, onDropped);
  };
}
