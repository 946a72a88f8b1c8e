import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_METHODS, IPC_EVENT_CHANNEL, IPC_READY_CHANNEL, ipcChannel } from '../../shared/api-schemas';
import { IPC_SAVE_EXPORT_CHANNEL } from '../../shared/api-methods';
import { FakeBackend, LIBRARY_EVENT } from '../server/testing/fake-backend';
import { FakeFrame, FakeWebContents, ipcMain } from './testing/electron-fake';

vi.mock('electron', async () => (await import('./testing/electron-fake')).electronFake);

const { registerIpc, MAX_QUEUED_EVENTS } = await import('./ipc-adapter');
const { rendererSource } = await import('./renderer-source');

const { isOwnUrl } = rendererSource(true, undefined);
let backend: FakeBackend;
let adapter: ReturnType<typeof registerIpc>;
let wc: FakeWebContents;

beforeEach(() => {
  ipcMain.reset();
  backend = new FakeBackend();
  adapter = registerIpc(backend, isOwnUrl);
  wc = new FakeWebContents();
  adapter.attach(wc as never);
});

afterEach(() => adapter.dispose());

const invoke = (method: string, req: unknown, sender = wc, frame: FakeFrame | null = sender.mainFrame) =>
  ipcMain.invoke(`vak:${method}`, sender, frame, req) as Promise<unknown>;

describe('IPC handlers', () => {
  it('registers exactly one handler per API method, on the shared channel names', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual(
      [...API_METHODS.map(ipcChannel), IPC_SAVE_EXPORT_CHANNEL].sort(),
    );
    expect(ipcMain.handle).toHaveBeenCalledTimes(API_METHODS.length + 1);
    expect(ipcMain.listeners.get(IPC_READY_CHANNEL)).toHaveLength(1);
  });

  it('passes the raw request to the backend and wraps the answer', async () => {
    expect(await invoke('getHome', {})).toEqual({
      ok: true,
      res: { home: '/fake/home', isDemo: false, label: 'fake home' },
    });
    expect(backend.calls[0]).toMatchObject({ method: 'getHome', req: {} });
    expect(backend.calls[0].client.id).toBe(`ipc-${wc.id}`);
  });

  it("passes a worker's answer on as the JSON text it wrote (a backend that answers so)", async () => {
    adapter.dispose();
    const jsonBackend = Object.assign(new FakeBackend(), {
      texts: 0,
      async callJson(method: string, req: unknown, client: never) {
        jsonBackend.texts++;
        return JSON.stringify(await jsonBackend.call(method, req, client));
      },
    });
    adapter = registerIpc(jsonBackend, isOwnUrl);
    adapter.attach(wc as never);
    expect(await invoke('getHome', {})).toEqual({
      ok: true,
      json: JSON.stringify({ home: '/fake/home', isDemo: false, label: 'fake home' }),
    });
    expect(jsonBackend.texts).toBe(1);
    expect(await invoke('getWarnings', {})).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });

  it('turns backend errors into payloads', async () => {
    expect(await invoke('openSession', { key: 'x' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no such session' },
    });
    expect(await invoke('getWarnings', {})).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });
});

describe('sender checks', () => {
  const refused = { ok: false, error: { code: 'refused', message: expect.any(String) } };

  it('refuses a webContents we did not attach', async () => {
    const stranger = new FakeWebContents();
    expect(await invoke('getHome', {}, stranger)).toEqual(refused);
    expect(backend.calls).toHaveLength(0);
  });

  it('refuses our window when its main frame shows another origin', async () => {
    wc.mainFrame.url = 'https://evil.example/';
    expect(await invoke('getHome', {})).toEqual(refused);
    wc.mainFrame.url = 'file:///tmp/x.html';
    expect(await invoke('getHome', {})).toEqual(refused);
  });

  it('refuses a sub-frame, even one of our own origin', async () => {
    const sub = new FakeFrame('app://explorer/', wc.mainFrame);
    expect(await invoke('getHome', {}, wc, sub)).toEqual(refused);
  });

  it('refuses a frame that is not the main frame of the sender', async () => {
    const other = new FakeFrame('app://explorer/');
    expect(await invoke('getHome', {}, wc, other)).toEqual(refused);
    expect(await invoke('getHome', {}, wc, null)).toEqual(refused);
  });

  it('ignores a ready signal from a foreign sender or a sub-frame', async () => {
    await invoke('subscribe', { topic: 'library' });
    const stranger = new FakeWebContents();
    ipcMain.emit(IPC_READY_CHANNEL, stranger, stranger.mainFrame);
    ipcMain.emit(IPC_READY_CHANNEL, wc, new FakeFrame('app://explorer/', wc.mainFrame));
    backend.pushAll(LIBRARY_EVENT);
    expect(wc.sent).toHaveLength(0);
    expect(stranger.sent).toHaveLength(0);
  });
});

