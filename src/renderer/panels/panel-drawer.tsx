import { lazyPart } from '../util/lazy-parts';
import { useAppStore, type PanelName } from '../store/app-store';

// Each panel is a chunk of its own (util/lazy-parts.tsx): a first screen opens none of them.
const CostPanel = lazyPart(
  () => import('../cost/cost-panel'),
  (m: typeof import('../cost/cost-panel')) => m.CostPanel,
);
const PlanPanel = lazyPart(
  () => import('../plan/plan-panel'),
  (m: typeof import('../plan/plan-panel')) => m.PlanPanel,
);
const UsagePanel = lazyPart(
  () => import('./usage-panel'),
  (m: typeof import('./usage-panel')) => m.UsagePanel,
);
const WarningsPanel = lazyPart(
  () => import('./warnings-panel'),
  (m: typeof import('./warnings-panel')) => m.WarningsPanel,
);
const WorkPanel = lazyPart(
  () => import('./work-panel'),
  (m: typeof import('./work-panel')) => m.WorkPanel,
);

const PANELS: { name: PanelName; title: string; body: () => React.ReactElement }[] = [
  { name: 'plan', title: 'Turns of the plan', body: () => <PlanPanel /> },
  { name: 'warnings', title: 'Warnings', body: () => <WarningsPanel /> },
  { name: 'usage', title: 'Usage', body: () => <UsagePanel /> },
  { name: 'work', title: 'Work', body: () => <WorkPanel /> },
  { name: 'cost', title: 'Cost', body: () => <CostPanel /> },
];

/** The open panels, side by side above the bottom bar. */
export function PanelDrawer() {
  const panels = useAppStore((s) => s.panels);
  const toggle = useAppStore((s) => s.togglePanel);
  const open = PANELS.filter((p) => panels[p.name]);
  if (open.length === 0) return null;
  return (
    <div className="panel-drawer">
      {open.map((p) => (
        <section key={p.name} className={`panel panel-${p.name}`} aria-label={p.title}>
          <header className="pane-head">
            <b>{p.title}</b>
            <button type="button" onClick={() => toggle(p.name, false)} aria-label={`Close ${p.title}`}>
              ✕
            </button>
          </header>
          <div className="panel-body">{p.body()}</div>
        </section>
      ))}
    </div>
  );
}
