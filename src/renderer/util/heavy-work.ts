import { type DiffOp, lineDiff } from './line-diff';

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

function getWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  if (!worker) {
    try {
      worker = new Worker(new URL('./heavy.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      return null;
    }
    worker.onmessage = (m: MessageEvent<{ id: number; ok: boolean; result?: unknown; error?: string }>) => {
      const w = waiting.get(m.data.id);
      waiting.delete(m.data.id);
      if (!w) return;
      if (m.data.ok) w.resolve(m.data.result);
      else w.reject(new Error(m.data.error));
    };
  }
  return worker;
}

function run<T>(job: Record<string, unknown>, inline: () => T): Promise<T> {
  const w = getWorker();
  if (!w) return Promise.resolve().then(inline);
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
    w.postMessage({ ...job, id });
  });
}

/** Small inputs are done at once; past this size they go to the worker. */
const INLINE_LIMIT = 64 * 1024;

/** Pretty-prints a JSON line; the raw text is returned as is when it does not parse. */
export function prettyJson(raw: string): Promise<string> {
  const inline = () => {
    try {
      return JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      return raw;
    }
  };
  if (raw.length < INLINE_LIMIT) return Promise.resolve(inline());
  return run<string>({ kind: 'json', raw }, inline).catch(() => raw);
}

/** A line diff, in the worker when the texts are long. */
export function diffLines(a: string[], b: string[]): Promise<DiffOp[]> {
  if (a.length + b.length < 400) return Promise.resolve(lineDiff(a, b));
  return run<DiffOp[]>({ kind: 'diff', a, b }, () => lineDiff(a, b));
}
