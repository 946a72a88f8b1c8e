/**
 * The exported page's fixed parts: its style and its one script. The script reads only
 * the JSON element of its own page and `location.hash`; it builds every node with
 * createElement and textContent (no HTML parsing of data), and the page's CSP allows
 * nothing but these two inline blocks, by hash: no network, no other script.
 */
import { createHash } from 'node:crypto';
import { escapeHtml, jsonForScript } from './html-text';

export const PAGE_STYLE = `
body{margin:0;font:13px/1.4 system-ui,sans-serif;color:#1b1f24;background:#fff;display:grid;grid-template-columns:minmax(260px,32%) 1fr;grid-template-rows:auto 1fr;height:100vh}
header{grid-column:1/3;padding:8px 12px;border-bottom:1px solid #ccd;background:#f5f6f8}
header h1{font-size:15px;margin:0 0 2px}
header p{margin:0;color:#555}
#tree{overflow:auto;border-right:1px solid #ccd}
#tree a{display:flex;gap:6px;padding:2px 8px;color:inherit;text-decoration:none;white-space:nowrap}
#tree a:hover{background:#eef}
#tree a.selected{background:#dde6ff}
#tree a.on-chain{font-weight:600}
#tree .kind{color:#666;min-width:6em}
#tree .line{color:#999;min-width:3em;text-align:right}
#tree .text{overflow:hidden;text-overflow:ellipsis}
main{overflow:auto;padding:8px 12px;display:grid;grid-template-columns:1fr 1fr;gap:12px;align-content:start}
h2{font-size:14px;margin:8px 0}
.item{border:1px solid #dde;border-radius:4px;margin:0 0 6px;padding:4px 6px}
.item .meta{color:#555;font-size:12px}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0 0;font:12px/1.35 ui-monospace,monospace}
.note{color:#666;font-style:italic}
`;

/** The page script (plain JavaScript, run as is in the exported file). */
export const PAGE_SCRIPT = `
(() => {
  'use strict';
  const data = JSON.parse(document.getElementById('vak-data').textContent);
  const rows = new Map(data.rows.map((r) => [r.id, r]));
  // Ids are ledger data: Maps, so a leaf named 'constructor' or '__proto__' finds only its own entry.
  const entries = new Map(Object.entries(data.entries));
  const projections = new Map(Object.entries(data.projections));
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const tree = document.getElementById('tree');
  const history = document.getElementById('history');
  const projection = document.getElementById('projection');
  const links = new Map();
  for (const r of data.rows) {
    const a = el('a');
    a.href = '#leaf=' + encodeURIComponent(r.id);
    a.dataset.id = r.id;
    a.append(el('span', 'line', String(r.line)), el('span', 'kind', r.kind), el('span', 'text', r.text));
    tree.append(a);
    links.set(r.id, a);
  }
  const chainOf = (id) => {
    const out = [];
    const seen = new Set();
    for (let r = rows.get(id); r && !seen.has(r.id); r = r.parent === null ? undefined : rows.get(r.parent)) {
      seen.add(r.id);
      out.push(r);
    }
    return out.reverse();
  };
  const show = (id) => {
    const chain = chainOf(id);
    const onChain = new Set(chain.map((r) => r.id));
    for (const [rid, a] of links) {
      a.classList.toggle('selected', rid === id);
      a.classList.toggle('on-chain', onChain.has(rid));
    }
    history.replaceChildren(el('h2', '', 'History of ' + id + ' (' + chain.length + ' entries)'));
    for (const r of chain) {
      const item = el('div', 'item');
      item.append(el('div', 'meta', r.line + ' · ' + r.kind + ' · ' + r.ts + ' · ' + r.id));
      const body = entries.get(r.id);
      item.append(body === undefined ? el('div', 'note', 'content not in this export') : el('pre', '', body));
      history.append(item);
    }
    const p = projections.get(id);
    projection.replaceChildren(el('h2', '', 'Projected context'));
    if (!p) {
      projection.append(el('p', 'note', 'This export holds the projected context of these leaves only:'));
      for (const leaf of projections.keys()) {
        const a = el('a', '', leaf);
        a.href = '#leaf=' + encodeURIComponent(leaf);
        projection.append(el('div'), a);
      }
      return;
    }
    projection.append(el('p', 'meta', p.summary));
    for (const m of p.messages) {
      const item = el('div', 'item');
      item.append(el('div', 'meta', m.head), el('pre', '', m.text));
      projection.append(item);
    }
  };
  const fromHash = () => {
    let id = data.chosenLeaf;
    const m = /^#leaf=(.+)$/.exec(location.hash);
    if (m) {
      try {
        id = decodeURIComponent(m[1]);
      } catch (e) {
        id = data.chosenLeaf;
      }
    }
    if (!rows.has(id)) id = data.chosenLeaf;
    show(id);
    const a = links.get(id);
    if (a && typeof a.scrollIntoView === 'function') a.scrollIntoView({ block: 'nearest' });
  };
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
`;

const sha256 = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** The Content-Security-Policy of the page: only its own style and script, by hash. */
export function pageCsp(): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(PAGE_SCRIPT)}`,
    `style-src ${sha256(PAGE_STYLE)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The whole page around its data (JSON text, escaped here for the script element). */
export function htmlPage(title: string, subtitle: string, dataJson: string): string {
  const { head, tail } = htmlPageParts(title, subtitle);
  return head + jsonForScript(dataJson) + tail;
}

/**
 * The page before and after its data: a writer in pieces sends `head`, then each piece of the
 * data's JSON text through `jsonForScript` (it escapes character by character, so pieces escape
 * as the whole would), then `tail`.
 */
export function htmlPageParts(title: string, subtitle: string): { head: string; tail: string } {
  return {
    head: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(pageCsp())}">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><p>${escapeHtml(subtitle)}</p></header>
<nav id="tree" aria-label="Session tree"></nav>
<main><section id="history"></section><section id="projection"></section></main>
<script type="application/json" id="vak-data">`,
    tail: `</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`,
  };
}
