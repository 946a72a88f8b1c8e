import {
  NO_GENERATION,
  type Api,
  type ApiEvent,
  type ApiMethod,
  type ApiRequest,
  type ApiResponse,
  type CallOptions,
  type Subscription,
} from '../../shared/api';
import type { WsServerFrame } from '../../shared/api-schemas';
import { API_METHOD_NAMES, ApiError } from './api-methods';
import { cancelledCall } from './bridge-client';

export interface WsClientOptions {
  /** Per-request timeout (ms). */
  timeoutMs?: number;
  /** Socket factory, replaceable in tests. */
  createSocket?: (url: string) => WebSocket;
  /**
   * A socket to `url` the page opened before this client existed (the early socket of
   * index.html): used as the first connection, whether it is still connecting or open already.
   */
  first?: WebSocket | null;
  /** Reports connection state changes to the UI. */
  onStatus?: (status: 'connecting' | 'open' | 'closed') => void;
}

interface Pending {
  method: ApiMethod;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  /** Starts the timeout again (the server showed it is still working on this request). */
  rearm: () => void;
  /** The session the request reads, when it names one: its `progress` events keep it alive. */
  key: string | null;
  frame: string;
  sent: boolean;
}

/** WebSocket.OPEN (the constant is not on every WebSocket a test makes). */
const WS_OPEN = 1;

/** The session a request names, if any (`{key: …}`). */
function keyOf(req: unknown): string | null {
  const k = typeof req === 'object' && req !== null ? (req as { key?: unknown }).key : undefined;
  return typeof k === 'string' ? k : null;
}

/**
 * Methods that change a file, with what the user must be told when one was sent and its
 * reply never came. They are sent once: never again on a new connection, whatever happened
 * (the backend also appends at most once per idempotency key). Every other method is a
 * read, safe to send again after a reconnect.
 */
const WRITES = new Map<ApiMethod, string>([
  ['branch', 'the branch may or may not have been appended — look at the tree'],
]);

/** The error of a write that was sent and whose reply was lost: nobody knows whether it happened. */
function unknownOutcome(method: ApiMethod, why: string): ApiError {
  return new ApiError('unknown_outcome', `${why}: ${WRITES.get(method) ?? 'it may or may not have happened'}`);
}

/**
 * A subscription as it is renewed on a new connection. One that named what its open showed
 * (`since`) would name it again, though the events since then were heard, and those sent while
 * the connection was down were lost: it names no reading instead, and is told 'reloaded' at once
 * (the page asks the session's figures and rows again).
 */
function renewal(req: Subscription): Subscription {
  return req.topic === 'session' && req.since ? { ...req, since: { ...req.since, generation: NO_GENERATION } } : req;
}

/**
 * The serve-mode transport: one WebSocket, requests matched by id, timed out with a clear
 * error, reconnected with exponential backoff; session subscriptions are renewed after a
 * reconnect and keep their local ids. Reads still waiting are sent again on the new
 * connection; a write already sent is not, and fails with `unknown_outcome`.
 */
