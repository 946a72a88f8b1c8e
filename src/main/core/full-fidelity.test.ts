import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProjectedRole } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { fixtureCases } from '../../test-support/fixtures';
import type { Json } from './entry-types';
import { fullContent, fullTokensWithoutAcks } from './full-fidelity';
import { messageTokens } from './tokens';

/**
 * The reader's notes cost a message at Full without shaping it (fullTokensWithoutAcks); the
 * projection shapes it (fullContent) and costs the shape. Both must give the same number for
 * every message, or a plan would depend on how its turns were costed: from notes (a first read)
 * or shaped from their lines (entries read before a resume have no note).
 */

const NO_ACK = (): undefined => undefined;
const BPTS = [1, 3, 4, 7];

function shapedTokens(role: ProjectedRole, blocks: Json[], nameOf: (id: string) => string, bpt: number) {
  const shaped = fullContent(role, blocks, NO_ACK, nameOf);
  return shaped === null ? null : messageTokens(shaped, bpt);
}

function expectSame(role: ProjectedRole, blocks: Json[], nameOf: (id: string) => string): void {
  for (const bpt of BPTS) {
    expect(fullTokensWithoutAcks(role, blocks, nameOf, bpt), JSON.stringify({ role, blocks }).slice(0, 300)).toBe(
      shapedTokens(role, blocks, nameOf, bpt),
    );
  }
}

/** Every message entry's role and blocks in a ledger's bytes (lines that are no message skipped). */
function messagesOf(bytes: Buffer): { role: ProjectedRole; blocks: Json[] }[] {
  const out: { role: ProjectedRole; blocks: Json[] }[] = [];
  for (const line of bytes.toString('utf8').split('\n')) {
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    const m = (e as { message?: { role?: unknown; content?: unknown } } | null)?.message;
    if (m && typeof m.role === 'string' && Array.isArray(m.content)) {
      out.push({ role: m.role as ProjectedRole, blocks: m.content as Json[] });
    }
  }
  return out;
}

/** Names of one to several UTF-8 bytes a character (a computed digest's length counts them). */
const nameOf = (id: string): string => ['read_file', 'unknown', 'lire_fichier_é', '読む'][id.length % 4];

describe('a message costed at Full without shaping it', () => {
  it('costs what its Full shape costs, for every message of the fixtures and of generated sessions', () => {
    const sources = [
      ...fixtureCases().map((c) => readFileSync(c.file)),
      generateSession({ seed: 31, bytes: 400_000, cwd: '/w' }).bytes,
      generateSession({ seed: 32, bytes: 400_000, cwd: '/w', shape: 'uncompacted' }).bytes,
    ];
    let n = 0;
    for (const bytes of sources) {
      for (const { role, blocks } of messagesOf(bytes)) {
        for (const r of [role, 'user', 'assistant', 'tool'] as ProjectedRole[]) expectSame(r, blocks, nameOf);
        n++;
      }
    }
    expect(n).toBeGreaterThan(300);
  });

  it('agrees on odd blocks: none kept, non-objects, thinking only, digests recorded or not, any content', () => {
    const block = fc.oneof(
      fc.constantFrom<Json>(null, 7, 'text', [1, 2], true),
      fc.record({ type: fc.constantFrom('text', 'thinking'), text: fc.oneof(fc.string(), fc.integer()) }),
      fc.record({
        type: fc.constant('tool_use'),
        id: fc.oneof(fc.string(), fc.integer()),
        name: fc.oneof(fc.string(), fc.constant(undefined)),
        input: fc.jsonValue(),
      }),
      fc.record(
        {
          type: fc.constant('tool_result'),
          tool_use_id: fc.oneof(fc.string(), fc.integer(), fc.constant([[1]])),
          content: fc.oneof(fc.string(), fc.jsonValue()),
          digest: fc.oneof(fc.string(), fc.integer()),
          is_error: fc.oneof(fc.boolean(), fc.string()),
        },
        { requiredKeys: ['type'] },
      ),
      fc.record({ type: fc.constant('image'), source: fc.string() }),
      fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom<ProjectedRole>('user', 'assistant', 'tool'),
        fc.array(block, { maxLength: 5 }),
        (role, blocks) => expectSame(role, blocks as Json[], nameOf),
      ),
      { numRuns: 400 },
    );
  });
});
