/**
 * The explorer's one window. Its page is untrusted in the sense that it shows
 * ledger content: it runs sandboxed, isolated from the preload, without Node,
 * and reaches the main process only through the preload's `window.vak`.
 */
import { BrowserWindow, type WebPreferences } from 'electron';
import { guardNavigation } from './navigation-guard';

/** The webPreferences of the explorer window (every security-relevant one spelled out). */
export function explorerWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    // A desktop app loads its page once per launch. Chromium's default makes a script's code
    // cache on its second load and uses it from the third: the second launch would pay for
    // making it on its way to the first screen. Made on the first load (app:// has the
    // codeCache privilege, app-protocol.ts), every later launch starts from compiled code.
    v8CacheOptions: 'bypassHeatCheck',
  };
}

export interface MainWindowOptions {
  preloadPath: string;
  /** app://explorer/ in a build, the dev server's URL in `npm run dev`. */
  url: string;
  isOwnUrl(url: string): boolean;
  /** The window icon (Linux and Windows show it; macOS uses the bundle's). */
  iconPath?: string;
}

/** Creates the hardened explorer window and starts loading its page. */
export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 720,
    minHeight: 480,
    title: 'vak explorer',
    ...(opts.iconPath ? { icon: opts.iconPath } : {}),
    show: false,
    webPreferences: explorerWebPreferences(opts.preloadPath),
  });
  guardNavigation(win.webContents, opts.isOwnUrl);
  win.once('ready-to-show', () => win.show());
  // A page that fails to load would otherwise leave an invisible window behind.
  win.webContents.once('did-fail-load', () => win.show());
  win.loadURL(opts.url).catch(() => {});
  return win;
}
