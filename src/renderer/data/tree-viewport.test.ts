// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { keepTreeViewport, lastTreeViewport, readTreeViewport } from './tree-viewport';

describe("the tree's kept box height", () => {
  it('is kept for the next tree and read back at the next load, a bad value as none', () => {
    sessionStorage.clear();
    readTreeViewport();
    expect(lastTreeViewport()).toBeNull();
    keepTreeViewport(612);
    expect(lastTreeViewport()).toBe(612);
    // The next load reads what this one kept.
    readTreeViewport();
    expect(lastTreeViewport()).toBe(612);
    keepTreeViewport(0);
    expect(lastTreeViewport()).toBe(612);
    sessionStorage.setItem('vak-explorer.tree-viewport.v1', 'tall');
    readTreeViewport();
    expect(lastTreeViewport()).toBeNull();
  });
});
