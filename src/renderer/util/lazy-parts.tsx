import { useSyncExternalStore, type ComponentType } from 'react';
import { whenIdle } from './after-paint';

/**
 * Parts of the explorer that a first screen (the library, a session's tree and panes) never draws
 * are chunks of their own: the command palette, the search column, the comparison, the fate strip
 * and the bottom panels. A page's first load then reads, compiles and caches less code before it
 * can take the session's first answers; each part is fetched once the first screen is drawn
 * (`preloadAfter`), so that its first use does not wait for the network.
 *
 * Not React.lazy: a part that suspends is revealed only after React's fallback throttle (hundreds
 * of ms), even when its chunk is already there. A part here draws nothing until its chunk has
 * loaded, then draws at once (as markdown-on-demand.tsx does).
 */
type Loader = () => Promise<unknown>;
const loaders: Loader[] = [];

interface PartState<P> {
  Loaded: ComponentType<P> | null;
  error: string | null;
}

/**
 * A component from a chunk loaded on first use: `load` is the chunk's dynamic import, `pick` the
 * component in it. A failed load is shown (`LoadFailed`) and asked again by "Try again".
 */
export function lazyPart<P extends object>(
  load: () => Promise<Record<string, unknown>>,
  pick: (m: never) => ComponentType<P>,
): ComponentType<P> {
  let state: PartState<P> = { Loaded: null, error: null };
  let loading: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const set = (next: PartState<P>): void => {
    state = next;
    for (const l of [...listeners]) l();
  };
  const once = (): Promise<void> =>
    (loading ??= load().then(
      (m) => set({ Loaded: pick(m as never), error: null }),
      (e: unknown) => {
        loading = null;
        set({ Loaded: null, error: e instanceof Error ? e.message : String(e) });
      },
    ));
  loaders.push(once);
  const subscribe = (l: () => void): (() => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  const Part = (props: P) => {
    const { Loaded, error } = useSyncExternalStore(subscribe, () => state);
    if (Loaded) return <Loaded {...props} />;
    if (error !== null) return <LoadFailed error={error} retry={() => void once()} />;
    void once();
    return null;
  };
  return Part;
}

/** Starts every part's chunk loading (once each); resolves when all have settled. */
export function preloadLazyParts(): Promise<void> {
  return Promise.all(loaders.map((l) => l())).then(() => undefined);
}

/**
 * Loads the lazy parts once the first screen is drawn (`shown`) and the page had an idle moment:
 * their fetch, compile and evaluation then run after the session's rows and panes, not before.
 */
export function preloadAfter(shown: Promise<unknown>, win: Window = window): void {
  const start = (): void => void whenIdle(() => void preloadLazyParts(), undefined, win);
  shown.then(start, start);
}

/** A part whose chunk could not be loaded says so (and how to get it) instead of leaving a hole. */
function LoadFailed({ error, retry }: { error: string; retry: () => void }) {
  return (
    <div className="error lazy-part-error" role="alert">
      This part of the explorer could not be loaded ({error}); the server may have stopped.{' '}
      <button type="button" onClick={retry}>
        Try again
      </button>{' '}
      <button type="button" onClick={() => location.reload()}>
        Reload the page
      </button>
    </div>
  );
}
