/// <reference types="electron-vite/node" />
/**
 * Electron main entry: resolve the home, start the backend, serve the renderer
 * on app://, register IPC, open the window. Each concern lives in ./electron/.
 * The backend (ledger core, library, watcher) runs on a worker thread: this thread
 * only routes IPC, so a 100 MB session never freezes the windows.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, Menu, session, type WebContents } from 'electron';
import type { ApiBackend } from './api/api-backend';
import { appMenuTemplate, OPEN_DIALOG_OPTIONS } from './electron/app-menu';
import { appPaths } from './electron/app-paths';
import { filesFromArgv } from './electron/argv-files';
import { FileOpener } from './electron/file-opener';
import { registerOpenFilesIpc } from './electron/open-files-ipc';
import { registerAppScheme, serveAppProtocol } from './electron/app-protocol';
import { registerIpc, type IpcAdapter } from './electron/ipc-adapter';
import { guardNavigation } from './electron/navigation-guard';
import { rendererSource } from './electron/renderer-source';
import { applySessionPolicy } from './electron/session-policy';
import { SurveyMenuSync, type SurveyMenuState } from './electron/survey-menu';
import { createMainWindow } from './electron/window';
import { resolveHome } from './library/resolve-home';
import { contentSecurityPolicy } from './web/csp';
import { WorkerBackend } from './worker/worker-backend';
// electron-vite bundles the worker's entry on its own and gives its built path.
import backendWorkerPath from './worker/backend-worker?modulePath';

// One app per user: a second launch (a file manager's "Open with", `vak-explorer FILE`) hands its
// files to the running window and ends.
if (!app.requestSingleInstanceLock()) {
  app.quit();
  process.exit(0);
}

// Both must happen before `ready`.
registerAppScheme();
app.enableSandbox();

const opener = new FileOpener();
const argvContext = (cwd: string) => ({ isPackaged: app.isPackaged, cwd });
// The first launch's files wait for the backend (FileOpener.start).
void opener.open(filesFromArgv(process.argv, argvContext(process.cwd())));
app.on('second-instance', (_event, argv, cwd) => {
  if (BrowserWindow.getAllWindows().length === 0 && ipc) openWindow();
  void opener.open(filesFromArgv(argv, argvContext(cwd)), { focus: true });
});
// macOS hands files opened from the Finder (or dropped on the Dock icon) to the running app.
app.on('open-file', (event, path) => {
  event.preventDefault();
  void opener.open([path], { focus: true });
});

const paths = appPaths(import.meta.url, {
  isPackaged: app.isPackaged,
  appPath: app.getAppPath(),
  resourcesPath: process.resourcesPath,
});
const source = rendererSource(app.isPackaged, process.env['ELECTRON_RENDERER_URL']);
let backend: ApiBackend | null = null;
let ipc: IpcAdapter | null = null;

// Every webContents, including any we did not create on purpose, gets the same guards.
app.on('web-contents-created', (_event, contents) => guardNavigation(contents, source.isOwnUrl));

function openWindow(hash = ''): void {
  const win = createMainWindow({
    preloadPath: paths.preload,
    url: source.url + hash,
    isOwnUrl: source.isOwnUrl,
    iconPath: paths.icon,
  });
  ipc?.attach(win.webContents);
}

/** Shows the window (and brings it to the front). */
function focusWindow(): void {
  const win = BrowserWindow.getAllWindows()[0];
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

async function showOpenDialog(): Promise<void> {
  const win = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  const r = win
    ? await dialog.showOpenDialog(win, OPEN_DIALOG_OPTIONS)
    : await dialog.showOpenDialog(OPEN_DIALOG_OPTIONS);
  if (!r.canceled) await opener.open(r.filePaths);
}

/** The Save dialog for an export, on the window that asked; null when the user cancels. */
async function pickSavePath(contents: WebContents, fileName: string): Promise<string | null> {
  const win = BrowserWindow.fromWebContents(contents);
  const options = { defaultPath: join(app.getPath('downloads'), fileName) };
  const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
  return r.canceled || !r.filePath ? null : r.filePath;
}

async function start(): Promise<void> {
  const csp = contentSecurityPolicy({ dev: source.dev });
  applySessionPolicy(session.defaultSession, { csp, isOwnUrl: source.isOwnUrl });
  serveAppProtocol(paths.rendererDir, csp);
  const home = await resolveHome({
    env: process.env,
    userDataDir: app.getPath('userData'),
    bundledDemoDir: paths.bundledDemoDir,
  });
  // userData also holds the user's prices.json, and settings.json: the secret survey starts on
  // unless the user turned it off (kept across launches).
  const created = await WorkerBackend.create(
    { ...home, userDataDir: app.getPath('userData'), secretSurvey: true, keepSettings: true },
    { entry: backendWorkerPath },
  );
  backend = created;
  ipc = registerIpc(created, source.isOwnUrl, { pickSavePath });
  registerOpenFilesIpc(
    { showOpenDialog: () => void showOpenDialog(), openDropped: (p) => void opener.open(p) },
    source.isOwnUrl,
  );
  const setMenu = (state: SurveyMenuState): void => {
    const toggle = (on: boolean): void => {
      void surveyMenu.toggle(on).then((problem) => {
        if (problem !== null) dialog.showErrorBox('vak explorer could not change the setting', problem);
      });
    };
    const template = appMenuTemplate(process.platform, () => void showOpenDialog(), { state, toggle });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  const surveyMenu = new SurveyMenuSync(created, setMenu);
  setMenu(null);
  // A menu without its tick is still a menu: a failure here is said on stderr, the start goes on.
  surveyMenu.start().catch((e: unknown) => console.warn(`vak-explorer: the menu's survey setting: ${String(e)}`));
  // The first launch's files are opened before the window, which opens on the first of them.
  const first = await opener.start({
    openFiles: async (p) => {
      const outcomes = await created.openFiles(p);
      for (const o of outcomes) if ('key' in o) app.addRecentDocument(o.path);
      return outcomes;
    },
    focusWindow,
    failed: (message) => dialog.showErrorBox('vak explorer', message),
  });
  const shown = first.find((o) => 'key' in o);
  const refused = first.filter((o) => 'problem' in o).map((o) => ('problem' in o ? o.problem : ''));
  openWindow(shown && 'key' in shown ? `#s=${encodeURIComponent(shown.key)}` : '');
  if (refused.length > 0) dialog.showErrorBox('vak explorer could not open a file', refused.join('\n'));
}

app
  .whenReady()
  .then(start)
  .catch((e: unknown) => {
    dialog.showErrorBox('vak explorer could not start', e instanceof Error ? e.message : String(e));
    app.exit(1);
  });

app.on('activate', () => {
  if (ipc && BrowserWindow.getAllWindows().length === 0) openWindow();
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let closing = false;
app.on('will-quit', (event) => {
  if (closing || !backend) return;
  // Let the backend release watchers and file handles before the process ends.
  closing = true;
  event.preventDefault();
  ipc?.dispose();
  backend
    .close()
    .catch(() => {})
    .finally(() => app.quit());
});
