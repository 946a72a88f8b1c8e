/**
 * The preload bridge: exposes exactly the API as `window.vak`, plus `ready()`.
 *
 * A sandboxed preload can require only `electron` and a few Node built-ins, so
 * it cannot load zod (api-schemas.ts); the method list comes from the
 * dependency-free src/shared/api-methods.ts (bundled in), the object ends in
 * `satisfies`, and src/main/electron/preload.test.ts checks the channel names
 * against api-schemas.ts.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type {
  ApiErrorPayload,
  ApiEvent,
  ApiMethod,
  ApiRequest,
  ApiResponse,
  BridgeApi,
  IpcReply,
  SaveExportOutcome,
} from '../shared/api';
import {
  API_METHOD_NAMES,
  IPC_CANCEL_CHANNEL,
  IPC_EVENT_CHANNEL,
  IPC_OPEN_DIALOG_CHANNEL,
  IPC_OPEN_DROPPED_CHANNEL,
  IPC_READY_CHANNEL,
  IPC_SAVE_EXPORT_CHANNEL,
  ipcChannel,
} from '../shared/api-methods';

/**
 * Invokes one method. A failure rejects with the plain `ApiErrorPayload`
 * (`{code, message}`): contextBridge copies plain objects whole but drops an
 * Error's own properties, and the code is what the renderer acts on.
 */
async function invoke<M extends ApiMethod>(method: M, req: ApiRequest<M>, callId?: number): Promise<ApiResponse<M>> {
  return answer(
    await (callId === undefined
      ? ipcRenderer.invoke(ipcChannel(method), req)
      : ipcRenderer.invoke(ipcChannel(method), req, callId)),
  ) as ApiResponse<M>;
}

/** An IpcReply's result, or its error thrown as the plain payload. */
function answer(raw: unknown): unknown {
  const reply = raw as IpcReply;
  // A result the core's worker wrote as JSON text is parsed here, in the renderer's process.
  if (reply.ok) return 'json' in reply ? JSON.parse(reply.json) : reply.res;
  throw { code: reply.error.code, message: reply.error.message } satisfies ApiErrorPayload;
}

const methods = Object.fromEntries(
  API_METHOD_NAMES.map((m) => [m, (req: ApiRequest<typeof m>, callId?: number) => invoke(m, req, callId)]),
) as {
  [M in ApiMethod]: (req: ApiRequest<M>, callId?: number) => Promise<ApiResponse<M>>;
};

const api = {
  ...methods,
  onEvent(listener: (e: ApiEvent) => void): () => void {
    // The IpcRendererEvent stays here: handing it to the page would leak `sender` (ipcRenderer itself).
    const wrapped = (_e: IpcRendererEvent, event: ApiEvent): void => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, wrapped);
    };
  },
  /** Aborts the call made with `callId` (a superseded request): it answers `cancelled`. */
  cancel(callId: number): void {
    ipcRenderer.send(IPC_CANCEL_CHANNEL, callId);
  },
  /** Tells main the page listens now: events it queued since the page loaded are delivered. */
  ready(): void {
    ipcRenderer.send(IPC_READY_CHANNEL);
  },
  files: {
    showOpenDialog(): void {
      ipcRenderer.send(IPC_OPEN_DIALOG_CHANNEL);
    },
    /** Only a File the user dropped has a path here; one the page made itself gives '' and is skipped. */
    openDropped(files: readonly File[]): void {
      const paths = files.map((f) => webUtils.getPathForFile(f)).filter((p) => p.length > 0);
      if (paths.length > 0) ipcRenderer.send(IPC_OPEN_DROPPED_CHANNEL, paths);
    },
  },
  exports: {
    /** Main shows the Save dialog and streams the export into the file: the page holds none of it. */
    async saveAs(req: ApiRequest<'beginExport'>): Promise<SaveExportOutcome> {
      return answer(await ipcRenderer.invoke(IPC_SAVE_EXPORT_CHANNEL, req)) as SaveExportOutcome;
    },
  },
} satisfies BridgeApi;

contextBridge.exposeInMainWorld('vak', api);
