import type { LeafProjection } from '../../shared/api';
import type { CapacityProfile } from '../../shared/ledger-types';
import { fmtInt } from '../util/format';

/** Used / available / over budget for one projection. */
export function TotalsBar({ projection, profile }: { projection: LeafProjection; profile: CapacityProfile }) {
  const t = projection.tokens;
  const budget = profile.window - profile.reserve;
  return (
    <footer className={`totals-bar${projection.over_budget > 0 ? ' over' : ''}`} aria-label="Token totals">
      <span title="system + tools + messages">
        used <b>{fmtInt(t.total)}</b> / {fmtInt(budget)} tok
      </span>
      <span title="window − reserve − system − tools − fixed messages">available {fmtInt(t.available)}</span>
      <span>
        system {fmtInt(t.system)} · tools {fmtInt(t.tools)} · messages {fmtInt(t.messages)}
      </span>
      {projection.over_budget > 0 ? (
        <span className="over-budget">over budget {fmtInt(projection.over_budget)}</span>
      ) : (
        <span className="within">within budget</span>
      )}
    </footer>
  );
}
