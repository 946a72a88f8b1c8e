/**
 * `openSession` of a session already open (a page reload's), in process: the answer's time and
 * the parts of it, on the 100 MB session. node bin/run-ts.mjs bench/open-again.ts [N]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExplorerBackend } from '../src/main/api/explorer-backend';
import type { ApiClient } from '../src/main/api/api-backend';

const meta = JSON.parse(readFileSync(join(import.meta.dirname, '.data', 'real100-home.json'), 'utf8')) as {
  home: string;
  key: string;
};
const n = Number(process.argv[2] ?? 8);
const backend = await ExplorerBackend.create({
  home: meta.home,
  isDemo: false,
  label: 'b',
  watch: false,
  lockPollMs: 0,
  firstReadBytes: Infinity,
});
const client = { id: 'b', push: () => undefined } as unknown as ApiClient;
const t0 = performance.now();
const first = (await backend.call('openSession', { key: meta.key }, client)) as Record<string, unknown>;
const sizes = Object.entries(first).map(([k, v]) => [k, JSON.stringify(v).length] as const);
console.log(
  'fields by size:',
  sizes
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, n]) => `${k} ${(n / 1024).toFixed(1)} KB`)
    .join(', '),
);
console.log(`first open ${(performance.now() - t0).toFixed(0)} ms`);
for (let i = 0; i < n; i++) {
  const t = performance.now();
  const info = await backend.call('openSession', { key: meta.key }, client);
  const callMs = performance.now() - t;
  const t2 = performance.now();
  const text = JSON.stringify(info);
  console.log(
    `open again: call ${callMs.toFixed(1)} ms, JSON ${(performance.now() - t2).toFixed(1)} ms, ${(text.length / 1024).toFixed(0)} KB`,
  );
}
await backend.close();
