import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_METHODS, IPC_EVENT_CHANNEL, IPC_READY_CHANNEL, ipcChannel } from '../../shared/api-schemas';
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
    expect([...ipcMain.handlers.keys()].sort()).toEqual(API_METHODS.map(ipcChannel).sort());
    expect(ipcMain.handle).toHaveBeenCalledTimes(API_METHODS.length);
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
      backend.pushAll({ type: 'progress', key: 'k', bytesRead: i, bytesTotal: 0 });
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
