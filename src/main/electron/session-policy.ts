/**
 * Session-wide policy: no permission is granted to anything (Electron grants
 * all by default), except writing to the clipboard from our own page, and the
 * CSP is stamped on http(s) responses (the dev server's; app:// sets its own).
 */
import type { Session } from 'electron';

/** The one permission our own page may have: "copy" buttons use navigator.clipboard.writeText. */
const OWN_PAGE_PERMISSIONS = new Set<string>(['clipboard-sanitized-write']);

/** Applies the permission handlers and the CSP header to a session. */
export function applySessionPolicy(ses: Session, opts: { csp: string; isOwnUrl(url: string): boolean }): void {
  const allowed = (permission: string, url: string | undefined): boolean =>
    OWN_PAGE_PERMISSIONS.has(permission) && url !== undefined && opts.isOwnUrl(url);
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(allowed(permission, details.requestingUrl));
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowed(permission, requestingOrigin));
  ses.setDevicePermissionHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [opts.csp] } });
  });
}
