/**
 * The UI bench's code that runs inside the page. It is kept as plain JavaScript
 * strings: functions compiled by tsx carry helpers that do not exist in the page,
 * and the app's CSP refuses `page.waitForFunction`'s eval.
 */
/** The tree's fixed row height (ROW_HEIGHT in src/renderer/tree/lane-graph.tsx). */
export const ROW_HEIGHT = 24;
export const OPEN_TIMEOUT_MS = 180_000;
export const CLICK_TIMEOUT_MS = 60_000;

/**
 * Installed before the app's scripts: taps the API WebSocket (request → answer times by
 * method, prefix-matched so big answers are not parsed twice) and watches, once per frame,
 * for the first drawn tree row and the first drawn leaf panes.
 */
export const INIT_SCRIPT = `(() => {
  const B = (window.__vakBench = { ws: [], firstRowsAt: null, panesAt: null, firstProgressAt: null, click: null });
  const byId = new Map();
  const Native = window.WebSocket;
  class Tapped extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (m) => {
        if (typeof m.data !== 'string') return;
        const head = m.data.slice(0, 48);
        const r = /^\\{"id":(\\d+),"ok":(true|false)/.exec(head);
        if (r) {
          const e = byId.get(Number(r[1]));
          if (e) { e.answeredAt = performance.now(); e.ok = r[2] === 'true'; e.bytes = m.data.length; }
        } else if (B.firstProgressAt === null && head.includes('"type":"progress"')) {
          B.firstProgressAt = performance.now();
        }
      });
    }
    send(data) {
      if (typeof data === 'string') {
        const r = /^\\{"id":(\\d+),"method":"(\\w+)"/.exec(data.slice(0, 64));
        if (r) {
          const e = { id: Number(r[1]), method: r[2], sentAt: performance.now(), answeredAt: null, ok: null, bytes: 0 };
          byId.set(e.id, e);
          B.ws.push(e);
        }
      }
      return super.send(data);
    }
  }
  window.WebSocket = Tapped;
  // Every main-thread task over 50 ms (Long Tasks API): the renderer must never block (issue 9).
  B.longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) B.longTasks.push({ at: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {
    B.longTasks = null;
  }
  // Both panes are drawn for a leaf when .leaf-panes names it (data-leaf-id), is not busy,
  // and both columns hold rows.
  B.panesFor = (id) => {
    const panes = document.querySelector('.leaf-panes[data-leaf-id]');
    if (!panes || (id !== null && panes.getAttribute('data-leaf-id') !== id)) return false;
    if (panes.getAttribute('aria-busy') === 'true') return false;
    const hist = document.querySelector('section[aria-label="History"]');
    const proj = document.querySelector('section[aria-label="Projected context"]');
    return !!(hist && proj && hist.querySelector('.history-item') && proj.querySelector('.pane-head'));
  };
  B.leafError = () => {
    const e = document.querySelector('.leaf-head .error, .leaf-panes.empty-pane');
    return e && e.textContent.trim() && !/^Loading/.test(e.textContent.trim()) ? e.textContent.trim() : null;
  };
  const until = performance.now() + ${OPEN_TIMEOUT_MS};
  const watch = () => {
    const now = performance.now();
    if (B.firstRowsAt === null && document.querySelector('.tree-row[data-entry-id]')) B.firstRowsAt = now;
    if (B.panesAt === null && B.panesFor(null)) B.panesAt = now;
    if ((B.firstRowsAt === null || B.panesAt === null) && now < until) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
})();`;

/**
 * Scrolls .tree-scroll from `from` px over `px` px (null: to the bottom) in `ms`, one
 * scrollTop step per animation frame. Per frame: the interval between rAF timestamps, and
 * the frame's main-thread work: from its scroll event (where the virtualizer renders the new
 * rows with React; a capture listener on the scroller runs first) or, without one, its rAF
 * callback, to a message posted from the rAF callback, which runs once the frame's style,
 * layout and paint are done. (Measured from the rAF timestamp instead, it would also count
 * the wait between vsync and the main thread starting the frame.)
 */
