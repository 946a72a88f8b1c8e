import { useEffect, useState, type RefObject } from 'react';
import { type LinkHighlight, useAppStore } from '../store/app-store';

/** How far into each column a connector reaches (px): the columns touch, so the curve needs room. */
const REACH = 28;

/** Where `el` sits vertically, clamped to its scroll box; null when scrolled out of it. */
function rowY(el: Element, box: DOMRect, offset: (r: DOMRect) => number): number | null {
  const r = el.getBoundingClientRect();
  if (r.bottom < box.top || r.top > box.bottom) return null;
  return Math.min(box.bottom, Math.max(box.top, offset(r)));
}

/** Connectors from every lit history row to every lit projected message that is on screen. */
function measure(root: HTMLElement): string[] {
  const hist = root.querySelector('.history-pane .pane-scroll');
  const panes = root.querySelectorAll('.projected-pane .pane-scroll');
  // Comparing shows two projected contexts: a line could not say which one it means.
  if (!hist || panes.length !== 1) return [];
  const at = root.getBoundingClientRect();
  const hb = hist.getBoundingClientRect();
  const pb = panes[0].getBoundingClientRect();
  const from = [...hist.querySelectorAll('.history-item.linked')]
    .map((el) => rowY(el, hb, (r) => r.top + Math.min(r.height, 26) / 2))
    .filter((y) => y !== null);
  const to = [...panes[0].querySelectorAll('.projected-msg.linked')]
    .map((el) => rowY(el, pb, (r) => r.top + Math.min(r.height, 26) / 2))
    .filter((y) => y !== null);
  const x1 = hb.right - at.left - REACH;
  const x2 = pb.left - at.left + REACH;
  const mid = (x1 + x2) / 2;
  const paths: string[] = [];
  for (const a of from) {
    for (const b of to) {
      const y1 = a - at.top;
      const y2 = b - at.top;
      paths.push(`M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`);
    }
  }
  return paths;
}

/**
 * UI.md: "a line joins a projected message to its source entries when either is
 * hovered". An SVG over both columns, purely visual (no pointer events), drawn
 * again on scroll and whenever rows come and go (pages land, the virtualizers move).
 */
export function LinkLines({ root }: { root: RefObject<HTMLElement | null> }) {
  const link = useAppStore((s) => s.hover ?? s.pinned);
  // Lines are kept with the link they were measured for: a new link never shows the old one's lines.
  const [drawn, setDrawn] = useState<{ link: LinkHighlight; paths: string[] } | null>(null);
  useEffect(() => {
    const el = root.current;
    if (!el || !link) return;
    let frame = 0;
    const schedule = (): void => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const paths = measure(el);
        // Same lines, same state: drawing them must not wake the observer into a loop.
        setDrawn((cur) => (cur?.link === link && cur.paths.join('|') === paths.join('|') ? cur : { link, paths }));
      });
    };
    schedule();
    el.addEventListener('scroll', schedule, true);
    window.addEventListener('resize', schedule);
    const mo = new MutationObserver(schedule);
    mo.observe(el, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style'] });
    return () => {
      cancelAnimationFrame(frame);
      el.removeEventListener('scroll', schedule, true);
      window.removeEventListener('resize', schedule);
      mo.disconnect();
    };
  }, [root, link]);
  if (!link || drawn?.link !== link || drawn.paths.length === 0) return null;
  return (
    <svg className="link-lines" aria-hidden="true">
      {drawn.paths.map((d, i) => (
        <path key={i} d={d} />
      ))}
    </svg>
  );
}
