import { LibrarySidebar } from './library/library-sidebar';
import { useAppStore } from './store/app-store';
import { lazyPart } from './util/lazy-parts';

/** The search column's own chunk (util/lazy-parts.tsx): a first screen shows the library. */
const SearchPanel = lazyPart(
  () => import('./search/search-panel'),
  (m: typeof import('./search/search-panel')) => m.SearchPanel,
);

/** The left column: search takes the library's place while it is open (Esc gives it back). */
export function LibraryOrSearch() {
  const searching = useAppStore((s) => s.searchOpen);
  return searching ? <SearchPanel /> : <LibrarySidebar />;
}
