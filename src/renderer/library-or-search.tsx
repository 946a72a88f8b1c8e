import { LibrarySidebar } from './library/library-sidebar';
import { useAppStore } from './store/app-store';
import { SearchPanel } from './search/search-panel';

/** The left column: search takes the library's place while it is open (Esc gives it back). */
export function LibraryOrSearch() {
  const searching = useAppStore((s) => s.searchOpen);
  return searching ? <SearchPanel /> : <LibrarySidebar />;
}
