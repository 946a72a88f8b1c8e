import { createHash } from 'node:crypto';

/**
 * Builds ledger bytes from entries for tests: `ts` and `prev_hash` filled in
 * (the §2 hash chain over the exact bytes written), one `\n` after each line.
 * `raw` strings are written as they are (a line that need not be JSON).
 */
export function ledgerBytes(entries: (Record<string, unknown> | { raw: string })[]): Buffer {
  let prev: string | null = null;
  const lines = entries.map((e, k) => {
    const line =
      'raw' in e && typeof e.raw === 'string'
        ? e.raw
        : withDeepValues(
            JSON.stringify({ ts: `2026-01-01T00:00:${String(k % 60).padStart(2, '0')}.000Z`, prev_hash: prev, ...e }),
          );
    prev = createHash('sha256').update(line).digest('hex');
    return line + '\n';
  });
  return Buffer.from(lines.join(''));
}

/** A user message payload with one text block. */
export const userMsg = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
/** An assistant message payload with one text block. */
export const assistantMsg = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });

const DEEP = /"\\u0000deep:(\d+):(array|object)"/g;

/**
 * A placeholder for a value nested `depth` levels deep (arrays `[[[…]]]`, or objects
 * `{"a":{"a":…1}}`): `ledgerBytes` writes the value itself, which JSON.stringify could not.
 */
export function deep(depth: number, shape: 'array' | 'object' = 'array'): string {
  return `\u0000deep:${depth}:${shape}`;
}

/** The JSON text `deep(depth, shape)` stands for. */
export function deepText(depth: number, shape: 'array' | 'object' = 'array'): string {
  return shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function withDeepValues(line: string): string {
  return line.replace(DEEP, (_, d: string, shape: 'array' | 'object') => deepText(Number(d), shape));
}
