/**
 * One WebSocket connection of the serve mode: frames in per `wsClientFrame`,
 * frames out per `WsServerFrame`. A bad frame is answered with an error and
 * the connection lives on; nothing a page sends can throw out of here.
 */
import type { RawData, WebSocket } from 'ws';
import type { ApiEvent } from '../../shared/api';
import { isApiMethod, wsClientFrame, type WsServerFrame } from '../../shared/api-schemas';
import { errorPayload, type ApiBackend, type ApiClient } from '../api/api-backend';

/** Requests one connection may have running at once; more are refused, not queued. */
export const MAX_IN_FLIGHT = 64;

/** The id of a reply to a frame whose own id could not be read. */
export const UNKNOWN_ID = -1;

/** Serves the API on an accepted socket until it closes. */
export function serveApiSocket(ws: WebSocket, backend: ApiBackend, clientId: string): ApiClient {
  const send = (frame: WsServerFrame): void => {
    if (ws.readyState !== ws.OPEN) return;
    let text: string;
    try {
      text = JSON.stringify(frame);
    } catch (e) {
      if (!('id' in frame)) return;
      text = JSON.stringify({ id: frame.id, ok: false, error: errorPayload(e) } satisfies WsServerFrame);
    }
    ws.send(text);
  };
  const client: ApiClient = { id: clientId, push: (event: ApiEvent) => send({ event }) };
  let inFlight = 0;

  ws.on('message', (data: RawData, isBinary: boolean) => {
    const parsed = parseFrame(data, isBinary);
    if ('error' in parsed) {
      send({ id: parsed.id, ok: false, error: { code: 'bad_request', message: parsed.error } });
      return;
    }
    const { id, method, req } = parsed;
    if (inFlight >= MAX_IN_FLIGHT) {
      send({ id, ok: false, error: { code: 'refused', message: `more than ${MAX_IN_FLIGHT} requests in flight` } });
      return;
    }
    inFlight++;
    backend
      .call(method, req, client)
      .then(
        (res) => send({ id, ok: true, res }),
        (e: unknown) => send({ id, ok: false, error: errorPayload(e) }),
      )
      .finally(() => inFlight--);
  });
  // ws reports protocol violations (oversized frame, bad UTF-8) here and then closes the socket.
  ws.on('error', () => {});
  ws.on('close', () => backend.disconnect(client));
  return client;
}

type ParsedFrame = { id: number; method: string; req: unknown } | { id: number; error: string };

function parseFrame(data: RawData, isBinary: boolean): ParsedFrame {
  if (isBinary) return { id: UNKNOWN_ID, error: 'binary frames are not accepted; send JSON text' };
  let json: unknown;
  try {
    json = JSON.parse(rawText(data));
  } catch {
    return { id: UNKNOWN_ID, error: 'frame is not JSON' };
  }
  const r = wsClientFrame.safeParse(json);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(frame)'}: ${i.message}`).join('; ');
    return { id: readableId(json), error: `bad frame: ${issues}` };
  }
  if (!isApiMethod(r.data.method)) return { id: r.data.id, error: `unknown method ${JSON.stringify(r.data.method)}` };
  return r.data;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

/** The frame's own id when it is a usable one, so the client can still match the error. */
function readableId(json: unknown): number {
  if (typeof json === 'object' && json !== null && 'id' in json) {
    const id = (json as { id: unknown }).id;
    if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return id;
  }
  return UNKNOWN_ID;
}
