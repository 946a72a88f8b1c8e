import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, FakeWebContents, shell } from './testing/electron-fake';

vi.mock('electron', async () => (await import('./testing/electron-fake')).electronFake);

const { createMainWindow, explorerWebPreferences } = await import('./window');
const { guardNavigation } = await import('./navigation-guard');
const { isSafeExternalUrl } = await import('./external-links');
const { rendererSource } = await import('./renderer-source');

const source = rendererSource(true, undefined);
const PRELOAD = '/app/out/preload/index.cjs';

function makeWindow() {
  return createMainWindow({
    preloadPath: PRELOAD,
    url: source.url,
    isOwnUrl: source.isOwnUrl,
    iconPath: '/app/resources/icon.png',
  }) as unknown as FakeBrowserWindow;
}

beforeEach(() => {
  FakeBrowserWindow.instances = [];
  shell.openExternal.mockClear();
});

describe('the explorer window', () => {
  it('is created sandboxed, isolated, without Node, with our preload', () => {
    const win = makeWindow();
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toEqual(explorerWebPreferences(PRELOAD));
    expect(win.options.icon).toBe('/app/resources/icon.png');
    expect(prefs).toMatchObject({
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      v8CacheOptions: 'bypassHeatCheck',
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('partition');
  });

  it('loads app://explorer/, never file://', () => {
    const win = makeWindow();
    expect(win.loadURL).toHaveBeenCalledWith('app://explorer/');
    expect(source.url.startsWith('file:')).toBe(false);
  });

  it('uses the dev server only unpackaged and only on loopback', () => {
    expect(rendererSource(false, 'http://localhost:5173/').url).toBe('http://localhost:5173/');
    expect(rendererSource(true, 'http://localhost:5173/').url).toBe('app://explorer/');
    expect(rendererSource(false, 'https://evil.example/').url).toBe('app://explorer/');
    expect(rendererSource(false, 'file:///etc/').url).toBe('app://explorer/');
  });

  it('recognises its own origin by parsed parts, not by prefix', () => {
    expect(source.isOwnUrl('app://explorer/index.html')).toBe(true);
    expect(source.isOwnUrl('app://explorer.evil/')).toBe(false);
    expect(source.isOwnUrl('app://other/')).toBe(false);
    expect(source.isOwnUrl('https://explorer/')).toBe(false);
    expect(source.isOwnUrl('not a url')).toBe(false);
    const dev = rendererSource(false, 'http://localhost:5173/');
    expect(dev.isOwnUrl('http://localhost:5173/x')).toBe(true);
    expect(dev.isOwnUrl('http://localhost:5174/')).toBe(false);
  });
});

describe('navigation', () => {
  it('denies every navigation, and opens http(s) targets in the browser instead', () => {
    const wc = makeWindow().webContents;
    expect(wc.fire('will-navigate', 'https://example.com/docs')).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/docs');
    expect(wc.fire('will-navigate', 'app://explorer/other')).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('never hands non-http(s) URLs to the OS', () => {
    const wc = makeWindow().webContents;
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'vscode://x', 'ms-msdt:/id']) {
      expect(wc.fire('will-navigate', url)).toBe(true);
    }
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('denies redirects off our origin', () => {
    const wc = makeWindow().webContents;
    expect(wc.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(wc.fire('will-redirect', 'app://explorer/index.html')).toBe(false);
  });

  it('denies window.open, opening a safe link externally', () => {
    const wc = makeWindow().webContents;
    expect(wc.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/');
    expect(wc.windowOpenHandler!({ url: 'app://explorer/' })).toEqual({ action: 'deny' });
    expect(wc.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('refuses <webview>', () => {
    expect(makeWindow().webContents.fire('will-attach-webview', 'https://example.com/')).toBe(true);
  });

  it('guards a webContents once, however often asked', () => {
    const wc = new FakeWebContents();
    guardNavigation(wc as never, source.isOwnUrl);
    guardNavigation(wc as never, source.isOwnUrl);
    expect(wc.listenerCount('will-navigate')).toBe(1);
    wc.fire('will-navigate', 'https://example.com/');
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });
});

describe('external URL check', () => {
  it.each([
    ['https://example.com/a?b#c', true],
    ['http://example.com', true],
    ['https://user:pw@example.com/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['data:text/html,hi', false],
    ['//example.com', false],
    ['https://' + 'a'.repeat(5000) + '.com', false],
  ])('%s → %s', (url, ok) => expect(isSafeExternalUrl(url)).toBe(ok));
});
