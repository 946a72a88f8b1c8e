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
}

/** Chooses the transport behind the one Api: the preload bridge in Electron, else the WebSocket of the page's origin. */
export function createApi(win: Window = window): ApiHandle {
  const bridge = win.vak;
  if (bridge) {
    return { api: bridgeApi(bridge), ready: () => bridge.ready(), transport: 'ipc' };
  }
  const proto = win.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = `${proto}//${win.location.host}/api/ws`;
  const early = win.__vakEarlySocket;
  delete win.__vakEarlySocket;
  const first = early?.url === url ? early : null;
  if (early && !first) early.close();
  const api = createWsApi(url, { first });
  return { api, ready: () => undefined, transport: 'websocket' };
}
