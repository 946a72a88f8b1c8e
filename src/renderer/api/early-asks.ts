import type { Api, ApiMethod, ApiReply, ApiRequest, ApiResponse, CallOptions, SessionInfo } from '../../shared/api';
import type { EarlyAsk } from '../../shared/api-early';
import { cancelledCall } from './bridge-client';

declare global {
  interface Window {
    /** What index.html's first script asked over HTTP (serve mode, a page opened on a session). */
    __vakEarlyAnswers?: HttpEarly;
  }
}

/**
 * The requests index.html's first script posted to serve mode's early answers route while the
 * page was parsed (src/shared/early-script.ts), and the route's answer (null: refused).
 */
export interface HttpEarly {
  asks: EarlyAsk[];
  answers: Promise<{ answers?: ApiReply[] } | null>;
}

/** Takes the page's HTTP early asks, once (later calls: null). */
export function takeHttpEarly(win: Window = window): HttpEarly | null {
  const e = win.__vakEarlyAnswers;
  delete win.__vakEarlyAnswers;
  if (!e || !Array.isArray(e.asks) || typeof e.answers?.then !== 'function') return null;
  return e;
}

/** The methods a page may ask before anything in it asks for them. */
export type EarlyMethod = 'findRow' | 'getTreeRows' | 'getLeafView';
const EARLY_METHODS: readonly EarlyMethod[] = ['findRow', 'getTreeRows', 'getLeafView'];

/** Sends a request now, for the part of the app that will ask it later (see withEarlyAsks). */
export type AskEarly = <M extends EarlyMethod>(method: M, req: ApiRequest<M>) => void;

interface Early {
  text: string;
  answer: Promise<unknown>;
  abort: AbortController;
  /** The session of an answer that came over HTTP: dropped if that session changes before it is taken. */
  httpKey?: string;
}

/** An answer the HTTP early asks brought, not yet taken. */
interface Offered {
  text: string;
  key: string;
  answer: Promise<unknown>;
}

const keyOf = (req: unknown): string =>
  typeof req === 'object' && req !== null && typeof (req as { key?: unknown }).key === 'string'
    ? (req as { key: string }).key
    : '';

/**
 * An HTTP answer as the socket's would behave: rejected `cancelled` once `signal` aborts; when
 * the HTTP answer failed, the request is asked once by `fallback`.
 */
function httpAnswer(
  method: string,
  got: Promise<unknown>,
  signal: AbortSignal,
  fallback: () => Promise<unknown>,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(cancelledCall(method));
    signal.addEventListener('abort', onAbort, { once: true });
    got.then(resolve, () => {
      signal.removeEventListener('abort', onAbort);
      if (!signal.aborted) fallback().then(resolve, reject);
    });
  });
}

/** Resolves with `v` once the current frame is painted (at once where there are no frames). */
function afterFrame<T>(v: T): Promise<T> {
  if (typeof requestAnimationFrame !== 'function') return Promise.resolve(v);
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(v))));
}

/** A request as text whatever the order of its fields, for comparing two requests. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
}

/**
 * Requests sent before the code that needs them asks: a reload knows from the URL (and what the
 * tab kept) which rows and which leaf view it will show, so it asks them with the session's open
 * instead of one round trip after its answer. The first call of that method afterwards takes the
 * early answer when it asks exactly the same request (its abort signal then cancels it), and
 * cancels it when it asks anything else: an early request is answered once or dropped, never
 * answers a later question, and never adds a request the page would not have sent.
 *
 * With `http` (serve mode: index.html's first script posted the same requests over HTTP before the
 * socket opened), an early ask, the session's first `openSession`, and the first request of an
 * early method (the tree's page of the active leaf, asked with the open) take the HTTP answer to
 * exactly the same request instead of sending it; when the post failed or its answer to that
 * request is an error, the request is sent over the socket then, once. An HTTP answer not taken
 * before its session changes (a session event) is dropped. The session's subscription waits for
 * the open's answer and names what it showed (`since`), so a change between that answer and the
 * subscription is told, not missed.
 */
