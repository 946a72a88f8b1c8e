import { useAppStore } from '../store/app-store';
import { KEY_MAP } from './key-map';

/** The `?` overlay: all keys. */
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
      <div className="overlay-box" onClick={(e) => e.stopPropagation()}>
        <h2>Keys</h2>
        <dl className="keys">
          {KEY_MAP.map(([k, w]) => (
            <div key={k}>
              <dt>
                <kbd>{k}</kbd>
              </dt>
              <dd>{w}</dd>
            </div>
          ))}
        </dl>
        <button type="button" autoFocus onClick={() => toggle('keys', false)}>
          Close (Esc)
        </button>
      </div>
    </div>
  );
}
