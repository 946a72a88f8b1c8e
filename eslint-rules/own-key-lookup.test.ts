/**
 * `own-key-lookup`: cases through ESLint's RuleTester (TypeScript parser), then probes through
 * the project's own eslint.config.js to show where the rule is on.
 */
import { ESLint, RuleTester } from 'eslint';
import { resolve } from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import ownKeyLookup from './own-key-lookup.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
});

const read = { message: /inherits Object\.prototype/ };
const inOp = { message: /is true for 'constructor'/ };
const exported = { message: /exported table keyed by any string/ };

tester.run('own-key-lookup', ownKeyLookup, {
  valid: [
    // Literal keys are the source's own, not data.
    "const T = { a: 1 }; export const x = T['a'] + T[`a`] + T.a;",
    // A Map, a null-prototype literal, Object.create(null), a helper's table.
    'const T = new Map([["a", 1]]); export const f = (k: string) => T.get(k);',
    'const T = { __proto__: null, a: 1 } as Record<string, number>; export const f = (k: string) => T[k];',
    "const T = { '__proto__': null, a: 1 } as Record<string, number>; export const f = (k: string) => k in T;",
    'const T = Object.create(null) as Record<string, number>; export const f = (k: string) => T[k];',
    'const T = ownTable({ a: 1 }); export const f = (k: "a") => T[k];',
    // Read through the own-key helper.
    'const T: Record<string, number> = { a: 1 }; export const f = (k: string) => ownValue(T, k);',
    // A parameter or a `let` is not a table this rule can see declared.
    'export const f = (o: Record<string, number>, k: string) => o[k];',
    'let T: Record<string, number> = { a: 1 }; export const f = (k: string) => T[k];',
    // `__proto__: {}` is not a null prototype, but a table with no computed reads is fine.
    'const T = { __proto__: {}, a: 1 }; export const x = T.a;',
    // An exported table whose keys are a closed union, read in this file only by literal.
    "export const T: Record<'a' | 'b', number> = { a: 1, b: 2 };",
    // A shadowing parameter is not the table.
    'const T = { a: 1 }; export const f = (T: Map<string, number>, k: string) => T.get(k);',
  ],
  invalid: [
    {
      code: "const KIND_SHORT: Record<string, string> = { header: 'head' };\nexport const kindLabel = (kind: string) => KIND_SHORT[kind] ?? kind;",
      errors: [read],
    },
    { code: 'const T = { a: 1 } as const; export const f = (k: "a") => T[k];', errors: [read] },
    {
      code: 'const T = { a: 1 } satisfies Record<string, number>; export const f = (k: string) => T[k];',
      errors: [read],
    },
    { code: 'const T = { a: 1 }; export const f = (k: string) => T[`${k}`];', errors: [read] },
    { code: 'const T = { a: 1 }; export const f = (k: string) => k in T;', errors: [inOp] },
    // Accumulators: a write by data sets the prototype on `__proto__`; `++` reads `toString`.
    {
      code: 'export function count(ks: string[]) { const n: Record<string, number> = {}; for (const k of ks) n[k] = (n[k] ?? 0) + 1; return n; }',
      errors: [read, read],
    },
    {
      code: "export const ROLE_LABEL: Record<string, string> = { user: 'user' };",
      errors: [exported],
    },
    {
      code: "const ROLE_LABEL: { [role: string]: string } = { user: 'user' };\nexport { ROLE_LABEL };",
      errors: [exported],
    },
    {
      code: "export const L: Readonly<Record<string, string>> = { a: 'b' };\nexport const f = (k: string) => L[k];",
      errors: [exported, read],
    },
  ],
});

describe('own-key-lookup in the project config', () => {
  const ROOT = resolve(import.meta.dirname, '..');
  const eslint = new ESLint({ cwd: ROOT });
  const probe = async (path: string): Promise<string[]> => {
    const code = "const T: Record<string, string> = { a: 'b' };\nexport const f = (k: string) => T[k];\n";
    const [r] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
    return r.messages.filter((m) => m.ruleId === 'local/own-key-lookup').map((m) => m.message);
  };

  it.each([
    'src/renderer/tree/probe.ts',
    'src/renderer/entry-views/probe.tsx',
    'src/main/export/probe.ts',
    'src/main/api/probe.ts',
    'src/shared/probe.ts',
    'src/main/core/probe.ts',
  ])('is reported in %s', async (path) => {
    expect(await probe(path)).toHaveLength(1);
  });

  it('tests and test helpers are left alone', async () => {
    expect(await probe('src/renderer/tree/probe.test.ts')).toEqual([]);
    expect(await probe('src/renderer/test-support/probe.ts')).toEqual([]);
  });
});
