import type { TreeRow } from '../../shared/api';

export const ROW_HEIGHT = 24;
export const LANE_WIDTH = 12;
/** The graph never takes more than this many pixels of a row… */
const MAX_GRAPH_WIDTH = 192;
/** …so lanes narrow down to this width when there are many; past that they share the last column. */
const MIN_LANE_WIDTH = 4;

/** Lane width and how many lanes fit, for a session with `laneCount` lanes. */
export function laneGeometry(laneCount: number): { width: number; max: number } {
  const width = Math.max(MIN_LANE_WIDTH, Math.min(LANE_WIDTH, Math.floor(MAX_GRAPH_WIDTH / Math.max(1, laneCount))));
  return { width, max: Math.floor(MAX_GRAPH_WIDTH / width) };
}

/**
 * The lanes passing through a row (or forking from it), one per column drawn: lanes past the last
 * column share it and are drawn once (a row of a busy session passes hundreds: one line each made
 * a row a few ms to draw).
 */
export function shownThrough(through: readonly number[], max: number): number[] {
  const shown: number[] = [];
  let last = false;
  for (const l of through) {
    if (l < max - 1) shown.push(l);
    else if (!last) {
      shown.push(l);
      last = true;
    }
  }
  return shown;
}

/** The git-graph cell of one row: lines passing through, the line into and out of the dot, forks to child lanes. */
export function LaneGraph({ row, laneCount }: { row: TreeRow; laneCount: number }) {
  const { width, max } = laneGeometry(laneCount);
  const x = (lane: number) => width / 2 + Math.min(lane, max - 1) * width;
  const forks = shownThrough(row.forkTo, max);
  const w = Math.min(Math.max(laneCount, row.lane + 1, ...forks.map((l) => l + 1)), max) * width;
  const h = ROW_HEIGHT;
  const mid = h / 2;
  const message = row.kind === 'message';
  const cx = x(row.lane);
  return (
    <svg className="lanes" width={w} height={h} aria-hidden="true">
      {shownThrough(row.through, max).map((l) => (
        <line key={l} x1={x(l)} y1={0} x2={x(l)} y2={h} className={`lane lane-${l % 6}`} />
      ))}
      {row.parentId !== null && !row.isOrphan && (
        <line x1={cx} y1={0} x2={cx} y2={mid} className={`lane lane-${row.lane % 6}`} />
      )}
      {row.children > row.forkTo.length && (
        <line x1={cx} y1={mid} x2={cx} y2={h} className={`lane lane-${row.lane % 6}`} />
      )}
      {forks.map((l) => (
        <path
          key={`f${l}`}
          d={`M ${cx} ${mid} C ${cx} ${h} ${x(l)} ${mid} ${x(l)} ${h}`}
          className={`lane lane-${l % 6}`}
          fill="none"
        />
      ))}
      <circle
        cx={cx}
        cy={mid}
        r={row.isBranchPoint ? 4.5 : 3.5}
        className={`dot ${message ? 'filled' : 'hollow'} role-${row.role ?? row.kind}`}
      />
    </svg>
  );
}