export function withEarlyAsks(
  api: Api,
  http: HttpEarly | null = null,
): {
  api: Api;
  askEarly: AskEarly;
  /** Settles when the last early ask of `method` has been answered or dropped (at once: none). */
  settled: (method: EarlyMethod) => Promise<void>;
} {
  const early = new Map<EarlyMethod, Early>();
  const asked = new Map<EarlyMethod, Promise<void>>();
  const offered = new Map<string, Offered>();
  http?.asks.forEach((a, i) => {
    const answer = http.answers.then((body) => {
      const reply = body?.answers?.[i];
      if (!reply?.ok) throw new Error('no early answer');
      return reply.res;
    });
    answer.catch(() => undefined);
    offered.set(a.method, { text: canonical(a.req), key: keyOf(a.req), answer });
  });
  /** The HTTP answer to exactly `req`, taken once; anything else drops it. */
  const offer = (method: string, req: unknown): Promise<unknown> | null => {
    const o = offered.get(method);
    if (!o) return null;
    offered.delete(method);
    return o.text === canonical(req) ? o.answer : null;
  };
  if (http) {
    api.onEvent((e) => {
      if (e.type !== 'session') return;
      for (const [m, o] of offered) if (o.key === e.key) offered.delete(m);
      for (const [m, x] of early) {
        if (x.httpKey !== e.key) continue;
        early.delete(m);
        x.abort.abort();
      }
    });
  }
  /** The session's open answered over HTTP (else over the socket, once), shared by the open and the subscription. */
  const opens = new Map<string, { answer: Promise<SessionInfo>; taken: boolean }>();
  const openOf = (req: ApiRequest<'openSession'>): { answer: Promise<SessionInfo>; taken: boolean } | null => {
    const known = opens.get(req.key);
    if (known) return known;
    const got = offer('openSession', req) as Promise<SessionInfo> | null;
    if (!got) return null;
    // Taken as it is, also while a first read is under way: the subscription names what it showed
    // (since), and the steps read after it come in the next step's delta.
    const answer = got.catch(() => api.openSession(req));
    answer.catch(() => undefined);
    const o = { answer, taken: false };
    opens.set(req.key, o);
    return o;
  };
  const take = (method: EarlyMethod, req: unknown, opts?: CallOptions): Promise<unknown> | null => {
    const e = early.get(method);
    if (!e) return null;
    early.delete(method);
    if (e.text !== canonical(req) || opts?.signal?.aborted) {
      e.abort.abort();
      return null;
    }
    opts?.signal?.addEventListener('abort', () => e.abort.abort(), { once: true });
    return e.answer;
  };
  const wrapped: Api = { ...api };
  if (http) {
    wrapped.openSession = (req, opts) => {
      const o = openOf(req);
      if (!o || o.taken || opts?.signal?.aborted) return api.openSession(req, opts);
      o.taken = true;
      return o.answer;
    };
    wrapped.subscribe = (sub, opts) => {
      if (sub.topic !== 'session' || sub.since) return api.subscribe(sub, opts);
      const o = openOf({ key: sub.key });
      if (!o) return api.subscribe(sub, opts);
      return o.answer.then(
        (info) =>
          api.subscribe(
            {
              ...sub,
              since: { generation: info.generation, entryCount: info.entryCount, reading: info.reading !== null },
            },
            opts,
          ),
        () => api.subscribe(sub, opts),
      );
    };
  }
  for (const m of EARLY_METHODS) {
    const call = api[m] as (req: unknown, opts?: CallOptions) => Promise<unknown>;
    /** The HTTP answer when this is the first request of `m` and exactly the one posted (the tree's page of the active leaf). */
    const fromHttp = (req: unknown, opts?: CallOptions): Promise<unknown> | null => {
      const got = opts?.signal?.aborted ? null : offer(m, req);
      return got && httpAnswer(m, got, opts?.signal ?? new AbortController().signal, () => call(req, opts));
    };
    (wrapped as Record<ApiMethod, unknown>)[m] = (req: unknown, opts?: CallOptions) =>
      take(m, req, opts) ?? fromHttp(req, opts) ?? call(req, opts);
  }
  const askEarly: AskEarly = (method, req) => {
    early.get(method)?.abort.abort();
    const abort = new AbortController();
    const call = api[method] as (req: unknown, opts?: CallOptions) => Promise<ApiResponse<typeof method>>;
    const offered = offer(method, req);
    // The leaf view comes in the same response as the rows: taken after the frame that draws them.
    const got = offered && method === 'getLeafView' ? offered.then(afterFrame) : offered;
    // Over HTTP when that brought this very request's answer; over the socket (once) when it did not.
    const answer = got
      ? httpAnswer(method, got, abort.signal, () => call(req, { signal: abort.signal }))
      : call(req, { signal: abort.signal });
    // Dropped unasked, or failed: whoever takes it sees the failure; nobody else must.
    answer.catch(() => undefined);
    early.set(method, { text: canonical(req), answer, abort, ...(got ? { httpKey: keyOf(req) } : {}) });
    asked.set(
      method,
      answer.then(
        () => undefined,
        () => undefined,
      ),
    );
  };
  const settled = (method: EarlyMethod): Promise<void> => asked.get(method) ?? Promise.resolve();
  return { api: wrapped, askEarly, settled };
}
