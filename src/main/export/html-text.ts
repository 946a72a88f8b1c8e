/**
 * Text into HTML, safely: every ledger string that reaches an exported page goes
 * through one of these two functions and nowhere else.
 */

import { ownTable } from '../../shared/own-key';

const HTML_ESCAPES: Record<string, string> = ownTable({
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
});

/** Text for an HTML text node or a quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON text for a `<script type="application/json">` element: `<`, `>` and `&` become
 * `\u003c`, `\u003e`, `\u0026`, so no `</script>` or `<!--` can end or bend the element;
 * U+2028/U+2029 are escaped as well (JSON allows them, older script parsers did not).
 */
export function jsonForScript(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}
