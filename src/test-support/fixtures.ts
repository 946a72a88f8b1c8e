import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** ../shared/fixtures, read in place (CONVENTIONS: fixtures are never copied into the repo). */
export const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures');

export interface ProjectionCase {
  args: { leaf: string | null; plan: 'none' | 'auto'; window: number; reserve: number; bytes_per_token: number };
  output: unknown;
}

export interface FixtureCase {
  name: string;
  file: string;
  expected: { verify: { warnings: { message: string }[] }; tree: unknown; projections: ProjectionCase[] };
}

export function fixtureCases(): FixtureCase[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.expected.json'))
    .sort()
    .map((f) => {
      const name = f.replace(/\.expected\.json$/, '');
      return {
        name,
        file: join(FIXTURES, `${name}.jsonl`),
        expected: JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as FixtureCase['expected'],
      };
    });
}

/** Warnings without their free-text `message` (the fixtures' README: compare code, line, offset, id). */
export function withoutMessages<T extends { warnings: { message?: string }[] }>(v: T): T {
  return { ...v, warnings: v.warnings.map(({ message: _m, ...rest }) => rest) };
}
