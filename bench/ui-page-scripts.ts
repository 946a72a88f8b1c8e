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
 * for the first drawn tree row, the first drawn leaf panes and the drawn context chart.
 */
export const INIT_SCRIPT = `(() => {
  const B = (window.__vakBench = { ws: [], firstRowsAt: null, panesAt: null, chartAt: null, firstProgressAt: null, click: null, wsOpenAt: null });
  const byId = new Map();
  const Native = window.WebSocket;
  class Tapped extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('open', () => { if (B.wsOpenAt === null) B.wsOpenAt = performance.now(); });
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
          // body: the request without its id, to tell a repeat of the same request (the eye bench).
          const body = data.slice(data.indexOf('"method"'), 600);
          const e = { id: Number(r[1]), method: r[2], body, sentAt: performance.now(), answeredAt: null, ok: null, bytes: 0, cancelled: false };
          byId.set(e.id, e);
          B.ws.push(e);
        }
        const c = /^\\{"cancel":(\\d+)\\}/.exec(data);
        if (c && byId.has(Number(c[1]))) byId.get(Number(c[1])).cancelled = true;
      }
      return super.send(data);
    }
  }
  window.WebSocket = Tapped;
  // Every main-thread task over 50 ms (Long Tasks API): the renderer must never block.
  B.longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) B.longTasks.push({ at: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {
    B.longTasks = null;
  }
  // Long animation frames (--verbose): which script a long task ran, and its forced layouts.
  B.loafs = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!(e.blockingDuration > 0)) continue;
        B.loafs.push({
          at: e.startTime, ms: e.duration, renderAt: e.renderStart || null, layoutAt: e.styleAndLayoutStart || null,
          scripts: e.scripts.map((s) => ({ at: s.startTime, ms: s.duration, what: s.invoker || s.invokerType, layout: s.forcedStyleAndLayoutDuration })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (e) {
    B.loafs = null;
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
  // The tree's screen is drawn: every row slot in the tree's box holds an entry (none a
  // placeholder), and the rows fill the box (or the session has fewer). Not just a first row:
  // a screen drawn in two parts counts from the second.
  B.treeScreenDrawn = () => {
    const box = document.querySelector('.tree-scroll');
    if (!box) return false;
    const b = box.getBoundingClientRect();
    if (!(b.height > 0)) return false;
    let drawn = 0;
    for (const row of box.querySelectorAll('.tree-row')) {
      const r = row.getBoundingClientRect();
      if (r.bottom <= b.top || r.top >= b.bottom) continue;
      if (!row.dataset.entryId) return false;
      drawn++;
    }
    return drawn > 0 && drawn >= Math.min(Number(box.dataset.rows), Math.floor(b.height / ${ROW_HEIGHT}));
  };
  // The context chart is drawn once its head counts turn ends and is not updating.
  B.chartDrawn = () => {
    const h = document.querySelector('.context-chart .chart-head .dim');
    return !!h && /^[1-9]/.test(h.textContent) && !h.textContent.includes('updating');
  };
  // An open's figures, looked for in each frame until all are in or the bench has read them
  // (settleOpen ends the watch). A watch left running (a chart not drawn by then) would keep the
  // page drawing a frame every vsync, and each later key's or click's frame would wait for the next
  // one: the bench would time its own frames (docs/performance.md, stop 33).
  B.watchOpen = () => {
    B.watchUntil = performance.now() + ${OPEN_TIMEOUT_MS};
    const watch = () => {
      const now = performance.now();
      if (B.firstRowsAt === null && B.treeScreenDrawn()) B.firstRowsAt = now;
      if (B.panesAt === null && B.panesFor(null)) B.panesAt = now;
      if (B.chartAt === null && B.chartDrawn()) B.chartAt = now;
      if ((B.firstRowsAt === null || B.panesAt === null || B.chartAt === null) && now < B.watchUntil)
        requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
  };
  B.watchOpen();
})();`;

