/**
 * The preload bridge: exposes exactly the API as `window.vak`, plus `ready()`.
 *
 * A sandboxed preload can require only `electron` and a few Node built-ins, so
 * it cannot load zod (api-schemas.ts); the method list is restated here as a
 * `Record<ApiMethod, true>` (a missing or extra method fails to compile), the
 * object ends in `satisfies`, and src/main/electron/preload.test.ts checks the
 * channel names against api-schemas.ts.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { Api, ApiErrorPayload, ApiEvent, ApiMethod, ApiRequest, ApiResponse } from '../shared/api';

const METHODS: Record<ApiMethod, true> = {
  getHome: true,
  listSessions: true,
  openSession: true,
  getTreeRows: true,
  findRow: true,
  getEntry: true,
  getLeafView: true,
  getProjectedMessage: true,
  getWarnings: true,
  branch: true,
  subscribe: true,
  unsubscribe: true,
};

const EVENT_CHANNEL = 'vak:event';
const READY_CHANNEL = 'vak:renderer-ready';

type IpcReply = { ok: true; res: unknown } | { ok: false; error: ApiErrorPayload };

/**
 * Invokes one method. A failure rejects with the plain `ApiErrorPayload`
 * (`{code, message}`): contextBridge copies plain objects whole but drops an
 * Error's own properties, and the code is what the renderer acts on.
 */
async function invoke<M extends ApiMethod>(method: M, req: ApiRequest<M>): Promise<ApiResponse<M>> {
  const reply = (await ipcRenderer.invoke(`vak:${method}`, req)) as IpcReply;
  if (reply.ok) return reply.res as ApiResponse<M>;
  throw { code: reply.error.code, message: reply.error.message } satisfies ApiErrorPayload;
}

const methods = Object.fromEntries(
  (Object.keys(METHODS) as ApiMethod[]).map((m) => [m, (req: ApiRequest<typeof m>) => invoke(m, req)]),
) as { [M in ApiMethod]: (req: ApiRequest<M>) => Promise<ApiResponse<M>> };

const api = {
  ...methods,
  onEvent(listener: (e: ApiEvent) => void): () => void {
    // The IpcRendererEvent stays here: handing it to the page would leak `sender` (ipcRenderer itself).
    const wrapped = (_e: IpcRendererEvent, event: ApiEvent): void => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    };
  },
  /** Tells main the page listens now: events it queued since the page loaded are delivered. */
  ready(): void {
    ipcRenderer.send(READY_CHANNEL);
  },
} satisfies Api & { ready(): void };

contextBridge.exposeInMainWorld('vak', api);
