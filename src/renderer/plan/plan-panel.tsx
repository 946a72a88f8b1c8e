import { useAppStore } from '../store/app-store';
import { TurnOverrides } from './turn-overrides';

/** The turns panel: every closed turn of side A's plan, each with a menu to force its fidelity. */
export function PlanPanel() {
  const view = useAppStore((s) => s.leafView);
  const request = useAppStore((s) => s.leafViewRequest);
  const overrides = useAppStore((s) => s.overrides);
  const setOverride = useAppStore((s) => s.setOverride);
  const pin = useAppStore((s) => s.pin);
  const clearOverrides = useAppStore((s) => s.clearOverrides);
  if (!view || !request) return <p className="dim">No leaf selected.</p>;
  return (
    <div className="plan-panel">
      <TurnOverrides
        view={view}
        request={request}
        overrides={overrides}
        onOverride={setOverride}
        onClear={clearOverrides}
        onPin={(turnId) => pin({ entries: [turnId], messages: [] })}
      />
    </div>
  );
}
