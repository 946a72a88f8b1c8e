import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';
import { useApi } from '../api/api-context';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';
import { columnAtX, drawContextChart, PAD, plotWidthOf } from './chart-draw';
import { chartModel, columnOfPoint, columnsOf, pointAtPos, STACK, type ChartScale } from './chart-model';
import { fitLine, pointLines, turnEndsWords, turnLabel } from './chart-text';
import { fitVerdict, usefulSuggestion } from './fit-verdict';
import { PART_LABEL, PART_VAR, readChartTheme } from './chart-theme';
import { useContextSeries } from './use-context-series';
import { fmtInt } from '../util/format';
import './context-chart.css';

const HEIGHT = 108;

/** The context-over-time strip above the tree and the panes (toggle: g). */
export function ContextChart() {
  const open = useAppStore((s) => s.chartOpen);
  const key = useAppStore((s) => s.sessionKey);
  const toggle = useAppStore((s) => s.toggleChart);
  if (!key) return null;
  if (!open)
    return (
      <button type="button" className="chart-collapsed" onClick={() => toggle(true)} aria-expanded={false}>
        ▸ Context over time <span className="dim">(g)</span>
      </button>
    );
  return <ChartStrip />;
}

function ChartStrip() {
  const api = useApi();
  const { series, seriesB, error, loading, deferred, draw, progress } = useContextSeries(true);
  const entries = useAppStore((s) => s.sessionInfo?.entryCount ?? 0);
  const profile = useAppStore((s) => s.profile);
  const setProfile = useAppStore((s) => s.setProfile);
  const toggleChart = useAppStore((s) => s.toggleChart);
  const view = useAppStore((s) => s.leafView);
  const planB = useAppStore((s) => s.compare.planB);
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(800);
  const [hover, setHover] = useState(-1);
  const [focusAt, setFocus] = useState(-1);
  const [scaleChoice, setScale] = useState<ChartScale | null>(null);

  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el) return;
    // The width comes from the observer, whose first observation follows the frame's layout and
    // precedes its paint. Read here, in the commit, it laid out the whole new view in the task of
    // the input that opened it (a click in the library, a reload's first render).
    let first = true;
    const ro = new ResizeObserver(() => {
      const w = Math.max(120, el.clientWidth);
      if (!first) {
        setWidth(w);
        return;
      }
      first = false;
      // Drawn before that paint: a chart whose series is there draws at its width, not at a guess.
      flushSync(() => setWidth(w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const model = useMemo(() => (series ? chartModel(series) : null), [series]);
  const modelB = useMemo(() => (seriesB ? chartModel(seriesB) : null), [seriesB]);
  const cols = useMemo(() => (model ? columnsOf(model, plotWidthOf(width)) : null), [model, width]);
  const colsB = useMemo(() => (modelB ? columnsOf(modelB, plotWidthOf(width)) : null), [modelB, width]);

  // The selected leaf's column: its own point, else the turn end it belongs to.
  const cursorPoint = useMemo(() => {
    if (!series || !view) return -1;
    const own = series.points.findIndex((p) => p.leaf === view.leaf);
    return own >= 0 ? own : pointAtPos(series.points, view.chainLength - 1);
  }, [series, view]);
  // Unless chosen, a context far below its window is drawn to its own scale (else it is a flat line).
  const scale: ChartScale = scaleChoice ?? (model && model.totalMax < model.window / 4 ? 'data' : 'window');
  const cursor = cols && cursorPoint >= 0 ? columnOfPoint(cols, cursorPoint) : -1;
  // A new series (fewer columns) keeps the keyboard focus inside it.
  const focus = cols ? Math.min(focusAt, cols.count - 1) : -1;

  useLayoutEffect(() => {
    const c = canvas.current;
    if (!c || !model || !cols) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(width * dpr);
    c.height = Math.round(HEIGHT * dpr);
    const ctx = c.getContext('2d');
    if (!ctx) return; // no canvas (a test DOM): the data and words still show
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const b = modelB && colsB ? { model: modelB, cols: colsB } : null;
    drawContextChart(ctx, width, HEIGHT, model, cols, readChartTheme(c), { cursor, hover, focus, scale }, b);
  }, [model, cols, modelB, colsB, width, cursor, hover, focus, scale]);

  const shown = focus >= 0 ? focus : hover;
  const shownPoint = cols && shown >= 0 && shown < cols.count ? cols.rep[shown] : -1;
  const tip =
    series && cols && shownPoint >= 0
      ? pointLines(series, shownPoint, { first: cols.first[shown], last: cols.last[shown] })
      : null;
  const select = (col: number) => {
    if (!series || !cols || col < 0 || col >= cols.count) return;
    void jumpToEntry(api, series.points[cols.rep[col]].leaf);
  };
  const xOf = (e: MouseEvent<HTMLCanvasElement>) => e.clientX - e.currentTarget.getBoundingClientRect().left;
  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    if (!cols || cols.count === 0) return;
    const at = focus >= 0 ? focus : cursor >= 0 ? cursor : cols.count - 1;
    const move = new Map([
      ['ArrowLeft', at - 1],
      ['ArrowRight', at + 1],
      ['Home', 0],
      ['End', cols.count - 1],
    ]).get(e.key);
    if (move !== undefined) {
      e.preventDefault();
      e.stopPropagation();
      setFocus(Math.max(0, Math.min(cols.count - 1, move)));
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      select(at);
    }
  };
  const fit = series ? fitLine(series.fit, profile.bytes_per_token) : null;
  const suggested = series ? usefulSuggestion(series.fit, profile.bytes_per_token) : null;
  const n = series?.points.length ?? 0;

  return (
    <section className="context-chart" aria-label="Context over time">
      <header className="chart-head">
        <b>Context over time</b>
        <span className="dim">{turnEndsWords(series ? n : null, loading, deferred, progress)}</span>
        {fit && (
          <span
            className={`chart-fit fit-${series ? fitVerdict(series.fit).kind : 'unmeasured'}`}
            title={`Least-squares fit of the bytes per token to the measured input tokens: ${fit}`}
          >
            {fit}
          </span>
        )}
        {suggested !== null && (
          <button
            type="button"
            className="apply-fit"
            onClick={() => setProfile({ bytes_per_token: suggested })}
            title="Set the profile's bytes per token to the best fit"
          >
            apply {suggested} bytes/token
          </button>
        )}
        {error && <span className="error">{error}</span>}
        <button
          type="button"
          className="chart-scale"
          onClick={() => setScale(scale === 'data' ? 'window' : 'data')}
          title="y axis: up to the window, or up to the largest context (and measured input)"
        >
          y: {scale === 'data' ? 'fit to data' : 'window'}
        </button>
        <button
          type="button"
          className="chart-close"
          onClick={() => toggleChart(false)}
          aria-label="Hide the context chart (g)"
        >
          ✕
        </button>
      </header>
      <div className="chart-canvas-wrap" ref={wrap} style={{ height: HEIGHT }}>
        <canvas
          ref={canvas}
          style={{ width, height: HEIGHT }}
          tabIndex={0}
          role="slider"
          aria-label="Context size per turn end: ←/→ move, Enter selects that leaf"
          aria-valuemin={n > 0 ? 1 : 0}
          aria-valuemax={n}
          aria-valuenow={shownPoint >= 0 ? shownPoint + 1 : cursorPoint + 1}
          aria-valuetext={
            series && (shownPoint >= 0 || cursorPoint >= 0)
              ? pointLines(series, shownPoint >= 0 ? shownPoint : cursorPoint, null)
                  .slice(0, 2)
                  .join(' · ')
              : 'no turns'
          }
          data-columns={cols?.count ?? 0}
          data-cursor={cursor}
          onMouseMove={(e) => cols && setHover(columnAtX(xOf(e), width, cols))}
          onMouseLeave={() => setHover(-1)}
          onClick={(e) => cols && select(columnAtX(xOf(e), width, cols))}
          onKeyDown={onKey}
          onFocus={() => setFocus(cursor >= 0 ? cursor : (cols?.count ?? 0) - 1)}
          onBlur={() => setFocus(-1)}
        />
        {tip && cols && shown >= 0 && (
          <div
            className="chart-tip"
            role="tooltip"
            data-leaf={series?.points[shownPoint]?.leaf}
            style={{
              left: Math.min(Math.max(0, PAD.left + (shown + 0.5) * cols.width + 10), Math.max(0, width - 330)),
            }}
          >
            {tip.map((l, i) => (
              <div key={i}>{l}</div>
            ))}
          </div>
        )}
        {deferred && (
          <p className="chart-empty dim">
            {fmtInt(entries)} entries: drawing the context over time reads every entry of the chain, seconds of work at
            this size, and the session answers more slowly meanwhile.{' '}
            <button type="button" onClick={draw}>
              draw it
            </button>
          </p>
        )}
        {!series && progress !== null && (
          <p className="chart-empty dim">
            <progress max={1} value={progress} aria-label="Drawing the context over time" /> reading every turn of the
            chain
          </p>
        )}
        {n === 0 && !loading && !error && !deferred && <p className="chart-empty dim">No turns yet on this chain.</p>}
      </div>
      <ul className="chart-legend" aria-label="Legend">
        {STACK.map((k) => (
          <li key={k}>
            <i className="swatch" style={{ background: `var(${PART_VAR[k]})` }} />
            {PART_LABEL[k]}
          </li>
        ))}
        <li>
          <i className="swatch dot" /> measured
        </li>
        <li>
          <i className="swatch line" /> window · <i className="swatch line budget" /> budget
        </li>
        <li>▲ reset · packet · card</li>
        {seriesB && (
          <li>
            <i className="swatch outline" /> plan B ({planB})
          </li>
        )}
      </ul>
      <span className="sr-only" aria-live="polite">
        {focus >= 0 && shownPoint >= 0 ? turnLabel(shownPoint, n) : ''}
      </span>
    </section>
  );
}
