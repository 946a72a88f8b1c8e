import { createHash } from 'node:crypto';
import { EARLY_SCRIPT } from '../../shared/early-script';

/**
 * The one script the page runs before its bundle, inline in index.html (src/shared/early-script.ts):
 * in serve mode it opens the API's WebSocket and posts a reload's first requests to the early
 * answers route. The CSP allows exactly this text, by its hash: no other inline script runs.
 */
export const EARLY_SOCKET_SCRIPT = EARLY_SCRIPT;

/** The CSP source that allows the script above (`'sha256-…'`). */
export function earlySocketHashSource(): string {
  return `'sha256-${createHash('sha256').update(EARLY_SOCKET_SCRIPT, 'utf8').digest('base64')}'`;
}
