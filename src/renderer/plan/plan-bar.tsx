import { useAppStore, type PanelName } from '../store/app-store';
import { PlanStrip } from './plan-strip';
import { ProfileEditor } from './profile-editor';

/** The bottom bar: plan and profile, the plan strip, and the panel buttons. */
export function PlanBar() {
  const plan = useAppStore((s) => s.plan);
  const profile = useAppStore((s) => s.profile);
  const view = useAppStore((s) => s.leafView);
  const viewRequest = useAppStore((s) => s.leafViewRequest);
  const info = useAppStore((s) => s.sessionInfo);
  const panels = useAppStore((s) => s.panels);
  const compareOpen = useAppStore((s) => s.compare.open);
  const follow = useAppStore((s) => s.follow);
  const setPlan = useAppStore((s) => s.setPlan);
  const setProfile = useAppStore((s) => s.setProfile);
  const toggleFollow = useAppStore((s) => s.toggleFollow);
  const togglePanel = useAppStore((s) => s.togglePanel);
  const toggleCompare = useAppStore((s) => s.toggleCompare);
  const panelButton = (p: PanelName, label: string, title?: string) => (
    <button type="button" aria-pressed={panels[p]} onClick={() => togglePanel(p)} title={title}>
      {label}
    </button>
  );
  return (
    <footer className="plan-bar" aria-label="Plan and panels">
      <label>
        plan{' '}
        <select aria-label="Plan" value={plan} onChange={(e) => setPlan(e.target.value === 'none' ? 'none' : 'auto')}>
          <option value="auto">auto</option>
          <option value="none">none (all Full)</option>
        </select>
      </label>
      <ProfileEditor value={profile} onCommit={setProfile} />
      <PlanStrip view={view} request={viewRequest} />
      <button type="button" aria-pressed={compareOpen} onClick={() => toggleCompare()}>
        compare {compareOpen ? '▾' : '▸'}
      </button>
      {panelButton('plan', `turns ${view?.plan.turns ?? 0}`)}
      {panelButton(
        'warnings',
        `warnings ${info?.warningCount ?? '–'}${info?.checkingHashes ? '…' : ''}`,
        info?.checkingHashes ? 'Checking the hash chain: hash mismatches are not counted yet' : undefined,
      )}
      {panelButton('usage', 'usage')}
      {panelButton('cost', 'cost')}
      {panelButton('work', `work ${info?.work.count ?? ''}`.trim())}
      <button type="button" aria-pressed={follow} onClick={toggleFollow} title="Keep the newest leaf selected (f)">
        follow {follow ? '◉' : '○'}
      </button>
      <button type="button" onClick={() => togglePanel('keys', true)} aria-label="Keyboard shortcuts">
        ?
      </button>
    </footer>
  );
}
