// @vitest-environment jsdom
import { act, render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import type { LeafView } from '../shared/api';
import { useProjectedAfterHistory } from './leaf-panes';

/** The view the projected pane showed at each commit. */
function Probe({ view, commits }: { view: LeafView | null; commits: (LeafView | null)[] }) {
  const shown = useProjectedAfterHistory(view, null);
  useLayoutEffect(() => void commits.push(shown.view));
  return null;
}

describe('the projected pane follows the History', () => {
  const a = { leaf: 'a' } as LeafView;
  const b = { leaf: 'b' } as LeafView;

  it('the first view (nothing drawn yet) comes in the same commit as the History', () => {
    const commits: (LeafView | null)[] = [];
    const r = render(<Probe view={null} commits={commits} />);
    act(() => r.rerender(<Probe view={a} commits={commits} />));
    // (A later commit may follow with the same view: the pane's state catching up.)
    expect(commits.slice(0, 2)).toEqual([null, a]);
  });

  it('a later view comes one commit after the History (each its own task)', () => {
    const commits: (LeafView | null)[] = [];
    const r = render(<Probe view={a} commits={commits} />);
    act(() => r.rerender(<Probe view={b} commits={commits} />));
    expect(commits).toEqual([a, a, b]);
  });
});
