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
  icon: string;
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
  const resources = opts.isPackaged ? opts.resourcesPath : join(opts.appPath, 'resources');
  return {
    preload: join(mainDir, '..', 'preload', 'index.cjs'),
    rendererDir: join(mainDir, '..', 'renderer'),
    bundledDemoDir: join(resources, 'demo-home'),
    icon: join(resources, 'icon.png'),
  };
}
