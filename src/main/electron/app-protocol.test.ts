import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { protocol } from './testing/electron-fake';

vi.mock('electron', async () => (await import('./testing/electron-fake')).electronFake);

const { appResponse, registerAppScheme, serveAppProtocol, APP_URL } = await import('./app-protocol');

let dir: string;
let renderer: string;
const CSP = "default-src 'self'";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-app-protocol-'));
  renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<title>vak explorer</title>');
  writeFileSync(join(renderer, 'assets', 'index.js'), 'export {}');
  writeFileSync(join(dir, 'secret.txt'), 'TOP SECRET');
  symlinkSync(join(dir, 'secret.txt'), join(renderer, 'assets', 'link.txt'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => appResponse({ url, method } as Request, renderer, CSP);

describe('app:// protocol', () => {
  it('registers app as a standard, secure scheme', () => {
    registerAppScheme();
    const [schemes] = protocol.registerSchemesAsPrivileged.mock.calls[0] as [
      { scheme: string; privileges: Record<string, boolean> }[],
    ];
    expect(schemes[0].scheme).toBe('app');
    expect(schemes[0].privileges).toMatchObject({ standard: true, secure: true });
    expect(schemes[0].privileges).not.toHaveProperty('bypassCSP');
    serveAppProtocol(renderer, CSP);
    expect(protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
  });

  it('serves index.html at the root with the CSP', async () => {
    const r = await get(APP_URL);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toBe(CSP);
    expect(await r.text()).toContain('vak explorer');
  });

  it('serves assets with their content type', async () => {
    const r = await get('app://explorer/assets/index.js');
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it.each([
    'app://explorer/../secret.txt',
    'app://explorer/assets/..%2f..%2fsecret.txt',
    'app://explorer/%2e%2e/secret.txt',
    'app://explorer/assets/link.txt',
  ])('refuses %s', async (url) => {
    const r = await get(url);
    expect(r.status).toBe(403);
    expect(await r.text()).not.toContain('TOP SECRET');
  });

  it('answers only its own host and GET/HEAD', async () => {
    expect((await get('app://other/')).status).toBe(404);
    expect((await get(APP_URL, 'POST')).status).toBe(405);
  });
});
