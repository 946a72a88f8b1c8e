import { memo } from 'react';
import type { TreeRow } from '../../shared/api';
import type { Fidelity } from '../../shared/ledger-types';
import { Icon } from '../icons/icon';
import { fullTime, timeOfDay } from '../util/format';
import { kindIcon, kindLabel, roleLabel } from './kind-icons';
import { LaneGraph, ROW_HEIGHT } from './lane-graph';

interface Props {
  row: TreeRow;
  top: number;
  laneCount: number;
  cursor: boolean;
  selectedLeaf: boolean;
  linked: boolean;
  /** The fidelity of the turn this row starts in the shown projection. */
  turnFidelity: Fidelity | null;
  onSelect: (row: TreeRow) => void;
  onHover: (row: TreeRow | null) => void;
  onToggleFold: () => void;
}

/** One fixed-height row of the session tree. */
export const TreeRowView = memo(function TreeRowView(p: Props) {
  const { row } = p;
  const cls = [
    'tree-row',
    p.cursor && 'cursor',
    p.selectedLeaf && 'selected-leaf',
    row.isActiveLeaf && 'active-leaf',
    p.linked && 'linked',
    row.kind !== 'message' && 'audit',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      role="option"
      aria-selected={p.cursor}
      id={`tree-row-${row.row}`}
      data-entry-id={row.id}
      className={cls}
      style={{ top: p.top, height: ROW_HEIGHT }}
      onClick={() => p.onSelect(row)}
      onMouseEnter={() => p.onHover(row)}
      onMouseLeave={() => p.onHover(null)}
    >
      <span
        className={`turn-marker${p.turnFidelity ? ` fid-${p.turnFidelity}` : ''}`}
        title={p.turnFidelity ?? undefined}
      />
      <LaneGraph row={row} laneCount={p.laneCount} />
      <span className="kind-icon" title={row.kind}>
        {kindIcon(row.kind)}
      </span>
      <span className="row-role">{row.role ? roleLabel(row.role) : kindLabel(row.kind)}</span>
      {row.control && <span className="tag">control</span>}
      {row.folded ? (
        <button
          type="button"
          className="fold-toggle"
          title={row.folded.kinds.join(', ')}
          onClick={(e) => {
            e.stopPropagation();
            p.onToggleFold();
          }}
        >
          ▸ {row.folded.count} audit entries
        </button>
      ) : (
        <span className="row-text">{row.text}</span>
      )}
      <span className="row-marks">
        {row.hasWarning && (
          <span className="warn-badge" title="The reader warned about this line: see the Warnings panel">
            <Icon name="warn" label="warning" />
          </span>
        )}
        {row.isBranchPoint && (
          <span className="mark branch" title={`${row.children} children`}>
            <Icon name="branch" />
            {row.children}
          </span>
        )}
        {row.isLeaf && !row.isActiveLeaf && <span className="mark leaf">leaf</span>}
        {p.selectedLeaf && (
          <span className="mark selected">
            ▶<span className="mark-word"> selected</span>
          </span>
        )}
        {row.isActiveLeaf && (
          <span className="mark active">
            ◀<span className="mark-word"> active</span>
          </span>
        )}
      </span>
      <span className="row-time" title={fullTime(row.ts)}>
        {timeOfDay(row.ts)}
      </span>
    </div>
  );
});
