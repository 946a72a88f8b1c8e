import { earlySocketHashSource } from './early-socket';

/**
 * The one Content-Security-Policy of the explorer's renderer, sent by the
 * app:// protocol handler in Electron and by the loopback server in serve mode.
 * Ledger content is untrusted, so nothing but our own bundle may run, and the
 * page may talk to nothing but its own origin.
 */
export interface CspOptions {
  /** Extra `connect-src` sources besides 'self' (the serve mode's ws:// origin). */
  connectSrc?: readonly string[];
  /**
   * The electron-vite dev server: @vitejs/plugin-react injects an inline
   * React-refresh preamble and HMR talks over ws://localhost. Never in a build.
   */
  dev?: boolean;
}

/** Builds the CSP header value. */
export function contentSecurityPolicy(opts: CspOptions = {}): string {
  // The early socket's inline script (early-socket.ts) is allowed by its hash, and nothing else inline.
  const script = opts.dev ? ["'self'", "'unsafe-inline'"] : ["'self'", earlySocketHashSource()];
  const connect = [
    "'self'",
    ...(opts.connectSrc ?? []),
    ...(opts.dev ? ['ws://localhost:*', 'http://localhost:*'] : []),
  ];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', script],
    // Inline styles cannot carry script; React's style props and CSS-in-JS need them.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    // No remote images: a markdown image in a ledger must not become a web beacon.
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', connect],
    ['worker-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}
