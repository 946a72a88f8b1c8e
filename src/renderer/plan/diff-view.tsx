import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { Projection } from '../../shared/ledger-types';
import { diffLines } from '../util/heavy-work';
import type { DiffOp } from '../util/line-diff';
import { projectionLines } from './turn-rows';

const LINE_H = 18;

/** A line diff of two projected contexts (computed off the UI thread when long). */
export function DiffView({ a, b }: { a: Projection; b: Projection }) {
  const [ops, setOps] = useState<DiffOp[] | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    void diffLines(projectionLines(a), projectionLines(b)).then((d) => live && setOps(d));
    return () => {
      live = false;
    };
  }, [a, b]);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build; the virtualizer re-renders on its own
  const virt = useVirtualizer({
    count: ops?.length ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LINE_H,
    overscan: 30,
  });
  if (!ops) return <p className="dim">diffing…</p>;
  const added = ops.filter((o) => o.op === 'add').length;
  const removed = ops.filter((o) => o.op === 'del').length;
  return (
    <div className="diff-view" aria-label="Text diff">
      <p className="dim">
        <span className="diff-del">−{removed}</span> <span className="diff-add">+{added}</span> lines (A → B)
      </p>
      <div className="pane-scroll" ref={scrollRef}>
        <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
          {virt.getVirtualItems().map((it) => {
            const o = ops[it.index];
            return (
              <pre
                key={it.key}
                className={`diff-line diff-${o.op}`}
                style={{
                  position: 'absolute',
                  top: it.start,
                  left: 0,
                  right: 0,
                  height: LINE_H,
                }}
              >
                {o.op === 'add' ? '+ ' : o.op === 'del' ? '− ' : '  '}
                {o.text}
              </pre>
            );
          })}
        </div>
      </div>
    </div>
  );
}
