/**
 * The serve mode's credential: a random token printed in the terminal is
 * exchanged once per browser for an HttpOnly, SameSite=Strict cookie, so the
 * token leaves the address bar and no other site can ride on the session.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a one-time token (the one handed to the browser opener) stays redeemable. */
const ONE_TIME_TTL_MS = 60_000;

export class SessionAuth {
  /** The printed token: 32 random bytes, reusable for the server's lifetime. */
  readonly token = randomBytes(32).toString('base64url');
  /** The cookie's value: a second secret, so the cookie jar never holds the printed token. */
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly oneTime = new Map<string, number>();
  /** Cookies are not port-scoped: the port in the name keeps two servers apart. */
  readonly cookieName: string;

  constructor(port: number) {
    this.cookieName = `vak_explorer_${port}`;
  }

  /**
   * A single-use token for the URL given to the browser opener: its command
   * line is visible in the process list, so what it shows must expire.
   */
  issueOneTimeToken(now = Date.now()): string {
    const t = randomBytes(32).toString('base64url');
    this.oneTime.set(t, now + ONE_TIME_TTL_MS);
    return t;
  }

  /** True for the printed token, or for a live one-time token (which it uses up). */
  redeem(candidate: string, now = Date.now()): boolean {
    if (sameSecret(candidate, this.token)) return true;
    for (const [t, expires] of this.oneTime) {
      if (expires < now) this.oneTime.delete(t);
      else if (sameSecret(candidate, t)) {
        this.oneTime.delete(t);
        return true;
      }
    }
    return false;
  }

  /** The Set-Cookie value that a redeemed token earns. */
  setCookieHeader(): string {
    return `${this.cookieName}=${this.secret}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** True when the Cookie header carries our session cookie. */
  hasValidCookie(cookieHeader: string | undefined): boolean {
    if (!cookieHeader) return false;
    return cookieHeader.split(';').some((pair) => {
      const eq = pair.indexOf('=');
      return (
        eq > 0 && pair.slice(0, eq).trim() === this.cookieName && sameSecret(pair.slice(eq + 1).trim(), this.secret)
      );
    });
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
