/**
 * Files the main process needs, located from the built main bundle
 * (out/main/index.js): the preload and renderer are its siblings under out/,
 * in `npm start` (electron-vite preview), `npm run dev` and a packaged app alike.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AppPaths {
  preload: string;
  rendererDir: string;
  bundledDemoDir: string;
}

/**
 * Paths from the main bundle's URL. The demo home ships in `resources/`
 * (the package root's in development, `process.resourcesPath` when packaged).
 */
export function appPaths(
  mainModuleUrl: string,
  opts: { isPackaged: boolean; appPath: string; resourcesPath: string },
): AppPaths {
  const mainDir = fileURLToPath(new URL('.', mainModuleUrl));
  return {
    preload: join(mainDir, '..', 'preload', 'index.cjs'),
    rendererDir: join(mainDir, '..', 'renderer'),
    bundledDemoDir: opts.isPackaged
      ? join(opts.resourcesPath, 'demo-home')
      : join(opts.appPath, 'resources', 'demo-home'),
  };
}
