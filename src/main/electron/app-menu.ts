/**
 * The application menu: File → Open… (CmdOrCtrl+O), then Electron's standard Edit, View and Window
 * menus (their roles keep copy, paste, reload, zoom and the developer tools where users expect them).
 */
import type { MenuItemConstructorOptions } from 'electron';

/** The menu's template (built with `Menu.buildFromTemplate`). */
export function appMenuTemplate(platform: NodeJS.Platform, onOpen: () => void): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      // The page's own Mod+O action (file-actions.ts) asks for the dialog: the accelerator is shown
      // here, not registered, so one key press opens one dialog.
      { label: 'Open…', accelerator: 'CmdOrCtrl+O', registerAccelerator: false, click: () => onOpen() },
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  return [
    ...(mac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    file,
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}

/** The Open dialog's options: ledgers first, any file on request. */
export const OPEN_DIALOG_OPTIONS = {
  title: 'Open a vak ledger',
  properties: ['openFile', 'multiSelections'] as Array<'openFile' | 'multiSelections'>,
  filters: [
    { name: 'vak ledgers (*.jsonl)', extensions: ['jsonl'] },
    { name: 'All files', extensions: ['*'] },
  ],
};