/**
 * Page code (a statement) defining `driveFrames(el, ms, step, blank)`: calls step(f), f from 0 to
 * 1, once per animation frame for `ms` (step moves the list: a scrollTop, a wheel event) and
 * resolves { frames, work, blankFrames }. Per frame: the interval between rAF timestamps, and the
 * frame's main-thread work: from its scroll event on `el` (where a virtualizer renders the new
 * rows with React; a capture listener on the scroller runs first) or, without one, its rAF
 * callback, to a message posted from the rAF callback, which runs once the frame's style,
 * layout and paint are done. (Measured from the rAF timestamp instead, it would also count the
 * wait between vsync and the main thread starting the frame.) `blank()` is asked once a frame
 * for what the frame paints: the DOM of the step one frame ago.
 */
const DRIVE_FRAMES_JS = `const driveFrames = (el, ms, step, blank) => new Promise((resolve) => {
    const frames = [], work = [];
    let blankFrames = 0, start = null, prev = null, scrolledAt = null;
    const onScroll = () => { if (scrolledAt === null) scrolledAt = performance.now(); };
    el.addEventListener('scroll', onScroll, { capture: true, passive: true });
    const measureWork = (t) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => work.push(performance.now() - t);
      ch.port2.postMessage(0);
    };
    const tick = (t) => {
      if (start === null) start = t;
      if (prev !== null) frames.push(t - prev);
      prev = t;
      measureWork(scrolledAt ?? performance.now());
      scrolledAt = null;
      if (frames.length > 0 && blank()) blankFrames++;
      const f = Math.min(1, (t - start) / ms);
      step(f);
      if (f < 1) { requestAnimationFrame(tick); return; }
      requestAnimationFrame((t2) => {
        frames.push(t2 - prev);
        if (blank()) blankFrames++;
        el.removeEventListener('scroll', onScroll, { capture: true });
        resolve({ frames, work, blankFrames });
      });
    };
    requestAnimationFrame(tick);
  });`;

/**
 * Scrolls .tree-scroll from `from` px over `px` px (null: to the bottom) in `ms`, one
 * scrollTop step per animation frame (driveFrames: interval and work per frame).
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
  ${DRIVE_FRAMES_JS}
  let shown = a;
  const r = await driveFrames(el, ${ms}, (f) => {
    shown = Math.round(a + f * (b - a));
    el.scrollTop = shown;
  }, () => blankIn(shown));
  const endAt = performance.now();
  for (;;) {
    const filled = !blankIn(shown);
    if (filled || performance.now() - endAt > 10000)
      return Object.assign(r, { fromPx: a, toPx: el.scrollTop, reachedEnd: el.scrollTop >= b - 2,
        filledAfter: filled ? performance.now() - endAt : null });
    await new Promise((res) => requestAnimationFrame(res));
  }
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

/**
 * Installed after INIT_SCRIPT, for the History and Projected lists at `rows` rows
 * (past Chromium's element height). A real ledger of 2M entries is ~1 GB; instead the page's
 * API WebSocket is tapped: the answer to `getLeafView` (the real one, from the real server, for
 * the demo session's leaf) has its chain and its projection swapped for `rows` synthetic
 * entries and messages (entry c<p> at chain position p went to message #p; messages of 1–7
 * lines, so their heights vary), and the pages the panes then ask for (`getChainItems`,
 * `getProjectedMessages`) are answered in the page after `latencyMs` instead of being sent. The
 * list components, their paging, linking and scrolling are the app's own, in Chromium.
 */
