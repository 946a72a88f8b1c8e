/**
 * One WebSocket connection of the serve mode: frames in per `wsClientFrame`,
 * frames out per `WsServerFrame`. A bad frame is answered with an error and
 * the connection lives on; nothing a page sends can throw out of here.
 *
 * Memory per connection is bounded whatever the client does: a reply larger
 * than MAX_REPLY_BYTES is refused (the client pages), a client that does not
 * read its replies has its work cancelled once STALLED_BYTES wait for it (and is
 * dropped if MAX_BUFFERED_BYTES do), and a client with MAX_IN_FLIGHT requests
 * running is not read from until one finishes.
 */
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import type { ApiEvent } from '../../shared/api';
import { isApiMethod, wsCancelFrame, wsClientFrame, type WsServerFrame } from '../../shared/api-schemas';
import { answersJson, cancelledError, errorPayload, type ApiBackend, type ApiClient } from '../api/api-backend';

/**
 * Requests one connection may have running at once: past this the socket is not read until one
 * finishes (frames ws had already read wait, up to as many again; beyond that they are refused).
 */
export const MAX_IN_FLIGHT = 64;

/**
 * Bytes that may wait to be sent to one socket. A client past this is not reading: it is closed
 * (1008) rather than let its replies pile up in the server. 32 MiB holds several full-size replies
 * for a client on a slow link, and bounds what 64 connections can pin to 2 GiB in the worst case.
 */
export const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/**
 * Largest single reply (JSON bytes). Every payload that can grow with the ledger is paged below
 * this (tree rows, chain items, line slices of MAX_SLICE_BYTES); a bigger reply is refused with
 * `too_large` so the client asks for less, instead of the server building and queueing it.
 */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/**
 * Unread bytes past which a client counts as not reading (two full replies wait behind what the
 * kernel holds): its running requests are cancelled — their work stops in the backend, nobody
 * would read it — and its socket is not read until it has caught up to half of this.
 */
export const STALLED_BYTES = 2 * MAX_REPLY_BYTES;

/** The message of a request cancelled because its client stopped reading. */
export const STALLED_REASON = 'cancelled: this client stopped reading its replies';

/** The close code and reason a client that stopped reading gets. */
export const SHED_CLOSE_CODE = 1008;
export const SHED_REASON = 'too many bytes waiting: this client does not read its replies';

/** How long a dropped client has to read what was already queued (and the close frame) before it is cut off. */
export const SHED_GRACE_MS = 10_000;

/** The id of a reply to a frame whose own id could not be read. */
export const UNKNOWN_ID = -1;

/** What one connection costs and did, counted (for tests and diagnostics; no wall time). */
export interface SocketStats {
  readonly clientId: string;
  /** Requests handed to the backend and not yet answered. */
  inFlight: number;
  /** Highest number of bytes that waited for this socket right after a send. */
  peakBufferedBytes: number;
  /** Replies refused for being over MAX_REPLY_BYTES. */
  tooLarge: number;
  /** True while the socket is not read from (MAX_IN_FLIGHT reached). */
  readPaused: boolean;
  /** Set once the socket was closed because its client did not read. */
  shed: boolean;
  /** `{cancel: id}` frames that found their request waiting or running. */
  cancelled: number;
  /** True while the client is not reading (over STALLED_BYTES wait for it). */
  stalled: boolean;
  /** Times the client stopped reading, and requests cancelled because of it. */
  stalls: number;
  stalledCancelled: number;
}

