import { describe, expect, it } from 'vitest';
import { fuzzyMatch, rankFuzzy } from './fuzzy';

const order = (query: string, titles: string[]): string[] => rankFuzzy(query, titles, (t) => t).map((r) => r.item);

describe('fuzzy matching of the palette', () => {
  it('needs every character in order, case aside', () => {
    expect(fuzzyMatch('cmp', 'Compare two plans')).not.toBeNull();
    expect(fuzzyMatch('CMP', 'compare two plans')).not.toBeNull();
    expect(fuzzyMatch('pmc', 'Compare two plans')).toBeNull();
    expect(fuzzyMatch('compares', 'Compare')).toBeNull();
    expect(fuzzyMatch('', 'anything')).toEqual({ score: 0, positions: [] });
  });

  it('marks the best alignment: word starts over letters inside words', () => {
    // "sr" could be s…r inside "Set profile: reserve"; the word starts S and r win.
    const m = fuzzyMatch('sr', 'Set profile: reserve');
    expect(m?.positions).toEqual([0, 13]);
    expect(fuzzyMatch('fa', 'Fold audit runs')?.positions).toEqual([0, 5]);
  });

  it('ranks word starts, then consecutive runs, then early matches; shorter text on a tie', () => {
    const titles = [
      'Text diff in compare',
      'Show or hide the context chart',
      'Compare (two plans or two leaves)',
      'Export the projected context as Markdown',
      'Copy the projected context (JSON)',
    ];
    expect(order('comp', titles)).toEqual(['Compare (two plans or two leaves)', 'Text diff in compare']);
    // c…o…n…t: the word "context" beats scattered letters of "Compare (two plans…".
    expect(order('cont', titles).slice(0, 3)).toEqual([
      'Show or hide the context chart',
      'Copy the projected context (JSON)',
      'Export the projected context as Markdown',
    ]);
    expect(order('pc', titles)[0]).toBe('Copy the projected context (JSON)');
    expect(order('ctx chart', titles)).toEqual(['Show or hide the context chart']);
    expect(order('search', ['Search within the open session', 'Search'])).toEqual([
      'Search',
      'Search within the open session',
    ]);
  });
});