export const synthRowsScript = (rows: number, latencyMs: number): string => `(() => {
  const N = ${rows};
  const S = (window.__vakSynth = { rows: N, pages: 0 });
  const Base = window.WebSocket;
  // The leaf views are swapped where the socket delivers them: a reload's early answers (an HTTP
  // post) are refused here, so the page asks them over the socket, as it does when that post fails.
  const baseFetch = window.fetch;
  window.fetch = (url, init) =>
    String(url).includes('/api/early') ? Promise.reject(new TypeError('synthetic rows: asked over the socket')) : baseFetch.call(window, url, init);
  const views = new Set();
  const local = new Set();
  let tpl = null, msgTpl = null;
  const itemOf = (p) => Object.assign({}, tpl, {
    pos: p, id: 'c' + p, index: p, line: p + 1, kind: 'message', role: p % 2 ? 'assistant' : 'user',
    text: 'synthetic entry ' + p.toLocaleString('en-US'), projectedAs: [p], hidden: null, control: false,
  }, tpl.projectedFidelity ? { projectedFidelity: ['full'] } : {});
  const messageOf = (p) => Object.assign({}, msgTpl, {
    role: p % 2 ? 'assistant' : 'user', fidelity: 'full', tokens: 10 + (p % 7) * 12, source_ids: ['c' + p],
    content: [{ type: 'text', text: 'message ' + p.toLocaleString('en-US') + Array.from({ length: p % 7 }, (_, k) => '\\nline ' + (k + 2)).join('') }],
  });
  const page = (start, count) => {
    const messages = [];
    for (let p = start; p < Math.min(N, start + count); p++) messages.push(messageOf(p));
    const sourcePositions = {};
    messages.forEach((_, k) => (sourcePositions['c' + (start + k)] = start + k));
    return { start, messages, clipped: [], sourcePositions };
  };
  const synthView = (v) => {
    tpl = v.chain.find((c) => c.projectedAs.length === 1) || v.chain[v.chain.length - 1];
    const pages = v.messagePages && v.messagePages.length ? v.messagePages : [{ messages: v.projection.messages }];
    msgTpl = pages[0].messages[0];
    const head = page(0, 30), tail = page(N - 10, 10);
    const chain = [];
    for (let p = N - 200; p < N; p++) chain.push(itemOf(p));
    return Object.assign({}, v, {
      chainLength: N, chainStart: N - 200, chain, kindCounts: { message: N }, messageCount: N,
      messagePages: [head, tail], sourcePositions: Object.assign({}, head.sourcePositions, tail.sourcePositions),
    });
  };
  class Synth extends Base {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (m) => {
        if (m.__synth || typeof m.data !== 'string') return;
        const r = /^\\{"id":(\\d+),"ok":true/.exec(m.data.slice(0, 40));
        if (!r || !views.delete(Number(r[1]))) return;
        m.stopImmediatePropagation();
        const frame = JSON.parse(m.data);
        frame.res = synthView(frame.res);
        this.answer(frame);
      });
    }
    answer(frame) {
      const ev = new MessageEvent('message', { data: JSON.stringify(frame) });
      ev.__synth = true;
      this.dispatchEvent(ev);
    }
    send(data) {
      if (typeof data === 'string') {
        const r = /^\\{"id":(\\d+),"method":"(\\w+)"/.exec(data.slice(0, 64));
        if (r && r[2] === 'getLeafView') views.add(Number(r[1]));
        if (r && tpl && (r[2] === 'getChainItems' || r[2] === 'getProjectedMessages')) {
          const f = JSON.parse(data);
          const start = f.req.start, count = Math.max(0, Math.min(f.req.count, N - start));
          const res = r[2] === 'getChainItems'
            ? { chainLength: N, total: N, start, items: Array.from({ length: count }, (_, k) => itemOf(start + k)) }
            : Object.assign(page(start, count), { total: N });
          local.add(f.id);
          S.pages++;
          setTimeout(() => local.delete(f.id) && this.answer({ id: f.id, ok: true, res }), ${latencyMs});
          return;
        }
        const c = /^\\{"cancel":(\\d+)\\}/.exec(data);
        if (c && local.has(Number(c[1]))) return void local.delete(Number(c[1]));
      }
      return super.send(data);
    }
  }
  window.WebSocket = Synth;
})();`;

/**
 * Measures one pane's list (`History` or `Projected context`) at its synthetic length, all in
 * the page: where it opened, reaching its first, middle and last row with the scrollbar (one
 * scrollTop step per frame, top → bottom in `thumbMs`), a mouse wheel of `wheelPx` px in
 * `wheelMs` from the middle (a WheelEvent per frame: what the list takes from a wheel), the End
 * and Home keys. Per frame: the interval between rAF timestamps and the frame's main-thread work
 * (as scrollScript), and whether a row still being fetched ("…") showed in the viewport.
 */
