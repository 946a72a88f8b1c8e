import { focusTree } from './regions';

/** The page's first tab stop, shown when focused: straight to the session tree (F6 then walks the regions). */
export function SkipLink() {
  return (
    <button type="button" className="skip-link" onClick={() => focusTree()}>
      Skip to the session tree (F6 moves between regions)
    </button>
  );
}
