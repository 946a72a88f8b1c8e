import { useRef } from 'react';

interface Props {
  width: number;
  onResize: (w: number) => void;
  min?: number;
  max?: number;
}

/** A vertical drag handle on a column's right edge; arrow keys resize it too. */
export function ResizeHandle({ width, onResize, min = 180, max = 640 }: Props) {
  const start = useRef<{ x: number; w: number } | null>(null);
  const clamp = (w: number) => Math.max(min, Math.min(max, Math.round(w)));
  return (
    <div
      className="resize-handle"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize library"
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={(e) => {
        start.current = { x: e.clientX, w: width };
        (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
      }}
      onPointerMove={(e) => {
        if (start.current) onResize(clamp(start.current.w + e.clientX - start.current.x));
      }}
      onPointerUp={() => (start.current = null)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') onResize(clamp(width - 16));
        if (e.key === 'ArrowRight') onResize(clamp(width + 16));
      }}
    />
  );
}
