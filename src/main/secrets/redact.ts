/**
 * Redaction: a pure function of a text and the secrets found, so any writer (a whole reply or a
 * stream to a file) applies it to each message or entry as it goes. Every occurrence of a found
 * secret's text is replaced, wherever the export carries it (an entry, a projected message that
 * quotes it, a card), by `[redacted: KIND]`.
 */
import { redactionMarker } from '../../shared/api-secrets';
import type { Json } from '../core/entry-types';

export interface KnownSecret {
  secret: string;
  kind: string;
}

/** The secrets to replace, longest first (a secret inside a longer one goes with it). */
export class Redactor {
  private readonly list: KnownSecret[];
  /** Markers written so far. */
  count = 0;

  constructor(secrets: Iterable<KnownSecret>) {
    const byText = new Map<string, string>();
    for (const s of secrets) if (s.secret.length > 0 && !byText.has(s.secret)) byText.set(s.secret, s.kind);
    this.list = [...byText]
      .map(([secret, kind]) => ({ secret, kind }))
      .sort((a, b) => b.secret.length - a.secret.length);
  }

  /** The header line of an export this redactor wrote (`count`: as many as it says were redacted). */
  note(count = this.count): string {
    return redactionNote(count);
  }

  /** Distinct secrets it replaces: a streamed export's header is written before any text is. */
  get secretCount(): number {
    return this.list.length;
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  /** `text` with each secret replaced by its marker. */
  text(text: string): string {
    if (this.list.length === 0) return text;
    const r = redactText(text, this.list);
    this.count += r.count;
    return r.text;
  }

  /** A JSON value with every string redacted (a copy; `value` is left as it is). */
  json<T extends Json>(value: T): T {
    if (this.list.length === 0) return value;
    return this.walk(value) as T;
  }

  private walk(v: Json): Json {
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map((w) => this.walk(w));
    if (v !== null && typeof v === 'object') {
      const out: { [k: string]: Json } = {};
      for (const [k, w] of Object.entries(v)) {
        // defineProperty: a key `__proto__` stays an ordinary key, as JSON.parse made it.
        Object.defineProperty(out, k, { value: this.walk(w), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return v;
  }
}

/** `text` with every occurrence of each secret (longest first) replaced by its marker, and how many were. */
export function redactText(text: string, secrets: readonly KnownSecret[]): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const s of secrets) {
    if (!out.includes(s.secret)) continue;
    const parts = out.split(s.secret);
    count += parts.length - 1;
    out = parts.join(redactionMarker(s.kind));
  }
  return { text: out, count };
}

/** The line a redacted export's header carries. */
export function redactionNote(count: number): string {
  return count === 0
    ? 'No secret was found to redact.'
    : `${count} secret${count === 1 ? '' : 's'} redacted (each replaced by [redacted: kind]); the hash chain of the entries shown no longer verifies.`;
}
