import { describe, expect, it } from 'vitest';
import { PANE_LIMITS, PANE_WIDTHS_KEY, loadWidths } from './layout-slice';

const storage = (text: string | null) => ({ getItem: (k: string) => (k === PANE_WIDTHS_KEY ? text : null) });

describe('pane widths', () => {
  it('load what was saved, clamped; anything malformed falls back to the first widths', () => {
    const first = {
      sidebar: PANE_LIMITS.sidebar.initial,
      tree: PANE_LIMITS.tree.initial,
      history: PANE_LIMITS.history.initial,
    };
    expect(loadWidths(storage(null))).toEqual(first);
    expect(loadWidths(storage('{not json'))).toEqual(first);
    expect(loadWidths(storage('[1,2]'))).toEqual(first);
    expect(loadWidths(storage(JSON.stringify({ tree: 500, history: 'wide', sidebar: 5 })))).toEqual({
      ...first,
      tree: 500,
      sidebar: PANE_LIMITS.sidebar.min,
    });
    expect(loadWidths(storage('{"__proto__":{"tree":1}, "history": 1e9}'))).toEqual({
      ...first,
      history: PANE_LIMITS.history.max,
    });
    expect(loadWidths(undefined)).toEqual(first);
  });
});
