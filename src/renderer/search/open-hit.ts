import type { Api, SessionKey } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';

/**
 * Opens a search hit: its session, with its entry as the selected leaf, the cursor on its
 * row and the row in view. In the open session the tree jumps to the row now. Another
 * session is opened; a big one is read in steps, and the hit's entry has no row until the
 * step that reads it: the jump waits for it (`jumpWhenKnown`).
 */
export async function openHit(api: Api, key: SessionKey, entryId: string): Promise<void> {
  const s = useAppStore.getState();
  if (s.sessionKey === key && s.sessionInfo !== null) {
    await jumpToEntry(api, entryId);
    return;
  }
  s.selectSession(key);
  useAppStore.getState().selectLeaf(entryId, null);
  await jumpWhenKnown(api, key, entryId);
}

/**
 * Jumps to `entryId` once the backend has a row for it: asked again each time the session's
 * figures change (opened, a step read, an append), one question at a time. Gives up when the
 * user selects something else, or when the whole file is read and the entry is not in it.
 */
function jumpWhenKnown(api: Api, key: SessionKey, entryId: string): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    let asking = false;
    let again = false;
    const wanted = (): boolean => {
      const st = useAppStore.getState();
      return st.sessionKey === key && st.leaf === entryId;
    };
    const finish = (): void => {
      if (done) return;
      done = true;
      unsubscribe();
      resolve();
    };
    const ask = async (): Promise<void> => {
      if (done) return;
      if (!wanted()) return finish();
      const st = useAppStore.getState();
      if (st.sessionInfo === null) return; // not open yet: its opening is a change
      if (asking) {
        again = true;
        return;
      }
      asking = true;
      const readToEnd = st.progress === null;
      const found = await api
        .findRow({ key, id: entryId, foldAudit: st.foldAudit })
        .then(() => true)
        .catch(() => false);
      asking = false;
      if (done) return;
      if (!wanted()) return finish();
      if (found) {
        finish();
        await jumpToEntry(api, entryId);
      } else if (readToEnd && !again) finish();
      else if (again) {
        again = false;
        void ask();
      }
    };
    const unsubscribe = useAppStore.subscribe((now, before) => {
      if (now.sessionInfo !== before.sessionInfo || now.progress !== before.progress || now.leaf !== before.leaf)
        void ask();
    });
    void ask();
  });
}
