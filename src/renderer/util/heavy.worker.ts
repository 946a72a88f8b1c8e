import { lineDiff } from './line-diff';

/** Off the UI thread: pretty-printing big JSON and diffing long projections. */
type Job = { id: number; kind: 'json'; raw: string } | { id: number; kind: 'diff'; a: string[]; b: string[] };

self.onmessage = (m: MessageEvent<Job>) => {
  const job = m.data;
  try {
    const result = job.kind === 'json' ? JSON.stringify(JSON.parse(job.raw), null, 2) : lineDiff(job.a, job.b);
    self.postMessage({ id: job.id, ok: true, result });
  } catch (e) {
    self.postMessage({ id: job.id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
};
