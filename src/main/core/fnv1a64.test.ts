import { describe, expect, it } from 'vitest';
import { cwdHash } from './fnv1a64';

describe('cwd hash (§1 test vectors)', () => {
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['/home/ana/projects/vak', '70929a3c84065db2'],
    ['/tmp/ünï', '2866a2b51b93f309'],
  ])('%j → %s', (cwd, hex) => {
    expect(cwdHash(cwd)).toBe(hex);
  });
});