export const scrollScript = (ms: number, from: 'top' | 'middle', px: number | null): string => `(async () => {
  const el = document.querySelector('.tree-scroll');
  const max = el.scrollHeight - el.clientHeight;
  const view = el.clientHeight;
  const a = ${from === 'top' ? '0' : 'Math.round(max / 2)'};
  const b = ${px === null ? 'max' : `Math.min(max, a + ${px})`};
  el.scrollTop = a;
  const blankIn = (top) => {
    for (const row of el.querySelectorAll('.tree-row.placeholder')) {
      const y = parseFloat(row.style.top);
      if (y + ${ROW_HEIGHT} > top && y < top + view) return true;
    }
    return false;
  };
  // Start from a settled view: the rows at the start position drawn.
  for (const until = performance.now() + 10000; blankIn(a) && performance.now() < until; )
    await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return await new Promise((resolve) => {
    const frames = [], work = [];
    let blankFrames = 0, start = null, prev = null, shown = a, scrolledAt = null;
    const onScroll = () => { if (scrolledAt === null) scrolledAt = performance.now(); };
    el.addEventListener('scroll', onScroll, { capture: true, passive: true });
    const measureWork = (t) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => work.push(performance.now() - t);
      ch.port2.postMessage(0);
    };
    const step = (t) => {
      if (start === null) start = t;
      if (prev !== null) frames.push(t - prev);
      prev = t;
      measureWork(scrolledAt ?? performance.now());
      scrolledAt = null;
      // What this frame paints is the DOM for the position set one frame ago.
      if (frames.length > 0 && blankIn(shown)) blankFrames++;
      const f = Math.min(1, (t - start) / ${ms});
      shown = Math.round(a + f * (b - a));
      el.scrollTop = shown;
      if (f < 1) { requestAnimationFrame(step); return; }
      requestAnimationFrame((t2) => {
        frames.push(t2 - prev);
        if (blankIn(shown)) blankFrames++;
        el.removeEventListener('scroll', onScroll, { capture: true });
        const endAt = performance.now();
        const settle = () => {
          const filled = !blankIn(shown);
          if (filled || performance.now() - endAt > 10000)
            resolve({ frames, work, blankFrames, fromPx: a, toPx: el.scrollTop, reachedEnd: el.scrollTop >= b - 2,
              filledAfter: filled ? performance.now() - endAt : null });
          else requestAnimationFrame(settle);
        };
        settle();
      });
    };
    requestAnimationFrame(step);
  });
})()`;

/** Brings tree row `row` into the middle of the view and waits until it is drawn; returns its entry id. */
export const showRowScript = (row: number): string => `(async () => {
  const el = document.querySelector('.tree-scroll');
  // Past the browser's element height the tree scrolls scaled (data/scaled-rows.ts): its
  // content is shorter than rows × height, and a scrolled pixel moves \`scale\` virtual ones.
  const rows = Number(el.dataset.rows);
  const view = el.clientHeight;
  const scale = rows * ${ROW_HEIGHT} > el.scrollHeight ? (rows * ${ROW_HEIGHT} - view) / (el.scrollHeight - view) : 1;
  el.scrollTop = Math.max(0, (${row * ROW_HEIGHT} - view / 2) / scale);
  const until = performance.now() + 30000;
  for (;;) {
    await new Promise((r) => requestAnimationFrame(r));
    const r = document.getElementById('tree-row-${row}');
    if (r && r.dataset.entryId) {
      await new Promise((res) => setTimeout(res, 150));
      return { id: r.dataset.entryId, selected: r.classList.contains('selected-leaf') };
    }
    if (performance.now() > until) return null;
  }
})()`;

/**
 * Arms the click measurement: the click's event time (captured before React sees it) →
 * the first animation frame in which both panes show the clicked entry as their leaf.
 */
export const armClickScript = (id: string): string => `(() => {
  const B = window.__vakBench;
  const id = ${JSON.stringify(id)};
  B.click = { clickAt: null, drawnAt: null, error: null, wsFrom: B.ws.length };
  const c = B.click;
  document.addEventListener('click', (e) => {
    c.clickAt = e.timeStamp;
    const until = performance.now() + ${CLICK_TIMEOUT_MS};
    const poll = () => {
      if (B.panesFor(id)) { c.drawnAt = performance.now(); return; }
      const err = B.leafError();
      if (err && performance.now() - c.clickAt > 50 && !document.querySelector('.leaf-panes[aria-busy="true"]')) { c.error = err; return; }
      if (performance.now() > until) { c.error = 'not drawn within ${CLICK_TIMEOUT_MS / 1000} s'; return; }
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  }, { capture: true, once: true });
})()`;
