import { keysLabel } from '../keyboard/key-map';
import { useAppStore } from '../store/app-store';
import './search.css';

/** Opens search from the library's head (the same as Ctrl/⌘+Shift+F). */
export function SearchButton() {
  const openSearch = useAppStore((s) => s.openSearch);
  const keys = keysLabel(['Mod+Shift+F']);
  return (
    <button
      type="button"
      className="library-search"
      title={`Search every session (${keys})`}
      aria-label={`Search every session (${keys})`}
      onClick={() => openSearch('home')}
    >
      search
    </button>
  );
}
