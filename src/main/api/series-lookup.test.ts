import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastAtOrBefore } from './series-lookup';

describe('series lookups', () => {
  it('lastAtOrBefore is the last position at or before p, as a linear walk finds it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1, max: 60 }), { maxLength: 40 }),
        fc.integer({ min: -3, max: 70 }),
        (xs, p) => {
          const sorted = [...xs].sort((a, b) => a - b);
          let want = -1;
          sorted.forEach((x, k) => {
            if (x <= p) want = k;
          });
          expect(lastAtOrBefore(sorted.length, (k) => sorted[k], p)).toBe(want);
        },
      ),
    );
  });
});
