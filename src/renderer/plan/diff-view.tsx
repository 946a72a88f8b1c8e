import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LeafProjection } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import { diffLines } from '../util/heavy-work';
import type { DiffOp } from '../util/line-diff';
import { layoutDiff } from './diff-rows';
import { projectionLines } from './turn-rows';

const LINE_H = 18;

/** Focus is in a field that takes keys of its own. */
const inField = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

/**
 * A line diff of two projected contexts (computed off the UI thread when long): unchanged runs
 * folded, n / F7 and N / Shift+F7 step to the next and previous change.
 */
export function DiffView({ a, b }: { a: LeafProjection; b: LeafProjection }) {
  const [ops, setOps] = useState<DiffOp[] | null>(null);
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(new Set());
  const [current, setCurrent] = useState(-1);
  const scrollRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    void diffLines(projectionLines(a), projectionLines(b)).then((d) => {
      if (!live) return;
      setOps(d);
      setUnfolded(new Set());
      setCurrent(-1);
    });
    return () => {
      live = false;
    };
  }, [a, b]);
  const layout = useMemo(() => layoutDiff(ops ?? [], unfolded), [ops, unfolded]);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build; the virtualizer re-renders on its own
  const virt = useVirtualizer({
    count: layout.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LINE_H,
    overscan: 30,
  });
  const changes = layout.changeRows.length;
  const go = (step: 1 | -1) => {
    if (changes === 0) return;
    const next = current < 0 ? (step === 1 ? 0 : changes - 1) : (current + step + changes) % changes;
    setCurrent(next);
    virt.scrollToIndex(layout.changeRows[next], { align: 'center' });
  };
  const goRef = useRef(go);
  goRef.current = go;
  // Steps asked for by the keys (n / N / F7, actions/view-actions.ts) or the palette.
  const step = useAppStore((st) => st.diffStep);
  const seen = useRef(step.seq);
  useEffect(() => {
    if (step.seq === seen.current) return;
    seen.current = step.seq;
    goRef.current(step.dir);
  }, [step]);
  useEffect(() => {
    // Shift+F7 reaches the app's key map as plain F7 (next): take it first, in the capture phase.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'F7' || !e.shiftKey || e.ctrlKey || e.metaKey || e.altKey || inField(e.target)) return;
      e.preventDefault();
      e.stopPropagation();
      useAppStore.getState().stepDiff(-1);
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, []);

  if (!ops) return <p className="dim">diffing…</p>;
  return (
    <div className="diff-view" role="region" aria-label="Text diff">
      <div className="diff-head">
        <span className="diff-del">−{layout.removed}</span> <span className="diff-add">+{layout.added}</span> lines (A →
        B) ·{' '}
        <span aria-live="polite">
          {changes === 0
            ? 'no changes'
            : current < 0
              ? `${changes} change${changes === 1 ? '' : 's'}`
              : `change ${current + 1} of ${changes}`}
        </span>
        <button type="button" onClick={() => go(-1)} disabled={changes === 0} title="Previous change (N, Shift+F7)">
          ↑ previous
        </button>
        <button type="button" onClick={() => go(1)} disabled={changes === 0} title="Next change (n, F7)">
          ↓ next
        </button>
      </div>
      <div className="pane-scroll" ref={scrollRef}>
        <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
          {virt.getVirtualItems().map((it) => {
            const r = layout.rows[it.index];
            const style = { position: 'absolute', top: it.start, left: 0, right: 0, height: LINE_H } as const;
            if (r.kind === 'fold')
              return (
                <button
                  key={`fold-${r.start}`}
                  type="button"
                  className="diff-fold"
                  style={style}
                  onClick={() => setUnfolded((u) => new Set(u).add(r.start))}
                >
                  ⋯ {r.count} unchanged lines (show)
                </button>
              );
            const mark = r.op === 'add' ? '+ ' : r.op === 'del' ? '− ' : '  ';
            const cur = r.change !== null && r.change === current;
            return (
              <pre key={it.key} className={`diff-line diff-${r.op}${cur ? ' current' : ''}`} style={style}>
                {mark}
                {r.text}
              </pre>
            );
          })}
        </div>
      </div>
    </div>
  );
}