/** Serves the API on an accepted socket until it closes. */
export function serveApiSocket(
  ws: WebSocket,
  backend: ApiBackend,
  clientId: string,
  /** The connection under `ws`: its `drain` says a client that stopped reading caught up. */
  raw?: Duplex,
): { client: ApiClient; stats: SocketStats } {
  const stats: SocketStats = {
    clientId,
    inFlight: 0,
    peakBufferedBytes: 0,
    tooLarge: 0,
    readPaused: false,
    shed: false,
    cancelled: 0,
    stalled: false,
    stalls: 0,
    stalledCancelled: 0,
  };
  /** Requests handed to the backend, by frame id: a `{cancel: id}` frame aborts one. */
  const running = new Map<number, AbortController>();

  /** Stops serving a client that does not read: nothing more is queued, the socket closes. */
  const shed = (): void => {
    stats.shed = true;
    // Read on (frames from now on are ignored) so the client's answer to the close frame is heard.
    stats.readPaused = false;
    ws.resume();
    // The close frame waits behind the unread bytes: a client that reads them gets it; one that
    // still reads nothing is cut off after SHED_GRACE_MS, which frees what waited for it.
    ws.close(SHED_CLOSE_CODE, SHED_REASON);
    const cutOff = setTimeout(() => ws.terminate(), SHED_GRACE_MS);
    cutOff.unref();
    ws.once('close', () => clearTimeout(cutOff));
  };

  /**
   * The client stopped reading: what it asked for is cancelled where it runs, and nothing more
   * is read from it until it catches up (a client that never does is shed at MAX_BUFFERED_BYTES
   * or closes). Its cancelled requests are answered `cancelled`, small frames it may read later.
   */
  const stall = (): void => {
    stats.stalled = true;
    stats.stalls++;
    if (!stats.readPaused) ws.pause();
    for (const c of running.values()) {
      if (c.signal.aborted) continue;
      stats.stalledCancelled++;
      c.abort(STALLED_REASON);
    }
    for (const r of backlog.splice(0)) {
      stats.stalledCancelled++;
      send({ id: r.id, ok: false, error: { code: 'cancelled', message: STALLED_REASON } });
    }
  };
  const caughtUp = (): void => {
    if (!stats.stalled || stats.shed || ws.bufferedAmount > STALLED_BYTES / 2) return;
    stats.stalled = false;
    if (!stats.readPaused) ws.resume();
  };
  raw?.on('drain', caughtUp);

  const send = (frame: WsServerFrame): void => sendText(serialize(frame), 'id' in frame ? frame.id : null);
  /** A frame's text (null: none to send); `id`: the request it answers, or null for an event. */
  const sendText = (frameText: string | null, id: number | null): void => {
    if (ws.readyState !== ws.OPEN || stats.shed) return;
    let text = frameText;
    if (text === null) return;
    let bytes = Buffer.byteLength(text);
    if (id !== null && bytes > MAX_REPLY_BYTES) {
      stats.tooLarge++;
      text = JSON.stringify({
        id,
        ok: false,
        error: {
          code: 'too_large',
          message:
            `the reply would be ${bytes} bytes, over the ${MAX_REPLY_BYTES}-byte limit of one reply: ` +
            'ask for less (a smaller maxBytes, then the next slice with sliceStart)',
        },
      } satisfies WsServerFrame);
      bytes = Buffer.byteLength(text);
    }
    if (ws.bufferedAmount + bytes > MAX_BUFFERED_BYTES) return shed();
    ws.send(text);
    stats.peakBufferedBytes = Math.max(stats.peakBufferedBytes, ws.bufferedAmount);
    if (!stats.stalled && ws.bufferedAmount > STALLED_BYTES) stall();
  };
  const client: ApiClient = { id: clientId, push: (event: ApiEvent) => send({ event }) };

  // Frames ws had already read when the socket was paused: run as requests finish (at most
  // MAX_IN_FLIGHT of them wait; past that a frame is refused, never queued without bound).
  const backlog: Request[] = [];

  const run = ({ id, method, req }: Request): void => {
    stats.inFlight++;
    if (stats.inFlight >= MAX_IN_FLIGHT && !stats.readPaused) {
      stats.readPaused = true;
      ws.pause();
    }
    const controller = new AbortController();
    running.set(id, controller);
    // A worker's answer comes as its JSON text and goes out as it is (the same frame as
    // JSON.stringify writes): this thread neither rebuilds nor serializes a big answer.
    // An answer that comes back while the client is stalled was cancelled too late to stop: it
    // is answered `cancelled` (a small frame) instead of adding its bytes to what the client does
    // not read, which would shed it.
    const stalledAnswer = (): boolean => {
      if (!stats.stalled) return false;
      stats.stalledCancelled++;
      send({ id, ok: false, error: { code: 'cancelled', message: STALLED_REASON } });
      return true;
    };
    const answered = answersJson(backend)
      ? backend
          .callJson(method, req, client, controller.signal)
          .then((json) =>
            stalledAnswer()
              ? undefined
              : json === undefined
                ? send({ id, ok: true, res: undefined })
                : sendText(resultText(id, json), id),
          )
      : backend
          .call(method, req, client, controller.signal)
          .then((res) => (stalledAnswer() ? undefined : send({ id, ok: true, res })));
    answered
      .then(undefined, (e: unknown) => send({ id, ok: false, error: errorPayload(e) }))
      .finally(() => {
        if (running.get(id) === controller) running.delete(id);
        settle();
      });
  };

  /** A superseded request: dropped from the backlog (answered `cancelled`), or its running call aborted. */
  const cancel = (id: number): void => {
    const k = backlog.findIndex((r) => r.id === id);
    if (k >= 0) {
      backlog.splice(k, 1);
      stats.cancelled++;
      send({ id, ok: false, error: cancelledError().toPayload() });
      return;
    }
    const c = running.get(id);
    if (c && !c.signal.aborted) {
      stats.cancelled++;
      c.abort();
    }
  };

  const settle = (): void => {
    stats.inFlight--;
    if (stats.shed) return;
    const next = backlog.shift();
    if (next) return run(next);
    if (stats.readPaused && stats.inFlight < MAX_IN_FLIGHT) {
      stats.readPaused = false;
      if (!stats.stalled) ws.resume();
    }
  };

  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (stats.shed) return;
    const parsed = parseFrame(data, isBinary);
    if ('cancel' in parsed) return cancel(parsed.cancel);
    if ('error' in parsed) {
      send({ id: parsed.id, ok: false, error: { code: 'bad_request', message: parsed.error } });
      return;
    }
    // (Frames ws had read before the socket was paused.) Nothing new runs for a client that does not read.
    if (stats.stalled) {
      stats.stalledCancelled++;
      send({ id: parsed.id, ok: false, error: { code: 'cancelled', message: STALLED_REASON } });
      return;
    }
    if (stats.inFlight < MAX_IN_FLIGHT) return run(parsed);
    if (backlog.length < MAX_IN_FLIGHT) {
      backlog.push(parsed);
      return;
    }
    send({
      id: parsed.id,
      ok: false,
      error: { code: 'refused', message: `more than ${MAX_IN_FLIGHT} requests in flight` },
    });
  });
  // ws reports protocol violations (oversized frame, bad UTF-8) here and then closes the socket.
  ws.on('error', () => {});
  ws.on('close', () => {
    for (const c of running.values()) c.abort(); // nobody is left to read the answers
    raw?.off('drain', caughtUp);
    backend.disconnect(client);
  });
  return { client, stats };
}

/** `{"id":…,"ok":true,"res":…}` around a result's JSON text, as JSON.stringify writes that frame. */
function resultText(id: number, json: string): string {
  return `{"id":${JSON.stringify(id)},"ok":true,"res":${json}}`;
}

/** A frame as JSON; a reply whose result cannot be serialized becomes an error reply, such an event is dropped. */
function serialize(frame: WsServerFrame): string | null {
  try {
    return JSON.stringify(frame);
  } catch (e) {
    if (!('id' in frame)) return null;
    return JSON.stringify({ id: frame.id, ok: false, error: errorPayload(e) } satisfies WsServerFrame);
  }
}

type Request = { id: number; method: string; req: unknown };
type ParsedFrame = Request | { cancel: number } | { id: number; error: string };

function parseFrame(data: RawData, isBinary: boolean): ParsedFrame {
  if (isBinary) return { id: UNKNOWN_ID, error: 'binary frames are not accepted; send JSON text' };
  let json: unknown;
  try {
    json = JSON.parse(rawText(data));
  } catch {
    return { id: UNKNOWN_ID, error: 'frame is not JSON' };
  }
  const c = wsCancelFrame.safeParse(json);
  if (c.success) return { cancel: c.data.cancel };
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
