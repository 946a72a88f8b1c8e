import { describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy } from '../web/csp';
import { earlySocketHashSource } from '../web/early-socket';

vi.mock('electron', async () => (await import('./testing/electron-fake')).electronFake);

const { applySessionPolicy } = await import('./session-policy');
const { rendererSource } = await import('./renderer-source');

type RequestHandler = (wc: unknown, permission: string, cb: (ok: boolean) => void, details: object) => void;
type CheckHandler = (wc: unknown, permission: string, origin: string) => boolean;
type HeadersListener = (
  details: { responseHeaders?: Record<string, string[]> },
  cb: (r: { responseHeaders: Record<string, string[]> }) => void,
) => void;

function fakeSession() {
  const s = {
    request: null as RequestHandler | null,
    check: null as CheckHandler | null,
    device: null as (() => boolean) | null,
    headers: null as HeadersListener | null,
    setPermissionRequestHandler: (h: RequestHandler) => (s.request = h),
    setPermissionCheckHandler: (h: CheckHandler) => (s.check = h),
    setDevicePermissionHandler: (h: () => boolean) => (s.device = h),
    webRequest: { onHeadersReceived: (h: HeadersListener) => (s.headers = h) },
  };
  return s;
}

const csp = contentSecurityPolicy();
const { isOwnUrl } = rendererSource(true, undefined);

function setUp() {
  const s = fakeSession();
  applySessionPolicy(s as never, { csp, isOwnUrl });
  const request = (permission: string, requestingUrl: string) => {
    let granted: boolean | undefined;
    s.request!({}, permission, (ok) => (granted = ok), { requestingUrl });
    return granted;
  };
  return { s, request };
}

describe('session policy', () => {
  it.each(['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'clipboard-read', 'unknown'])(
    'denies %s, even to our own page',
    (permission) => {
      const { s, request } = setUp();
      expect(request(permission, 'app://explorer/')).toBe(false);
      expect(s.check!({}, permission, 'app://explorer')).toBe(false);
    },
  );

  it('lets only our own page write to the clipboard', () => {
    const { s, request } = setUp();
    expect(request('clipboard-sanitized-write', 'app://explorer/')).toBe(true);
    expect(request('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(s.check!({}, 'clipboard-sanitized-write', 'app://explorer')).toBe(true);
    expect(s.check!({}, 'clipboard-sanitized-write', 'https://evil.example')).toBe(false);
  });

  it('denies devices', () => {
    expect(setUp().s.device!()).toBe(false);
  });

  it('puts the CSP on every http(s) response', () => {
    const { s } = setUp();
    let out: Record<string, string[]> = {};
    s.headers!({ responseHeaders: { 'Content-Type': ['text/html'] } }, (r) => (out = r.responseHeaders));
    expect(out['Content-Security-Policy']).toEqual([csp]);
    expect(out['Content-Type']).toEqual(['text/html']);
  });
});

describe('the CSP', () => {
  it('allows only our own scripts, no eval, no inline script but the early socket’s, no remote anything', () => {
    expect(csp).toContain("default-src 'self'");
    // The one inline script index.html carries, by its hash (in Electron it does nothing).
    expect(csp).toContain(`script-src 'self' ${earlySocketHashSource()};`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toMatch(/https?:|\*/);
  });

  it('relaxes only for the dev server', () => {
    const dev = contentSecurityPolicy({ dev: true });
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain('ws://localhost:*');
    expect(dev).not.toMatch(/unsafe-eval/);
  });
});
