import { ACTION_GROUPS, ACTIONS } from '../actions/registry';
import { useAppStore } from '../store/app-store';
import { keysLabel } from './key-map';
import './keys.css';

/** What the `?` overlay lists: every registered action that has keys, by group. */
export function overlayActions() {
  return ACTION_GROUPS.map((group) => ({
    group,
    actions: ACTIONS.filter((a) => a.group === group && a.keys && a.keys.length > 0),
  })).filter((g) => g.actions.length > 0);
}

/** The `?` overlay: every key, from the action registry (the palette lists the same actions). */
export function KeysOverlay() {
  const open = useAppStore((s) => s.panels.keys);
  const toggle = useAppStore((s) => s.togglePanel);
  if (!open) return null;
  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-label="Keyboard shortcuts"
      onClick={() => toggle('keys', false)}
    >
      <div className="overlay-box keys-box" onClick={(e) => e.stopPropagation()}>
        <h2>Keys</h2>
        <div className="keys-groups">
          {overlayActions().map(({ group, actions }) => (
            <section key={group} aria-label={group}>
              <h3>{group}</h3>
              <dl className="keys">
                {actions.map((a) => (
                  <div key={a.id} data-action-id={a.id}>
                    <dt>
                      <kbd>{keysLabel(a.keys ?? [])}</kbd>
                    </dt>
                    <dd>{a.title}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
        <p className="keys-hint">
          Every action, also those without a key: <kbd>{keysLabel(['Mod+K'])}</kbd> opens the command palette.
          <br />
          <kbd>F6</kbd> / <kbd>Shift+F6</kbd> move between the regions; in a list, the arrow keys move between its
          controls (it is one Tab stop).
        </p>
        <button type="button" autoFocus onClick={() => toggle('keys', false)}>
          Close (Esc)
        </button>
      </div>
    </div>
  );
}
