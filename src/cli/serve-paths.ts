/**
 * Where serve mode finds its files: beside the package root, found by walking up from this
 * module, so the same code works from the sources (vitest, tsx) and from the built CLI
 * (dist/cli/…), whose depth below the root differs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonText } from '../shared/json-problem';

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      // Another package's manifest on the way may be anything: not ours, whatever its text.
      const parsed = parseJsonText(readFileSync(manifest, 'utf8'));
      if (parsed.ok && (parsed.value as { name?: unknown } | null)?.name === 'vak-explorer') return dir;
    }
    if (dirname(dir) === dir) throw new Error(`vak-explorer: no package root above ${from}`);
  }
}

const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** The package's root folder (the desktop app's folder: `open` starts Electron on it). */
export const PACKAGE_ROOT = packageRoot;

/** The built renderer that `npm run build` writes. */
export const RENDERER_DIR = join(packageRoot, 'out', 'renderer');

/** The demo home shipped with the package. */
export const BUNDLED_DEMO_DIR = join(packageRoot, 'resources', 'demo-home');
