import type { Api, SessionKey } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';

/**
 * Opens a search hit: its session, with its entry as the selected leaf. In the open session
 * the tree jumps to the row now; another session selects the leaf as it opens (use-session
 * puts the cursor on it and scrolls it into view).
 */
export async function openHit(api: Api, key: SessionKey, entryId: string): Promise<void> {
  const s = useAppStore.getState();
  if (s.sessionKey === key && s.sessionInfo !== null) {
    await jumpToEntry(api, entryId);
    return;
  }
  s.selectSession(key);
  useAppStore.getState().selectLeaf(entryId, null);
}
