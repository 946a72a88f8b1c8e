/**
 * Which Host and Origin headers the loopback server answers to. A page on any
 * site can make the browser talk to 127.0.0.1 (DNS rebinding points its own
 * name there; a WebSocket is not held back by CORS at all), so the server
 * answers only to its own loopback names, and opens the API socket only for a
 * page of its own origin.
 */

/** The loopback names a browser may use for us, each with our port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** True when the Host header is exactly one of our loopback names on our port. */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).includes(host.toLowerCase());
}

/**
 * True when the Origin header is exactly one of our own origins: http, one of
 * our loopback names, our port. (Any of the three: each is a page we served.)
 */
export function isOwnOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined || !origin.toLowerCase().startsWith('http://')) return false;
  return isAllowedHost(origin.slice('http://'.length), port);
}
