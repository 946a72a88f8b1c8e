import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { PANE_LIMITS } from '../store/layout-slice';
import { useAppStore } from '../store/app-store';
import type { PaneName } from '../store/types';

interface Props {
  pane: PaneName;
  /** What the handle resizes, for screen readers ("session tree", "history"). */
  label: string;
  /** The pane's element, measured when a drag starts (a pane squeezed by a small window is narrower than its width). */
  measure: () => HTMLElement | null;
}

/**
 * A drag handle on a pane's right edge: drag it, or focus it and press ←/→ (Shift: bigger
 * steps, Home/End: narrowest/widest). The width is remembered across reloads (layout-slice.ts).
 */
export function PaneHandle({ pane, label, measure }: Props) {
  const width = useAppStore((s) => s.paneWidths[pane]);
  const setPaneWidth = useAppStore((s) => s.setPaneWidth);
  const start = useRef<{ x: number; w: number } | null>(null);
  const { min, max } = PANE_LIMITS[pane];
  /** The width the pane shows, which a narrow window may hold below the width it was given. */
  const shown = (): number => {
    const w = measure()?.getBoundingClientRect().width;
    return w ? Math.min(width, w) : width; // 0: not laid out (yet), the given width stands
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    start.current = { x: e.clientX, w: shown() };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current) setPaneWidth(pane, start.current.w + e.clientX - start.current.x);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 64 : 16;
    const next =
      e.key === 'ArrowLeft'
        ? shown() - step
        : e.key === 'ArrowRight'
          ? shown() + step
          : e.key === 'Home'
            ? min
            : e.key === 'End'
              ? max
              : null;
    if (next === null) return;
    e.preventDefault();
    e.stopPropagation();
    setPaneWidth(pane, next);
  };
  return (
    <div
      className={`pane-handle pane-handle-${pane}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${label}`}
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      title={`Drag, or focus and press ←/→, to resize the ${label}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (start.current = null)}
      onPointerCancel={() => (start.current = null)}
      onKeyDown={onKeyDown}
    />
  );
}