export const paneScaleScript = (
  pane: string,
  thumbMs: number,
  wheelMs: number,
  wheelPx: number,
): string => `(async () => {
  const N = window.__vakSynth.rows;
  const sec = document.querySelector('section[aria-label=${JSON.stringify(pane)}]');
  const el = sec.querySelector('.pane-scroll');
  const isHistory = ${JSON.stringify(pane)} === 'History';
  const rowSel = (i) => isHistory ? '.history-item[data-entry-id="c' + i + '"]' : '.projected-msg[data-message-index="' + i + '"]';
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const view = () => el.getBoundingClientRect();
  const inView = (i) => {
    const r = sec.querySelector(rowSel(i));
    if (!r) return false;
    const b = r.getBoundingClientRect(), v = view();
    return b.bottom > v.top + 1 && b.top < v.bottom - 1;
  };
  const blank = () => {
    const v = view();
    for (const p of sec.querySelectorAll('.history-placeholder, .projected-placeholder')) {
      const b = p.getBoundingClientRect();
      if (b.bottom > v.top && b.top < v.bottom) return true;
    }
    return false;
  };
  const settle = async (ok) => {
    for (const until = performance.now() + 10000; performance.now() < until; ) {
      await frame();
      if (ok() && !blank()) return true;
    }
    return ok();
  };
  // Rows in the viewport, loaded or still "…" (a scaled list's rows all carry data-index).
  const visibleRows = () => {
    const v = view(), seen = [];
    for (const r of el.querySelectorAll('[data-index]')) {
      const b = r.getBoundingClientRect();
      if (b.bottom > v.top && b.top < v.bottom) seen.push(Number(r.dataset.index));
    }
    return seen;
  };
  const out = { rows: N, contentPx: el.scrollHeight, scaled: el.hasAttribute('data-scaled'), openedAtEnd: inView(N - 1) };
  ${DRIVE_FRAMES_JS}
  const drive = (ms, step) => driveFrames(el, ms, step, blank);
  // The scrollbar, top → bottom: the first row, then the last.
  el.scrollTop = 0;
  out.reachedFirst = await settle(() => inView(0));
  const max = el.scrollHeight - el.clientHeight;
  out.thumb = await drive(${thumbMs}, (f) => (el.scrollTop = Math.round(f * max)));
  out.reachedLast = await settle(() => inView(N - 1));
  el.scrollTop = Math.round(max / 2);
  const mid = Math.round(N / 2);
  // A scaled list maps the thumb to rows linearly: within 50 rows. A virtualized list (the
  // baseline) spaces the rows it never drew at the estimate: its middle pixel is the middle row
  // only as far as the estimate is right (within 1 %).
  const near = out.scaled ? 50 : Math.max(50, N / 100);
  out.reachedMiddle = await settle(() => visibleRows().some((i) => Math.abs(i - mid) < near));
  out.middleRows = visibleRows();
  // A wheel from the middle: every row passes (no row skipped), at wheelPx / wheelMs.
  const before = visibleRows();
  let sent = 0;
  const seen = new Set(before);
  // A scaled list takes the wheel itself; below the limit a wheel scrolls the box natively
  // (an untrusted WheelEvent does not): there, the same pixels as scrollTop steps.
  const scaled = el.hasAttribute('data-scaled');
  const wheel = await drive(${wheelMs}, (f) => {
    // Notches of at most 100 px (a mouse wheel's), as many as the time asks for in this frame.
    for (const to = Math.round(f * ${wheelPx}); sent < to; ) {
      const d = Math.min(100, to - sent);
      if (scaled) el.dispatchEvent(new WheelEvent('wheel', { deltaY: d, bubbles: true, cancelable: true }));
      else el.scrollTop += d;
      sent += d;
      for (const i of visibleRows()) seen.add(i);
    }
  });
  await settle(() => true);
  for (const i of visibleRows()) seen.add(i);
  const after = visibleRows();
  const lo = Math.min(...before), hi = Math.max(...after);
  let skipped = 0;
  for (let i = lo; i <= hi; i++) if (!seen.has(i)) skipped++;
  out.wheel = Object.assign(wheel, { px: ${wheelPx}, fromRow: lo, toRow: hi, skipped });
  // Keys on the list (focus on a control in it, as after a click): End, then Home. Only a scaled
  // list takes them itself (an untrusted key scrolls nothing natively).
  if (out.scaled) {
    const control = () => sec.querySelector(isHistory ? '.history-item .history-id' : '.projected-msg .msg-pin') || el;
    control().focus({ preventScroll: true });
    control().dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true, cancelable: true }));
    out.endKey = await settle(() => inView(N - 1));
    control().dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true, cancelable: true }));
    out.homeKey = await settle(() => inView(0));
    document.activeElement && document.activeElement.blur();
  }
  return out;
})()`;

