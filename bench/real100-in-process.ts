/**
 * The 100 MB bench session (`npm run bench -- real100` generates it) served by a backend in this
 * process, read whole at its open unless `opts` say otherwise: for benches that look at one call's
 * answer, not the wire.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../src/main/api/api-backend';
import { ExplorerBackend, type ExplorerBackendOptions } from '../src/main/api/explorer-backend';

export async function real100InProcess(
  opts: Partial<ExplorerBackendOptions> = { firstReadBytes: Infinity },
  /** Another generated home's description in bench/.data (`eye-1g-home.json`: the 1 GiB session). */
  metaFile = 'real100-home.json',
): Promise<{ backend: ExplorerBackend; client: ApiClient; key: string }> {
  const meta = JSON.parse(readFileSync(join(import.meta.dirname, '.data', metaFile), 'utf8')) as {
    home: string;
    key: string;
  };
  const backend = await ExplorerBackend.create({
    home: meta.home,
    isDemo: false,
    label: 'b',
    watch: false,
    lockPollMs: 0,
    ...opts,
  });
  const client: ApiClient = { id: 'b', push: () => undefined };
  return { backend, client, key: meta.key };
}
