/**
 * A stand-in for the parts of the `electron` module that the main-process
 * adapters and the preload use, for `vi.mock('electron', …)`: it records what
 * they do and lets a test play the renderer's side.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

export class FakeFrame {
  constructor(
    public url: string,
    public parent: FakeFrame | null = null,
  ) {}
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  mainFrame: FakeFrame;
  destroyed = false;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;

  constructor(url = 'app://explorer/') {
    super();
    this.mainFrame = new FakeFrame(url);
  }

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(h: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = h;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
  /** Fires a navigation-style event the way Electron does; reports whether it was prevented. */
  fire(name: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    let prevented = false;
    this.emit(name, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loadURL = vi.fn(async (_url: string) => {});
  readonly show = vi.fn();
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.instances.push(this);
  }
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.instances;
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  listeners: new Map<string, Handler[]>(),
  handle: vi.fn((channel: string, h: Handler) => {
    if (ipcMain.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    ipcMain.handlers.set(channel, h);
  }),
  removeHandler: vi.fn((channel: string) => ipcMain.handlers.delete(channel)),
  on: vi.fn((channel: string, h: Handler) => {
    ipcMain.listeners.set(channel, [...(ipcMain.listeners.get(channel) ?? []), h]);
  }),
  removeListener: vi.fn((channel: string, h: Handler) => {
    ipcMain.listeners.set(
      channel,
      (ipcMain.listeners.get(channel) ?? []).filter((x) => x !== h),
    );
  }),
  /** Plays `ipcRenderer.invoke` from a frame of `sender`. */
  invoke(channel: string, sender: FakeWebContents, frame: FakeFrame | null, ...args: unknown[]): unknown {
    const h = ipcMain.handlers.get(channel);
    if (!h) throw new Error(`no handler for ${channel}`);
    return h({ sender, senderFrame: frame }, ...args);
  },
  /** Plays `ipcRenderer.send` from a frame of `sender`. */
  emit(channel: string, sender: FakeWebContents, frame: FakeFrame | null, ...args: unknown[]): void {
    for (const h of ipcMain.listeners.get(channel) ?? []) h({ sender, senderFrame: frame }, ...args);
  },
  reset(): void {
    ipcMain.handlers.clear();
    ipcMain.listeners.clear();
  },
};

export const shell = { openExternal: vi.fn(async (_url: string) => {}) };

export const protocol = {
  registerSchemesAsPrivileged: vi.fn(),
  handle: vi.fn(),
};

export const contextBridge = { exposeInMainWorld: vi.fn() };

export const ipcRenderer = Object.assign(new EventEmitter(), {
  invoke: vi.fn(async (_channel: string, ..._args: unknown[]): Promise<unknown> => ({ ok: true, res: null })),
  send: vi.fn(),
});

/** A dropped file's path: the fake takes it from a `path` property a test sets (a made-up File has none). */
export const webUtils = {
  getPathForFile: vi.fn((f: { path?: string }) => f.path ?? ''),
};

/** The module object handed to vi.mock('electron'). */
export const electronFake = {
  webUtils,
  BrowserWindow: FakeBrowserWindow,
  ipcMain,
  shell,
  protocol,
  contextBridge,
  ipcRenderer,
};
