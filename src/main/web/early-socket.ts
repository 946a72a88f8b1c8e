import { createHash } from 'node:crypto';

/**
 * The one script the page runs before its bundle, inline in index.html: in serve mode it opens
 * the API's WebSocket while the bundle is still being read and compiled, so a reload's first
 * requests leave as soon as the app asks (ws-client.ts adopts this socket). In Electron (the
 * preload's bridge, `window.vak`) and off http(s) it does nothing. The CSP allows exactly this
 * text, by its hash: no other inline script runs.
 */
export const EARLY_SOCKET_SCRIPT =
  "(function(){var l=location;if(window.vak||!/^https?:$/.test(l.protocol))return;try{window.__vakEarlySocket=new WebSocket((l.protocol==='https:'?'wss:':'ws:')+'//'+l.host+'/api/ws')}catch(e){}})();";

/** The CSP source that allows the script above (`'sha256-…'`). */
export function earlySocketHashSource(): string {
  return `'sha256-${createHash('sha256').update(EARLY_SOCKET_SCRIPT, 'utf8').digest('base64')}'`;
}
