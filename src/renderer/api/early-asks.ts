import type { Api, ApiMethod, ApiRequest, ApiResponse, CallOptions } from '../../shared/api';

/** The methods a page may ask before anything in it asks for them. */
export type EarlyMethod = 'findRow' | 'getTreeRows' | 'getLeafView';
const EARLY_METHODS: readonly EarlyMethod[] = ['findRow', 'getTreeRows', 'getLeafView'];

/** Sends a request now, for the part of the app that will ask it later (see withEarlyAsks). */
export type AskEarly = <M extends EarlyMethod>(method: M, req: ApiRequest<M>) => void;

interface Early {
  text: string;
  answer: Promise<unknown>;
  abort: AbortController;
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
 */
export function withEarlyAsks(api: Api): {
  api: Api;
  askEarly: AskEarly;
  /** Settles when the last early ask of `method` has been answered or dropped (at once: none). */
  settled: (method: EarlyMethod) => Promise<void>;
} {
  const early = new Map<EarlyMethod, Early>();
  const asked = new Map<EarlyMethod, Promise<void>>();
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
  for (const m of EARLY_METHODS) {
    const call = api[m] as (req: unknown, opts?: CallOptions) => Promise<unknown>;
    (wrapped as Record<ApiMethod, unknown>)[m] = (req: unknown, opts?: CallOptions) =>
      take(m, req, opts) ?? call(req, opts);
  }
  const askEarly: AskEarly = (method, req) => {
    early.get(method)?.abort.abort();
    const abort = new AbortController();
    const call = api[method] as (req: unknown, opts?: CallOptions) => Promise<ApiResponse<typeof method>>;
    const answer = call(req, { signal: abort.signal });
    // Dropped unasked, or failed: whoever takes it sees the failure; nobody else must.
    answer.catch(() => undefined);
    early.set(method, { text: canonical(req), answer, abort });
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
