/**
 * Page code for the eye bench (bench/ui-eye.ts), as plain JavaScript strings (see
 * ui-page-scripts.ts for why). Every figure runs from the input event's own timestamp
 * (`event.timeStamp`) to the first animation frame whose DOM shows the result.
 */

/**
 * What the page asked for from entry `from` of the WebSocket tap on: requests per method, and how
 * many asked again for something already asked in the same span (same method, same request), and
 * the answers' bytes per method (as the socket received them).
 */
export const countsScript = (from: number | string): string => `(() => {
  const B = window.__vakBench;
  const byMethod = {}, bytesByMethod = {}, seen = new Set();
  let repeats = 0, cancels = 0, total = 0;
  for (const e of B.ws.slice(${from})) {
    total++;
    byMethod[e.method] = (byMethod[e.method] || 0) + 1;
    bytesByMethod[e.method] = (bytesByMethod[e.method] || 0) + e.bytes;
    const k = e.method + ' ' + e.body;
    if (seen.has(k)) repeats++;
    seen.add(k);
    if (e.cancelled) cancels++;
  }
  return { total, byMethod, bytesByMethod, repeats, cancels };
})()`;

/** Resolves once no request has been open for `quietMs` (the page is idle), or after `maxMs`. */
export const idleScript = (quietMs: number, maxMs: number): string => `(async () => {
  const B = window.__vakBench;
  const end = performance.now() + ${maxMs};
  let quietSince = performance.now();
  while (performance.now() < end) {
    const open = B.ws.some((e) => e.answeredAt === null && !e.cancelled);
    const last = Math.max(0, ...B.ws.map((e) => e.answeredAt ?? e.sentAt));
    if (open) quietSince = performance.now();
    else if (performance.now() - Math.max(quietSince, last) >= ${quietMs}) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
})()`;

/**
 * Arms one measurement on the next `type` event (click or keydown, captured before the app sees
 * it): resolves B.eye with { at: the event's timeStamp, doneAt: performance.now() in the first
 * animation frame where `done()` holds, wsFrom }. `done` is a page expression.
 */
export const armScript = (type: 'click' | 'keydown', done: string, timeoutMs: number): string => `(() => {
  const B = window.__vakBench;
  const m = (B.eye = { at: null, doneAt: null, error: null, wsFrom: B.ws.length });
  document.addEventListener(${JSON.stringify(type)}, (e) => {
    m.at = e.timeStamp;
    const until = performance.now() + ${timeoutMs};
    const poll = () => {
      if (${done}) { m.doneAt = performance.now(); return; }
      if (performance.now() > until) { m.error = 'not drawn within ${timeoutMs / 1000} s'; return; }
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  }, { capture: true, once: true });
})()`;

/** The tree row under the cursor (its row number), or null. */
export const CURSOR_ROW = `(() => {
  const r = document.querySelector('.tree-row.cursor');
  return r ? Number(r.id.replace('tree-row-', '')) : null;
})()`;

/** The reading indicator (a first read still in steps) is gone and the session is open. */
export const READ_DONE = `!!document.querySelector('.tree-row[data-entry-id]') && !document.querySelector('.tree .reading, progress[aria-label="Reading the session"]')`;