describe('pushed events', () => {
  it('queues events until the renderer says ready, then delivers them in order', async () => {
    await invoke('subscribe', { topic: 'library' });
    const second = { ...LIBRARY_EVENT, removed: [] };
    backend.pushAll(LIBRARY_EVENT);
    backend.pushAll(second);
    expect(wc.sent).toHaveLength(0);
    ipcMain.emit(IPC_READY_CHANNEL, wc, wc.mainFrame);
    expect(wc.sent).toEqual([
      { channel: IPC_EVENT_CHANNEL, args: [LIBRARY_EVENT] },
      { channel: IPC_EVENT_CHANNEL, args: [second] },
    ]);
    backend.pushAll(LIBRARY_EVENT);
    expect(wc.sent).toHaveLength(3);
  });

  it('keeps at most MAX_QUEUED_EVENTS, dropping the oldest', async () => {
    await invoke('subscribe', { topic: 'library' });
    for (let i = 0; i < MAX_QUEUED_EVENTS + 5; i++) {
      backend.pushAll({ type: 'progress', key: 'k', bytesRead: i, bytesTotal: 0, entriesRead: i });
    }
    ipcMain.emit(IPC_READY_CHANNEL, wc, wc.mainFrame);
    expect(wc.sent).toHaveLength(MAX_QUEUED_EVENTS);
    expect(wc.sent[0].args[0]).toMatchObject({ bytesRead: 5 });
  });

  it('starts over when the window navigates (reload): drops subscriptions, queues again', async () => {
    await invoke('subscribe', { topic: 'library' });
    ipcMain.emit(IPC_READY_CHANNEL, wc, wc.mainFrame);
    wc.fire('will-navigate', 'https://example.com/'); // started and cancelled: the stream stays
    expect(backend.disconnected).toEqual([]);
    wc.emit('did-navigate');
    expect(backend.disconnected).toEqual([`ipc-${wc.id}`]);
    backend.pushAll(LIBRARY_EVENT);
    expect(wc.sent).toHaveLength(0);
  });

  it('never sends to a page of another origin', async () => {
    await invoke('subscribe', { topic: 'library' });
    ipcMain.emit(IPC_READY_CHANNEL, wc, wc.mainFrame);
    wc.mainFrame.url = 'https://evil.example/';
    backend.pushAll(LIBRARY_EVENT);
    expect(wc.sent).toHaveLength(0);
  });

  it('disconnects the client when the webContents is destroyed, and stops pushing', async () => {
    await invoke('subscribe', { topic: 'library' });
    wc.destroy();
    expect(backend.disconnected).toEqual([`ipc-${wc.id}`]);
    backend.pushAll(LIBRARY_EVENT);
    expect(wc.sent).toHaveLength(0);
    expect(await invoke('getHome', {})).toMatchObject({ ok: false, error: { code: 'refused' } });
  });
});

describe('dispose', () => {
  it('removes every handler and the ready listener', () => {
    adapter.dispose();
    expect(ipcMain.handlers.size).toBe(0);
    expect(ipcMain.listeners.get(IPC_READY_CHANNEL)).toHaveLength(0);
    adapter = registerIpc(backend, isOwnUrl);
  });
});

describe('saving an export (DesktopExports.saveAs)', () => {
  /** A backend whose export is two chunks; the Save dialog answers `picked`. */
  function withExport(picked: string | null): { picks: unknown[][] } {
    adapter.dispose();
    const picks: unknown[][] = [];
    let reads = 0;
    const exporting = Object.assign(new FakeBackend(), {
      async call(method: string, req: unknown, client: never): Promise<unknown> {
        exporting.calls.push({ method, req, client });
        if (method === 'beginExport') return { exportId: 'x'.repeat(24), fileName: 's.md', mimeType: 'text/markdown' };
        if (method === 'readExport') return { text: ++reads === 1 ? '# one\n' : 'two\n', done: reads === 2 };
        if (method === 'endExport') return { ended: true };
        return FakeBackend.prototype.call.call(exporting, method, req, client);
      },
    });
    backend = exporting;
    adapter = registerIpc(backend, isOwnUrl, {
      pickSavePath: async (contents, fileName) => {
        picks.push([contents, fileName]);
        return picked;
      },
    });
    adapter.attach(wc as never);
    return { picks };
  }
  const save = (req: unknown, sender = wc, frame: FakeFrame | null = sender.mainFrame) =>
    ipcMain.invoke(IPC_SAVE_EXPORT_CHANNEL, sender, frame, req) as Promise<unknown>;

  it("asks the window's Save dialog with the export's name and writes the file as the window's calls", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vak-ipc-save-'));
    try {
      const path = join(dir, 'picked.md');
      const { picks } = withExport(path);
      const req = { key: 'k', leaf: null, format: 'markdown', unredacted: true };
      expect(await save(req)).toEqual({ ok: true, res: { saved: path, fileName: 's.md', bytes: 10 } });
      expect(picks).toEqual([[wc, 's.md']]);
      expect(readFileSync(path, 'utf8')).toBe('# one\ntwo\n');
      expect(backend.calls.map((c) => c.method)).toEqual(['beginExport', 'readExport', 'readExport']);
      // The request, with its unredacted choice, reaches the backend as sent (which validates it).
      expect(backend.calls[0].req).toBe(req);
      expect(backend.calls.every((c) => c.client.id === `ipc-${wc.id}`)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a cancelled dialog answers cancelled; a frame that is not ours is refused before any export', async () => {
    withExport(null);
    expect(await save({ key: 'k' })).toEqual({ ok: true, res: { cancelled: true } });
    expect(backend.calls.map((c) => c.method)).toEqual(['beginExport', 'endExport']);
    const child = new FakeFrame('app://explorer/', wc.mainFrame);
    expect(await save({ key: 'k' }, wc, child)).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(backend.calls).toHaveLength(2);
  });
});
