import { describe, expect, it, vi } from 'vitest';
import type { BridgeApi } from '../../shared/api';
import {
  API_METHODS,
  IPC_CANCEL_CHANNEL,
  IPC_EVENT_CHANNEL,
  IPC_READY_CHANNEL,
  ipcChannel,
} from '../../shared/api-schemas';
import { IPC_OPEN_DIALOG_CHANNEL, IPC_OPEN_DROPPED_CHANNEL, IPC_SAVE_EXPORT_CHANNEL } from '../../shared/api-methods';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { contextBridge, ipcRenderer } from './testing/electron-fake';

vi.mock('electron', async () => (await import('./testing/electron-fake')).electronFake);

await import('../../preload/index');

const [name, exposed] = contextBridge.exposeInMainWorld.mock.calls[0] as [string, BridgeApi];

describe('preload bridge', () => {
  it('exposes exactly the API methods, onEvent, cancel, ready, files and exports as window.vak, once', () => {
    expect(contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect(name).toBe('vak');
    expect(Object.keys(exposed).sort()).toEqual(
      [...API_METHODS, 'onEvent', 'cancel', 'ready', 'files', 'exports'].sort(),
    );
    for (const [k, v] of Object.entries(exposed))
      if (k !== 'files' && k !== 'exports') expect(typeof v).toBe('function');
    expect(Object.keys(exposed.files).sort()).toEqual(['openDropped', 'showOpenDialog']);
    expect(Object.keys(exposed.exports)).toEqual(['saveAs']);
  });

  it('exports.saveAs: main saves (the request, unredacted choice included, goes whole); its answer or error comes back', async () => {
    const req = {
      key: 'k',
      leaf: 'e9',
      plan: 'auto',
      profile: DEFAULT_PROFILE,
      format: 'html',
      unredacted: true,
    } as const;
    ipcRenderer.invoke.mockResolvedValueOnce({
      ok: true,
      res: { saved: '/home/ana/s.html', fileName: 's.html', bytes: 9 },
    });
    await expect(exposed.exports.saveAs(req)).resolves.toEqual({
      saved: '/home/ana/s.html',
      fileName: 's.html',
      bytes: 9,
    });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith(IPC_SAVE_EXPORT_CHANNEL, req);
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, res: { cancelled: true } });
    await expect(exposed.exports.saveAs(req)).resolves.toEqual({ cancelled: true });
    const error = { code: 'internal', message: 'Could not save the export to /ro/s.html: the file system said EACCES' };
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: false, error });
    await expect(exposed.exports.saveAs(req)).rejects.toEqual(error);
  });

  it("files: the dialog is main's; a drop sends only the paths of files the user dropped", () => {
    exposed.files.showOpenDialog();
    expect(ipcRenderer.send).toHaveBeenLastCalledWith(IPC_OPEN_DIALOG_CHANNEL);
    ipcRenderer.send.mockClear();
    // A File the page made itself has no path (webUtils gives ''): nothing is sent for it.
    exposed.files.openDropped([{ name: 'made-up.jsonl' } as unknown as File]);
    expect(ipcRenderer.send).not.toHaveBeenCalled();
    const dropped = [{ path: '/home/ana/a.jsonl' }, { name: 'x' }, { path: '/tmp/b.jsonl' }] as unknown as File[];
    exposed.files.openDropped(dropped);
    expect(ipcRenderer.send).toHaveBeenLastCalledWith(IPC_OPEN_DROPPED_CHANNEL, ['/home/ana/a.jsonl', '/tmp/b.jsonl']);
  });

  it.each(API_METHODS)('%s invokes its api-schemas channel with the request', async (method) => {
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, res: { answer: method } });
    const req = { probe: method };
    const call = exposed[method] as (r: unknown) => Promise<unknown>;
    await expect(call(req)).resolves.toEqual({ answer: method });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith(ipcChannel(method), req);
  });

  it('parses a result that came as the JSON text the core wrote', async () => {
    const series = { leaf: 'e1', points: [{ pos: 0, parts: { system: 46 } }] };
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, json: JSON.stringify(series) });
    await expect(exposed.getContextSeries({ key: 'k' } as never)).resolves.toEqual(series);
  });

  it('rejects with the plain error payload (its code survives contextBridge)', async () => {
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'locked', message: 'held by an agent' } });
    await expect(exposed.branch({ key: 'k', parentId: 'p', text: 't', idempotencyKey: 'u' })).rejects.toEqual({
      code: 'locked',
      message: 'held by an agent',
    });
  });

  it('delivers events without the IpcRendererEvent, until unsubscribed', () => {
    const seen: unknown[] = [];
    const off = exposed.onEvent((e) => seen.push(e));
    const fakeIpcEvent = { sender: ipcRenderer };
    const event = { type: 'progress', key: 'k', bytesRead: 1, bytesTotal: 2 };
    ipcRenderer.emit(IPC_EVENT_CHANNEL, fakeIpcEvent, event);
    expect(seen).toEqual([event]);
    off();
    ipcRenderer.emit(IPC_EVENT_CHANNEL, fakeIpcEvent, event);
    expect(seen).toHaveLength(1);
  });

  it('passes a call id with the request, and cancels by that id on its own channel', async () => {
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, res: 1 });
    const req = { key: 'k', leaf: null };
    await (exposed.getLeafView as (r: unknown, id: number) => Promise<unknown>)(req, 42);
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith(ipcChannel('getLeafView'), req, 42);
    exposed.cancel(42);
    expect(ipcRenderer.send).toHaveBeenCalledWith(IPC_CANCEL_CHANNEL, 42);
  });

  it('signals ready on the shared channel', () => {
    exposed.ready();
    expect(ipcRenderer.send).toHaveBeenCalledWith(IPC_READY_CHANNEL);
  });
});
