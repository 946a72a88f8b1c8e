/**
 * The ledger core's worker (WorkerBackend) with a given heap limit, in a process of its own: for
 * tests where what fails might take the whole process down. Runs one call and prints one JSON
 * line: `{ok, chars}` or `{ok: false, code, message}`, then whether a next call answers. An export
 * (`beginExport`) is read to its end, chunk by chunk; `chars` is then the length of its text.
 *   node bin/run-ts.mjs src/reliability/worker-child.ts HOME HEAP_MB METHOD REQUEST_JSON
 */
import { WorkerBackend } from '../main/worker/worker-backend';
import type { ExportBeginRequest } from '../shared/api-features';
import { readWholeExport } from '../test-support/read-export';

const [home, heapMb, method, reqJson] = process.argv.slice(2);
const w = await WorkerBackend.create(
  { home, isDemo: false, label: 'child', watch: false, lockPollMs: 0 },
  { resourceLimits: { maxOldGenerationSizeMb: Number(heapMb), maxYoungGenerationSizeMb: 8 } },
);
const client = { id: 'child', push: () => undefined };
let first: Record<string, unknown>;
try {
  const req = JSON.parse(reqJson) as unknown;
  const text =
    method === 'beginExport'
      ? (await readWholeExport((m, r) => w.call(m, r, client), req as ExportBeginRequest)).text
      : await w.callJson(method, req, client);
  first = { ok: true, chars: text?.length ?? 0 };
} catch (e) {
  const err = e as { code?: string; message?: string };
  first = { ok: false, code: err.code, message: err.message };
}
const next = await w.callJson('getHome', {}, client).then(
  () => true,
  () => false,
);
process.stdout.write(JSON.stringify({ ...first, nextAnswered: next }) + '\n');
await w.close();
