import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';

/**
 * Parts of the explorer that a first screen (the library, a session's tree and panes) never draws
 * are chunks of their own: the command palette, the search column, the comparison, the fate strip
 * and the bottom panels. A page's first load then reads, compiles and caches less code before it
 * can take the session's first answers; each part is fetched once the first screen is drawn
 * (`preloadLazyParts`), so that its first use does not wait for the network.
 */
type Loader = () => Promise<unknown>;
const loaders: Loader[] = [];

/**
 * A component from a chunk loaded on first use: `load` is the chunk's dynamic import, `pick` the
 * component in it. A failed load is asked again on the next draw (the import is not kept).
 */
export function lazyPart<P extends object>(
  load: () => Promise<Record<string, unknown>>,
  pick: (m: never) => ComponentType<P>,
): ComponentType<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const once = (): Promise<{ default: ComponentType<P> }> =>
    (loading ??= load().then(
      (m) => ({ default: pick(m as never) }),
      (e: unknown) => {
        loading = null;
        throw e;
      },
    ));
  loaders.push(once);
  const Lazy = lazy(once);
  const Part = (props: P) => (
    <PartBoundary>
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    </PartBoundary>
  );
  return Part;
}

/** Starts every part's chunk loading (once each); resolves when all have settled. */
export function preloadLazyParts(): Promise<void> {
  return Promise.allSettled(loaders.map((l) => l())).then(() => undefined);
}

/**
 * Loads the lazy parts once the first screen is drawn (`shown`) and the page had an idle moment:
 * their fetch, compile and evaluation then run after the session's rows and panes, not before.
 */
export function preloadAfter(shown: Promise<unknown>, win: Window = window): void {
  const start = (): void => {
    if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(() => void preloadLazyParts());
    else setTimeout(() => void preloadLazyParts(), 0);
  };
  shown.then(start, start);
}

/** A part whose chunk could not be loaded says so (and how to get it) instead of leaving a hole. */
class PartBoundary extends Component<{ children: ReactNode }, { failed: string | null }> {
  state = { failed: null as string | null };
  static getDerivedStateFromError(e: unknown): { failed: string } {
    return { failed: e instanceof Error ? e.message : String(e) };
  }
  render() {
    if (this.state.failed === null) return this.props.children;
    return (
      <div className="error lazy-part-error" role="alert">
        This part of the explorer could not be loaded ({this.state.failed}); the server may have stopped.{' '}
        <button type="button" onClick={() => this.setState({ failed: null })}>
          Try again
        </button>{' '}
        <button type="button" onClick={() => location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
}
