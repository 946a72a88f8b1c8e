/**
 * `openSession` of a session already open (a page reload's), in process: the answer's time and
 * the parts of it, on the 100 MB session. node bin/run-ts.mjs bench/open-again.ts [N]
 */
import { real100InProcess } from './real100-in-process';

const n = Number(process.argv[2] ?? 8);
const { backend, client, key } = await real100InProcess();
const t0 = performance.now();
const first = (await backend.call('openSession', { key }, client)) as Record<string, unknown>;
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
  const info = await backend.call('openSession', { key }, client);
  const callMs = performance.now() - t;
  const t2 = performance.now();
  const text = JSON.stringify(info);
  console.log(
    `open again: call ${callMs.toFixed(1)} ms, JSON ${(performance.now() - t2).toFixed(1)} ms, ${(text.length / 1024).toFixed(0)} KB`,
  );
}
await backend.close();
