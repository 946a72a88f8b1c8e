/**
 * The Electron IPC transport of the API: one `ipcMain.handle` channel per
 * method, each request handed raw to the backend (which validates it), and
 * pushed events queued per window until its renderer says it is listening.
 * Only the main frame of a window we attached, showing our own page, is heard.
 */
import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { ApiEvent, IpcReply as Reply } from '../../shared/api';
import {
  API_METHODS,
  IPC_CANCEL_CHANNEL,
  IPC_EVENT_CHANNEL,
  IPC_READY_CHANNEL,
  ipcChannel,
} from '../../shared/api-schemas';
import { IPC_SAVE_EXPORT_CHANNEL } from '../../shared/api-methods';
import type { ExportChunk, ExportStarted } from '../../shared/api-features';
import { answersJson, errorPayload, type ApiBackend, type ApiClient } from '../api/api-backend';
import { saveExportAs } from './save-export-file';

/** What every `vak:<method>` invoke resolves with: the contract's one reply type. */
export type IpcReply = Reply;

/** Events held for a renderer that has not said ready; the oldest go first beyond this. */
export const MAX_QUEUED_EVENTS = 10_000;

export interface IpcAdapter {
  /** Starts hearing (and pushing to) this webContents; anything else is refused. */
  attach(contents: WebContents): void;
  /** Removes every handler (tests, shutdown). */
  dispose(): void;
}

class IpcClient implements ApiClient {
  readonly id: string;
  private ready = false;
  private queue: ApiEvent[] = [];
  /** Calls made with a call id (BridgeApi), running: `vak:cancel` aborts one. */
  readonly running = new Map<number, AbortController>();

  constructor(
    readonly contents: WebContents,
    private readonly isOwnUrl: (url: string) => boolean,
  ) {
    this.id = `ipc-${contents.id}`;
  }

  push(event: ApiEvent): void {
    if (this.contents.isDestroyed()) return;
    if (!this.ready) {
      this.queue.push(event);
      if (this.queue.length > MAX_QUEUED_EVENTS) this.queue.shift();
      return;
    }
    this.send(event);
  }

  markReady(): void {
    this.ready = true;
    const queued = this.queue;
    this.queue = [];
    for (const e of queued) this.send(e);
  }

  /** A new page in the window: it has no listeners yet and none of the old subscriptions. */
  reset(): void {
    this.ready = false;
    this.queue = [];
    for (const c of this.running.values()) c.abort();
    this.running.clear();
  }

  private send(event: ApiEvent): void {
    // Never hand ledger data to a page that is not ours (the navigation guard should make this moot).
    if (this.isOwnUrl(this.contents.mainFrame.url)) this.contents.send(IPC_EVENT_CHANNEL, event);
  }
}

const isCallId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export interface IpcOptions {
  /**
   * Asks where to save an export named `fileName` for the page in `contents` (the Save dialog);
   * null when the user cancels. Without it, DesktopExports.saveAs is refused.
   */
  pickSavePath?(contents: WebContents, fileName: string): Promise<string | null>;
}

/** Registers the API's IPC handlers in front of `backend`. */
export function registerIpc(
  backend: ApiBackend,
  isOwnUrl: (url: string) => boolean,
  options: IpcOptions = {},
): IpcAdapter {
  const clients = new Map<number, IpcClient>();

  /** The sender's client when it is the main frame of an attached window showing our page. */
  const trustedClient = (event: IpcMainEvent | IpcMainInvokeEvent): IpcClient | null => {
    const client = clients.get(event.sender.id);
    if (!client || client.contents !== event.sender) return null;
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null || frame !== event.sender.mainFrame) return null;
    return isOwnUrl(frame.url) ? client : null;
  };

  for (const method of API_METHODS) {
    ipcMain.handle(ipcChannel(method), async (event, rawReq: unknown, rawCallId?: unknown): Promise<IpcReply> => {
      const client = trustedClient(event);
      if (!client)
        return { ok: false, error: { code: 'refused', message: 'IPC from a frame that is not the explorer' } };
      // A call id (BridgeApi) makes the call cancellable; anything but a safe integer is ignored.
      const callId = isCallId(rawCallId) && !client.running.has(rawCallId) ? rawCallId : null;
      const controller = callId === null ? null : new AbortController();
      if (callId !== null && controller) client.running.set(callId, controller);
      try {
        // A worker's answer as the JSON text it wrote: this process copies a string, where it
        // rebuilt and cloned the object again (~45 ms for a 100 MB session's context series).
        if (answersJson(backend)) {
          const json = await backend.callJson(method, rawReq, client, controller?.signal);
          return json === undefined ? { ok: true, res: undefined } : { ok: true, json };
        }
        return { ok: true, res: await backend.call(method, rawReq, client, controller?.signal) };
      } catch (e) {
        return { ok: false, error: errorPayload(e) };
      } finally {
        if (callId !== null && client.running.get(callId) === controller) client.running.delete(callId);
      }
    });
  }
  // DesktopExports.saveAs: begun, read and ended as the window's own calls, so the export is the
  // window's (a reload or close ends it as it ends the window's other work).
  ipcMain.handle(IPC_SAVE_EXPORT_CHANNEL, async (event, rawReq: unknown): Promise<IpcReply> => {
    const client = trustedClient(event);
    const pick = options.pickSavePath;
    if (!client) return { ok: false, error: { code: 'refused', message: 'IPC from a frame that is not the explorer' } };
    if (!pick) return { ok: false, error: { code: 'refused', message: 'this app has no Save dialog to save with' } };
    try {
      const res = await saveExportAs({
        begin: () => backend.call('beginExport', rawReq, client) as Promise<ExportStarted>,
        readChunk: (exportId) => backend.call('readExport', { exportId }, client) as Promise<ExportChunk>,
        endExport: (exportId) => backend.call('endExport', { exportId }, client),
        pickPath: (fileName) => pick(client.contents, fileName),
      });
      return { ok: true, res };
    } catch (e) {
      return { ok: false, error: errorPayload(e) };
    }
  });
  const onReady = (event: IpcMainEvent): void => trustedClient(event)?.markReady();
  ipcMain.on(IPC_READY_CHANNEL, onReady);
  const onCancel = (event: IpcMainEvent, rawCallId: unknown): void => {
    if (isCallId(rawCallId)) trustedClient(event)?.running.get(rawCallId)?.abort();
  };
  ipcMain.on(IPC_CANCEL_CHANNEL, onCancel);

  return {
    attach(contents) {
      if (clients.has(contents.id)) return;
      const client = new IpcClient(contents, isOwnUrl);
      clients.set(contents.id, client);
      // On commit of a new document (a reload), not at its start: a navigation can still be
      // cancelled after it starts (will-navigate), and the old page must keep its stream then.
      // Only main-frame, cross-document commits fire this.
      contents.on('did-navigate', () => {
        backend.disconnect(client);
        client.reset();
      });
      contents.once('destroyed', () => {
        clients.delete(contents.id);
        backend.disconnect(client);
      });
    },
    dispose() {
      for (const method of API_METHODS) ipcMain.removeHandler(ipcChannel(method));
      ipcMain.removeHandler(IPC_SAVE_EXPORT_CHANNEL);
      ipcMain.removeListener(IPC_READY_CHANNEL, onReady);
      ipcMain.removeListener(IPC_CANCEL_CHANNEL, onCancel);
      clients.clear();
    },
  };
}
