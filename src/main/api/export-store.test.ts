import { describe, expect, it } from 'vitest';
import { EXPORT_IDLE_MS, ExportStore, MAX_EXPORTS_PER_CLIENT } from './export-store';

function* pieces(list: string[]): Generator<string> {
  yield* list;
}

/** Every chunk of export `id`, read with chunks of `max` characters. */
function readAll(store: ExportStore, id: string, max: number): string[] {
  const out: string[] = [];
  for (;;) {
    const c = store.read(id, undefined, max);
    out.push(c.text);
    if (c.done) return out;
  }
}

describe('ExportStore', () => {
  it('gives the pieces back in chunks of at most the limit, whole and in order, then forgets the export', () => {
    const store = new ExportStore();
    const text = ['ab', 'cdefghij', '', 'k', 'lmnopqrstuvwxyz'];
    const id = store.begin('c1', pieces(text));
    const chunks = readAll(store, id, 4);
    expect(chunks.join('')).toBe(text.join(''));
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(4);
    expect(chunks.slice(0, -1).every((c) => c.length > 0)).toBe(true);
    expect(store.size).toBe(0);
    expect(() => store.read(id)).toThrow(/no such export/);
  });

  it('never splits a surrogate pair between chunks', () => {
    const store = new ExportStore();
    const text = 'a😀b😀😀c'.repeat(5);
    const chunks = readAll(store, store.begin('c1', pieces([text])), 2);
    expect(chunks.join('')).toBe(text);
    for (const c of chunks) expect(c).toBe(Buffer.from(c, 'utf8').toString('utf8')); // no lone surrogate
  });

  it('refuses past its per-client cap; a client that goes away loses its exports; idle ones expire', () => {
    let now = 0;
    const store = new ExportStore(() => now);
    for (let k = 0; k < MAX_EXPORTS_PER_CLIENT; k++) store.begin('c1', pieces(['x']));
    expect(() => store.begin('c1', pieces(['x']))).toThrow(/exports are being saved/);
    const other = store.begin('c2', pieces(['y']));
    store.dropClient('c1');
    expect(store.size).toBe(1);
    now += EXPORT_IDLE_MS + 1;
    store.begin('c3', pieces(['z']));
    expect(() => store.read(other)).toThrow(/no such export/);
  });

  it('ends an export early, and a cancelled read drops it', () => {
    const store = new ExportStore();
    const a = store.begin('c1', pieces(['x', 'y']));
    expect(store.end(a)).toBe(true);
    expect(store.end(a)).toBe(false);
    const b = store.begin('c1', pieces(['x', 'y']));
    expect(() => store.read(b, { aborted: true })).toThrow(/cancel/);
    expect(store.size).toBe(0);
  });
});
