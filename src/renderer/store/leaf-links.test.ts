import { beforeEach, describe, expect, it } from 'vitest';
import { resetAppStore, useAppStore } from './app-store';

const st = useAppStore.getState;

describe('the History kind filter and the hover/pin links', () => {
  beforeEach(resetAppStore);

  it('another session starts with every kind shown (a filter from the last one could hide all of its entries)', () => {
    st().selectSession('a');
    st().toggleKind('message');
    st().toggleKind('receipt');
    expect(st().hiddenKinds).toEqual(['message', 'receipt']);
    st().selectSession('b');
    expect(st().hiddenKinds).toEqual([]);
  });

  it('showAllKinds clears the filter', () => {
    st().toggleKind('message');
    st().showAllKinds();
    expect(st().hiddenKinds).toEqual([]);
  });

  it('a pin wins over hover until it is unpinned', () => {
    st().setHover({ entries: ['h1'], messages: [] });
    st().togglePin({ entries: ['p1'], messages: [3] });
    expect(st().hover ?? st().pinned).toMatchObject({ entries: ['p1'] });
    st().setHover({ entries: ['h2'], messages: [] });
    expect(st().hover ?? st().pinned).toMatchObject({ entries: ['p1'] });
    st().togglePin({ entries: ['p1'], messages: [3] }); // unpin
    expect(st().pinned).toBeNull();
    st().setHover({ entries: ['h3'], messages: [] });
    expect(st().hover ?? st().pinned).toMatchObject({ entries: ['h3'] });
    st().pin({ entries: ['p2'], messages: [] });
    expect(st().hover ?? st().pinned).toMatchObject({ entries: ['p2'] });
    st().clearLinks();
    st().setHover({ entries: ['h4'], messages: [] });
    expect(st().hover).toMatchObject({ entries: ['h4'] });
  });
});