export function createWsApi(url: string, opts: WsClientOptions = {}): Api {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const make = opts.createSocket ?? ((u: string) => new WebSocket(u));
  const listeners = new Set<(e: ApiEvent) => void>();
  const pending = new Map<number, Pending>();
  const subs = new Map<string, { req: Subscription; serverId: string | null }>();
  let nextId = 1;
  let nextSub = 1;
  let socket: WebSocket | null = null;
  let open = false;
  let attempt = 0;

  const flush = (): void => {
    if (!socket || !open) return;
    for (const p of pending.values()) {
      if (!p.sent) {
        socket.send(p.frame);
        p.sent = true;
      }
    }
  };

  /** The early socket, while it can still become (or is) the first connection. */
  let early = opts.first && opts.first.readyState <= WS_OPEN ? opts.first : null;

  const connect = (): void => {
    opts.onStatus?.('connecting');
    const ws = early ?? make(url);
    const adopted = ws === early;
    early = null;
    socket = ws;
    ws.onopen = () => {
      open = true;
      attempt = 0;
      opts.onStatus?.('open');
      flush();
      for (const s of subs.values()) {
        void call('subscribe', renewal(s.req)).then(
          (r) => (s.serverId = r.subscription),
          () => undefined,
        );
      }
    };
    ws.onmessage = (m: MessageEvent) => {
      let frame: WsServerFrame;
      try {
        frame = JSON.parse(String(m.data)) as WsServerFrame;
      } catch {
        return;
      }
      if ('event' in frame) {
        const event = frame.event as ApiEvent;
        // A first read of a big session, or its chart's first series, can outlast any fixed timeout;
        // while it reports progress it is alive, so the requests waiting on that session start their
        // timeout again.
        if (event.type === 'progress' || event.type === 'seriesProgress')
          for (const p of pending.values()) if (p.key === event.key) p.rearm();
        for (const l of [...listeners]) l(event);
        return;
      }
      const p = pending.get(frame.id);
      if (!p) return;
      pending.delete(frame.id);
      clearTimeout(p.timer);
      if (frame.ok) p.resolve(frame.res);
      else p.reject(new ApiError(frame.error.code, frame.error.message));
    };
    ws.onclose = () => {
      open = false;
      socket = null;
      opts.onStatus?.('closed');
      // Requests already on the wire will not be answered by a new connection: send reads again,
      // never a write (it may have happened); a write not yet sent waits for the new connection.
      for (const [id, p] of pending) {
        if (p.sent && WRITES.has(p.method)) {
          pending.delete(id);
          clearTimeout(p.timer);
          p.reject(unknownOutcome(p.method, 'the connection dropped before the reply'));
        } else p.sent = false;
      }
      const delay = Math.min(10_000, 250 * 2 ** attempt);
      attempt += 1;
      setTimeout(connect, delay);
    };
    ws.onerror = () => undefined;
    // Opened before this client listened: its open event has passed, so it is applied now.
    if (adopted && ws.readyState === WS_OPEN) ws.onopen(new Event('open'));
  };

  /**
   * Sends one request. Aborting `opts.signal` rejects it at once with `cancelled` and, if it
   * was on the wire, sends `{cancel: id}` so the server stops its work (a superseded read).
   */
  function call<M extends ApiMethod>(method: M, req: ApiRequest<M>, opts?: CallOptions): Promise<ApiResponse<M>> {
    const id = nextId++;
    const signal = opts?.signal;
    if (signal?.aborted) return Promise.reject(cancelledCall(method));
    return new Promise<ApiResponse<M>>((resolve, reject) => {
      if (signal) {
        const onAbort = (): void => {
          const p = pending.get(id);
          if (!p) return;
          pending.delete(id);
          clearTimeout(p.timer);
          if (p.sent && socket && open) socket.send(JSON.stringify({ cancel: id }));
          reject(cancelledCall(method));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const done = (): void => signal.removeEventListener('abort', onAbort);
        const res0 = resolve;
        const rej0 = reject;
        resolve = (v) => {
          done();
          res0(v);
        };
        reject = (e) => {
          done();
          rej0(e);
        };
      }
      const onTimeout = (): void => {
        const p = pending.get(id);
        pending.delete(id);
        const waited = `${method} got no answer within ${Math.round(timeoutMs / 1000)} s`;
        reject(p?.sent && WRITES.has(method) ? unknownOutcome(method, waited) : new ApiError('timeout', waited));
      };
      const entry: Pending = {
        method,
        resolve: resolve as (v: unknown) => void,
        reject,
        timer: setTimeout(onTimeout, timeoutMs),
        rearm: () => {
          clearTimeout(entry.timer);
          entry.timer = setTimeout(onTimeout, timeoutMs);
        },
        key: keyOf(req),
        frame: JSON.stringify({ id, method, req }),
        sent: false,
      };
      pending.set(id, entry);
      flush();
    });
  }

  connect();

  const api: Record<string, unknown> = Object.fromEntries(
    API_METHOD_NAMES.map((m) => [m, (req: never, opts?: CallOptions) => call(m, req, opts)]),
  );
  api.subscribe = async (req: Subscription) => {
    const r = await call('subscribe', req);
    const local = `local-${nextSub++}`;
    subs.set(local, { req, serverId: r.subscription });
    return { subscription: local };
  };
  api.unsubscribe = async (req: { subscription: string }) => {
    const s = subs.get(req.subscription);
    subs.delete(req.subscription);
    if (s?.serverId) await call('unsubscribe', { subscription: s.serverId });
    return {};
  };
  api.onEvent = (l: (e: ApiEvent) => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  return api as unknown as Api;
}
