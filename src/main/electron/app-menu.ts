/**
 * The application menu: File → Open… (CmdOrCtrl+O) and the secret survey's checkbox, then Electron's
 * standard Edit, View and Window menus (their roles keep copy, paste, reload, zoom and the developer tools where users expect them).
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { SurveyMenuState } from './survey-menu';

/** The secret survey's checkbox: its state (null until known) and what a click asks for. */
export interface SurveyMenuItem {
  state: SurveyMenuState;
  toggle(on: boolean): void;
}

/** The menu's label of the survey setting (the library's checkbox says the same). */
export const SURVEY_MENU_LABEL = 'Count Secrets in Sessions Never Opened';

/** The menu's template (built with `Menu.buildFromTemplate`; built again when the survey's state changes). */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  onOpen: () => void,
  survey: SurveyMenuItem,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const on = survey.state?.on === true;
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      // The page's own Mod+O action (file-actions.ts) asks for the dialog: the accelerator is shown
      // here, not registered, so one key press opens one dialog.
      { label: 'Open…', accelerator: 'CmdOrCtrl+O', registerAccelerator: false, click: () => onOpen() },
      { type: 'separator' },
      {
        label: SURVEY_MENU_LABEL,
        type: 'checkbox',
        checked: on,
        enabled: survey.state !== null,
        click: () => survey.toggle(!on),
      },
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
