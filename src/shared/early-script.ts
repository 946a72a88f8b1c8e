/**
 * The one script the page runs before its bundle, inline in index.html (built in by
 * electron.vite.config.ts, allowed by its hash in the CSP: src/main/web/early-socket.ts). In serve
 * mode it opens the API's WebSocket while the bundle is still read and compiled (ws-client.ts
 * adopts it), and, for a page opened on a session (a reload, a link), posts the session's first
 * read-only requests to the early answers route (api-early.ts) at once: their answers are taken
 * whenever the page's main thread is free, with no socket handshake before them (open-early.ts
 * takes them only when they are exactly what it would ask). In Electron (the preload's bridge,
 * `window.vak`) and off http(s) it does nothing.
 *
 * It asks what open-early.ts asks, from the same inputs: the URL's hash (session, leaf; the leaf
 * view only for a hash that names no plan, profile, override or comparison: the defaults) and the
 * row this tab kept in sessionStorage; without a kept row or a named leaf, the tree's page of the
 * active leaf, as the session's controller asks it (open-early.ts activeLeafPageRequest). The
 * numbers below are the renderer's (a test holds them equal): TREE_PAGE, the history row and
 * message heights of leafScreen(), DEFAULT_PROFILE.
 */
import { EARLY_ANSWERS_PATH } from './api-early';
import { DEFAULT_PROFILE } from './ledger-types';

/** The page of tree rows (renderer/data/session-sources.ts TREE_PAGE). */
export const EARLY_TREE_PAGE = 256;
/** leafScreen()'s figures (renderer/util/leaf-screen.ts). */
export const EARLY_SCREEN = { rowPx: 22, rowOverscan: 12, messagePx: 40, messageOverscan: 6 } as const;
/** Where open-early.ts keeps the cursor's row for a reload of the tab. */
export const OPENED_ROW_KEY = 'vak-explorer.opened-row.v1';
/** Longest entry id a link may name (url-state.ts validId). */
const MAX_ID = 512;

const profile = JSON.stringify(DEFAULT_PROFILE);
const s = EARLY_SCREEN;

export const EARLY_SCRIPT =
  '(function(){var l=location,w=window;if(w.vak||!/^https?:$/.test(l.protocol))return;' +
  "try{w.__vakEarlySocket=new WebSocket((l.protocol==='https:'?'wss:':'ws:')+'//'+l.host+'/api/ws')}catch(e){}" +
  'try{var h=l.hash;if(h.length>1e6)return;var p=new URLSearchParams(h.slice(1)),k=p.get("s");if(!k)return;' +
  `var f=p.get("leaf"),d=f&&f.length<=${MAX_ID}?f:null,plain=true;` +
  'p.forEach(function(v,n){if(n!=="s"&&n!=="leaf"&&n!=="v"&&n!=="panels")plain=false});' +
  'var a=[{method:"openSession",req:{key:k}}];' +
  'if(d!==null)a.push({method:"findRow",req:{key:k,id:d,foldAudit:false}});' +
  `var r=null;try{r=JSON.parse(sessionStorage.getItem(${JSON.stringify(OPENED_ROW_KEY)})||"null")}catch(e){}` +
  'if(r&&r.key===k&&r.leaf===d&&r.foldAudit===false&&typeof r.row==="number"&&r.row>=0&&r.row%1===0)' +
  `a.push({method:"getTreeRows",req:{key:k,start:Math.floor(r.row/${EARLY_TREE_PAGE})*${EARLY_TREE_PAGE},count:${EARLY_TREE_PAGE},foldAudit:false}});` +
  `else if(d===null)a.push({method:"getTreeRows",req:{key:k,start:0,count:${EARLY_TREE_PAGE},foldAudit:false,holding:"activeLeaf"}});` +
  `if(plain){var q={key:k,leaf:d,plan:"auto",profile:${profile},overrides:{},pagedMessages:true},y=w.innerHeight;` +
  `if(y>0)q.screen={chainRows:Math.ceil(y/${s.rowPx})+${s.rowOverscan},messages:Math.ceil(y/${s.messagePx})+${s.messageOverscan}};` +
  'a.push({method:"getLeafView",req:q})}' +
  `w.__vakEarlyAnswers={asks:a,answers:fetch(${JSON.stringify(EARLY_ANSWERS_PATH)},{method:"POST",credentials:"same-origin",` +
  'headers:{"Content-Type":"application/json"},body:JSON.stringify({asks:a})})' +
  '.then(function(x){return x.ok?x.json():null})}' +
  '}catch(e){}})();';
