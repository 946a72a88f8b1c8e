/// <reference types="electron-vite/node" />
/**
 * Electron main entry: resolve the home, start the backend, serve the renderer
 * on app://, register IPC, open the window. Each concern lives in ./electron/.
 * The backend (ledger core, library, watcher) runs on a worker thread: this thread
 * only routes IPC, so a 100 MB session never freezes the windows.
 */
import { app, BrowserWindow, dialog, session } from 'electron';
import type { ApiBackend } from './api/api-backend';
import { appPaths } from './electron/app-paths';
import { registerAppScheme, serveAppProtocol } from './electron/app-protocol';
import { registerIpc, type IpcAdapter } from './electron/ipc-adapter';
import { guardNavigation } from './electron/navigation-guard';
import { rendererSource } from './electron/renderer-source';
import { applySessionPolicy } from './electron/session-policy';
import { createMainWindow } from './electron/window';
import { resolveHome } from './library/resolve-home';
import { contentSecurityPolicy } from './web/csp';
import { WorkerBackend } from './worker/worker-backend';
// electron-vite bundles the worker's entry on its own and gives its built path.
import backendWorkerPath from './worker/backend-worker?modulePath';

// Both must happen before `ready`.
registerAppScheme();
app.enableSandbox();

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

function openWindow(): void {
  const win = createMainWindow({
    preloadPath: paths.preload,
    url: source.url,
    isOwnUrl: source.isOwnUrl,
    iconPath: paths.icon,
  });
  ipc?.attach(win.webContents);
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
  // userData also holds the user's prices.json.
  const created = await WorkerBackend.create(
    { ...home, userDataDir: app.getPath('userData') },
    { entry: backendWorkerPath },
  );
  backend = created;
  ipc = registerIpc(created, source.isOwnUrl);
  openWindow();
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
