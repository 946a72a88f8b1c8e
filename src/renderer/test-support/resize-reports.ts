/**
 * A ResizeObserver for jsdom that reports when told, as a browser does after a frame's layout:
 * `report()` gives each observer (in the order they were made) an entry for every element it
 * observes whose size (`offsetWidth` × `offsetHeight`) is not the one it last reported. An element
 * is first reported at its first `report()` after `observe` (a browser's first report of a box).
 * `install` replaces the window's ResizeObserver and returns the reporter and the undo.
 */
export interface ResizeReports {
  report(): void;
  restore(): void;
}

export function installResizeReports(): ResizeReports {
  const w = window as unknown as { ResizeObserver?: unknown };
  const had = Object.prototype.hasOwnProperty.call(w, 'ResizeObserver');
  const saved = w.ResizeObserver;
  const observers: FakeObserver[] = [];
  class FakeObserver {
    readonly seen = new Map<Element, string | null>();
    constructor(private readonly cb: ResizeObserverCallback) {
      observers.push(this);
    }
    observe(el: Element): void {
      if (!this.seen.has(el)) this.seen.set(el, null);
    }
    unobserve(el: Element): void {
      this.seen.delete(el);
    }
    disconnect(): void {
      this.seen.clear();
    }
    deliver(): void {
      const entries: ResizeObserverEntry[] = [];
      for (const [el, last] of this.seen) {
        const h = (el as HTMLElement).offsetHeight;
        const wd = (el as HTMLElement).offsetWidth;
        const size = `${wd}x${h}`;
        if (size === last) continue;
        this.seen.set(el, size);
        const box = [{ blockSize: h, inlineSize: wd }];
        entries.push({
          target: el,
          borderBoxSize: box,
          contentBoxSize: box,
          devicePixelContentBoxSize: box,
          contentRect: { x: 0, y: 0, width: wd, height: h, top: 0, left: 0, right: wd, bottom: h } as DOMRectReadOnly,
        });
      }
      if (entries.length > 0) this.cb(entries, this as unknown as ResizeObserver);
    }
  }
  w.ResizeObserver = FakeObserver;
  return {
    report: () => [...observers].forEach((o) => o.deliver()),
    restore: () => {
      if (had) w.ResizeObserver = saved;
      else delete w.ResizeObserver;
    },
  };
}
