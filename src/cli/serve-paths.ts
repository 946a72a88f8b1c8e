/**
 * Where serve mode finds its files when run from the sources (bin/vak-explorer.mjs
 * runs src/ through tsx): the package root is three levels above this file.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The built renderer that `npm run build` writes. */
export const RENDERER_DIR = join(packageRoot, 'out', 'renderer');

/** The demo home shipped with the package. */
export const BUNDLED_DEMO_DIR = join(packageRoot, 'resources', 'demo-home');
