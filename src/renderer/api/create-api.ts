import type { Api, BridgeApi } from '../../shared/api';
import { bridgeApi } from './bridge-client';
import { createWsApi } from './ws-client';

/** What the Electron preload exposes (BridgeApi: calls take a call id, `cancel` aborts one). */
type PreloadApi = BridgeApi;

declare global {
  interface Window {
    vak?: PreloadApi;
    /** The API's socket, opened by index.html's first script before the bundle ran (serve mode). */
    __vakEarlySocket?: WebSocket;
  }
}

export interface ApiHandle {
  api: Api;
  /** Tells the main side that event listeners are attached (Electron queues pushes until then). */
  ready: () => void;
  transport: 'ipc' | 'websocket';
  /**
   * Settles once the early socket (index.html) is open, has failed, or `EARLY_WAIT_MS` passed;
   * at once without one. What is asked before it settles leaves when it opens.
   */
  connected: Promise<void>;
}

/** The longest a page waits for its early socket before rendering anyway. */
export const EARLY_WAIT_MS = 250;

/** Settles when `ws` is open or gave up, or after `EARLY_WAIT_MS`. */
function settledOpen(ws: WebSocket | null): Promise<void> {
  if (!ws || ws.readyState !== 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, EARLY_WAIT_MS);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    for (const type of ['open', 'error', 'close']) ws.addEventListener(type, done, { once: true });
  });
}

/** Chooses the transport behind the one Api: the preload bridge in Electron, else the WebSocket of the page's origin. */
export function createApi(win: Window = window): ApiHandle {
  const bridge = win.vak;
  if (bridge) {
    return { api: bridgeApi(bridge), ready: () => bridge.ready(), transport: 'ipc', connected: Promise.resolve() };
  }
  const proto = win.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = `${proto}//${win.location.host}/api/ws`;
  const early = win.__vakEarlySocket;
  delete win.__vakEarlySocket;
  const first = early?.url === url ? early : null;
  if (early && !first) early.close();
  // The client's own open handler is attached first: what was asked is sent before this settles.
  const api = createWsApi(url, { first });
  return { api, ready: () => undefined, transport: 'websocket', connected: settledOpen(first) };
}
