// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyPart, preloadLazyParts } from './lazy-parts';

/** A chunk the test settles by hand: its import, and what it resolves or rejects with. */
function chunk() {
  const calls: { resolve: (m: Record<string, unknown>) => void; reject: (e: Error) => void }[] = [];
  const load = () => new Promise<Record<string, unknown>>((resolve, reject) => calls.push({ resolve, reject }));
  const Hello = ({ name }: { name: string }) => <p>hello {name}</p>;
  return { calls, load, module: { Hello } };
}

describe('lazyPart', () => {
  it('loads on first draw and draws the part as soon as its chunk is there', async () => {
    const c = chunk();
    const Part = lazyPart(c.load, (m: { Hello: (p: { name: string }) => React.ReactElement }) => m.Hello);
    const { container } = render(<Part name="palette" />);
    expect(c.calls).toHaveLength(1);
    expect(container.textContent).toBe('');
    await act(async () => c.calls[0]!.resolve(c.module));
    expect(screen.getByText('hello palette')).toBeTruthy();
  });

  it('is loaded by preloadLazyParts before any draw, and then draws in the first render', async () => {
    const c = chunk();
    const Part = lazyPart(c.load, (m: { Hello: (p: { name: string }) => React.ReactElement }) => m.Hello);
    const preloaded = preloadLazyParts();
    expect(c.calls).toHaveLength(1);
    c.calls[0]!.resolve(c.module);
    await preloaded;
    render(<Part name="search" />);
    // Drawn in the render itself: no suspension, no fallback throttle.
    expect(screen.getByText('hello search')).toBeTruthy();
    expect(c.calls).toHaveLength(1);
  });

  it('says so when its chunk fails to load, and "Try again" loads it again', async () => {
    const c = chunk();
    const Part = lazyPart(c.load, (m: { Hello: (p: { name: string }) => React.ReactElement }) => m.Hello);
    render(<Part name="compare" />);
    await act(async () => c.calls[0]!.reject(new Error('Failed to fetch dynamically imported module')));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('could not be loaded');
    expect(alert.textContent).toContain('Failed to fetch dynamically imported module');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(c.calls).toHaveLength(2);
    await act(async () => c.calls[1]!.resolve(c.module));
    expect(screen.getByText('hello compare')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
