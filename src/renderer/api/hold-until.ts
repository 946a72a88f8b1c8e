import type { Api, ApiMethod, CallOptions } from '../../shared/api';
import { API_METHOD_NAMES } from './api-methods';
import { cancelledCall } from './bridge-client';
import { whenIdle } from '../util/after-paint';
import { settledWithin } from '../util/settled-within';

/** Which calls wait (a method and its request). */
export type Held = (method: ApiMethod, req: unknown) => boolean;

/**
 * The Api with the calls `held` picks sent only once `gate` has settled (at once after). A held
 * call keeps its place: it is made with its own request and options then, and an abort while it
 * waits rejects it with `cancelled` without sending it. Nothing else is delayed or reordered.
 */
export function holdUntil(api: Api, gate: Promise<void>, held: Held): Api {
  let open = false;
  const opened = gate.then(
    () => void (open = true),
    () => void (open = true),
  );
  const wrapped: Api = { ...api };
  for (const m of API_METHOD_NAMES) {
    const call = api[m] as (req: unknown, opts?: CallOptions) => Promise<unknown>;
    (wrapped as Record<ApiMethod, unknown>)[m] = (req: unknown, opts?: CallOptions) => {
      if (open || !held(m, req)) return call(req, opts);
      const signal = opts?.signal;
      if (signal?.aborted) return Promise.reject(cancelledCall(m));
      return new Promise((resolve, reject) => {
        const onAbort = (): void => reject(cancelledCall(m));
        signal?.addEventListener('abort', onAbort, { once: true });
        void opened.then(() => {
          signal?.removeEventListener('abort', onAbort);
          if (signal?.aborted) return;
          call(req, opts).then(resolve, reject);
        });
      });
    };
  }
  return wrapped;
}

/**
 * What a page opened on a session (a reload) asks only after its first screen: the library's
 * listing, counts and subscription. Answered while the rows and panes are drawn, they take the
 * backend's and the page's time from that first screen; the session's own calls (its open, rows,
 * leaf view, plan, secrets) are not held, and the chart waits for the panes' paint by itself
 * (use-context-series.ts).
 */
export const AFTER_FIRST_SCREEN: Held = (method, req) => {
  switch (method) {
    case 'getHome':
    case 'listSessions':
    case 'listRecentFiles':
    case 'getSecretSurvey':
    case 'getSecretCounts':
      return true;
    case 'subscribe':
      return (req as { topic?: unknown } | null)?.topic === 'library';
    default:
      return false;
  }
};

/**
 * Settles once `shown` has settled and the page then had an idle moment (its first screen drawn:
 * React renders and the frame's work run in tasks, so an idle period comes after them), or after
 * `capMs` whatever happens.
 */
export function afterFirstScreen(shown: Promise<unknown>, capMs: number, win: Window = window): Promise<void> {
  return settledWithin(capMs, (done) => {
    const idle = (): void => void whenIdle(done, capMs, win);
    shown.then(idle, idle);
  });
}
