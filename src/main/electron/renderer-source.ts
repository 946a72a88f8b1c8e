/**
 * Where the window's page comes from: the app:// protocol in a build, the
 * electron-vite dev server in `npm run dev`. Everything that must recognise
 * "our own page" (IPC sender checks, navigation, permissions) asks `isOwnUrl`.
 */
import { APP_URL } from './app-protocol';

export interface RendererSource {
  /** The URL the window loads. */
  url: string;
  /** True when the dev server is used (its CSP needs HMR allowances). */
  dev: boolean;
  /** True for a URL on the renderer's own origin (scheme, host and port compared parsed, never by prefix). */
  isOwnUrl(url: string): boolean;
}

/** The renderer's source: the dev server only when unpackaged and electron-vite names a loopback URL. */
export function rendererSource(isPackaged: boolean, devServerUrl: string | undefined): RendererSource {
  const devUrl = !isPackaged && devServerUrl !== undefined && isLoopbackHttp(devServerUrl) ? devServerUrl : null;
  const dev = devUrl !== null;
  const url = devUrl ?? APP_URL;
  const own = new URL(url);
  return {
    url,
    dev,
    isOwnUrl: (candidate) => {
      try {
        const u = new URL(candidate);
        // Node's URL gives "null" as the origin of non-special schemes like app:, so compare parts.
        return u.protocol === own.protocol && u.host === own.host;
      } catch {
        return false;
      }
    },
  };
}

function isLoopbackHttp(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}
