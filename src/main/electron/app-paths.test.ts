import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appPaths } from './app-paths';

describe('app paths', () => {
  const mainUrl = pathToFileURL('/app/out/main/index.js').href;

  it('finds preload and renderer beside the main bundle, resources in the app folder', () => {
    expect(appPaths(mainUrl, { isPackaged: false, appPath: '/app', resourcesPath: '/electron/resources' })).toEqual({
      preload: join('/app/out/preload/index.cjs'),
      rendererDir: join('/app/out/renderer'),
      bundledDemoDir: join('/app/resources/demo-home'),
      icon: join('/app/resources/icon.png'),
    });
  });

  it('takes the demo home and icon from process.resourcesPath when packaged', () => {
    const p = appPaths(mainUrl, { isPackaged: true, appPath: '/app.asar', resourcesPath: '/opt/vak/resources' });
    expect(p.bundledDemoDir).toBe(join('/opt/vak/resources/demo-home'));
    expect(p.icon).toBe(join('/opt/vak/resources/icon.png'));
  });
});