/**
 * Linking across the synthetic lists: the History scrolled by its scrollbar to about `row`, a
 * click on the "→ #p" link of the entry in the middle of its view brings message #p into the
 * projected pane (fetched there); then the projected pane scrolled to about `back`, a click on
 * the source of the message in the middle of its view brings that entry into the History.
 * Times from the click to the partner row drawn, lit, in view.
 */
export const paneLinkScript = (row: number, back: number): string => `(async () => {
  const hist = document.querySelector('section[aria-label="History"]');
  const proj = document.querySelector('section[aria-label="Projected context"]');
  const hs = hist.querySelector('.pane-scroll'), ps = proj.querySelector('.pane-scroll');
  const N = window.__vakSynth.rows;
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const inView = (sec, sel) => {
    const r = sec.querySelector(sel);
    if (!r) return false;
    const b = r.getBoundingClientRect(), v = sec.querySelector('.pane-scroll').getBoundingClientRect();
    return b.bottom > v.top + 1 && b.top < v.bottom - 1;
  };
  const until = async (ok) => {
    for (const end = performance.now() + 10000; performance.now() < end; ) { await frame(); if (ok()) return true; }
    return false;
  };
  // The loaded row nearest the middle of a pane's view that has a link button.
  const middle = (sec, rowSel, linkSel) => {
    const v = sec.querySelector('.pane-scroll').getBoundingClientRect(), y = (v.top + v.bottom) / 2;
    let best = null, d = Infinity;
    for (const r of sec.querySelectorAll(rowSel)) {
      const b = r.getBoundingClientRect();
      if (b.bottom < v.top || b.top > v.bottom || !r.querySelector(linkSel)) continue;
      const dy = Math.abs((b.top + b.bottom) / 2 - y);
      if (dy < d) { d = dy; best = r; }
    }
    return best;
  };
  const out = {};
  hs.scrollTop = Math.round((${row} / N) * (hs.scrollHeight - hs.clientHeight));
  await until(() => !!middle(hist, '.history-item', '.projected-as button') && !hist.querySelector('.history-placeholder'));
  const entry = middle(hist, '.history-item', '.projected-as button');
  if (!entry) return { error: 'no History entry drawn near ${row}' };
  const p = Number(entry.dataset.entryId.slice(1));
  out.row = p;
  let t0 = performance.now();
  entry.querySelector('.projected-as button').click();
  out.toMessage = await until(() => inView(proj, '.projected-msg.linked[data-message-index="' + p + '"]'));
  out.toMessageMs = performance.now() - t0;
  ps.scrollTop = Math.round((${back} / N) * (ps.scrollHeight - ps.clientHeight));
  await until(() => !!middle(proj, '.projected-msg', '.msg-sources .link-button') && !proj.querySelector('.projected-placeholder'));
  const msg = middle(proj, '.projected-msg', '.msg-sources .link-button');
  if (!msg) return Object.assign(out, { error: 'no message drawn near #${back}' });
  const q = Number(msg.dataset.messageIndex);
  out.back = q;
  t0 = performance.now();
  msg.querySelector('.msg-sources .link-button').click();
  out.toEntry = await until(() => inView(hist, '.history-item.linked[data-entry-id="c' + q + '"]'));
  out.toEntryMs = performance.now() - t0;
  return out;
})()`;
