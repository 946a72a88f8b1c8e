import { draftKey } from '../util/draft-key';
import type { StateCreator } from 'zustand';
import type { SessionKey } from '../../shared/api';
import { keyedCopy } from '../../shared/own-key';
import { leafResetForSession } from './leaf-slice';
import type { AppState, SessionSlice } from './types';

export const sessionInitial = () => ({
  sessionKey: null,
  sessionInfo: null,
  sessionError: null,
  progress: null,
  selectedRow: null,
  foldAudit: false,
  treeVersion: 0,
  appendVersion: 0,
  scrollToRow: null,
  follow: false,
  composerFor: null,
  drafts: {},
  pendingSelect: null,
});

/** The per-session part that a new session starts without. */
export const sessionReset = () => ({
  sessionInfo: null,
  sessionError: null,
  progress: null,
  selectedRow: null,
  scrollToRow: null,
  composerFor: null,
  pendingSelect: null,
});

/**
 * What starts a session's open when one is chosen (set by the live layer, live/use-session.ts):
 * called before the selection is stored, so an input's request leaves in the input's own task,
 * not after the render the selection causes.
 */
let sessionStarter: ((key: SessionKey) => void) | null = null;

/** Sets what starts a chosen session's open; returns what unsets it. */
export function setSessionStarter(start: (key: SessionKey) => void): () => void {
  sessionStarter = start;
  return () => {
    if (sessionStarter === start) sessionStarter = null;
  };
}

/** The open session, its tree cursor and the branch composer. */
export const createSessionSlice: StateCreator<AppState, [], [], SessionSlice> = (set, get) => ({
  ...sessionInitial(),
  selectSession: (key) => {
    if (key && get().sessionKey !== key) sessionStarter?.(key);
    set((s) =>
      s.sessionKey === key
        ? {}
        : {
            sessionKey: key,
            ...sessionReset(),
            ...leafResetForSession(),
            compare: { ...s.compare, leafB: null, overridesB: {} },
          },
    );
  },
  openSessionAt: (key, entryId) => {
    get().selectSession(key);
    get().selectLeaf(entryId);
  },
  // A session still read in steps shows how far it has come (SessionInfo.reading).
  sessionOpened: (info) => set({ sessionInfo: info, sessionError: null, progress: info.reading }),
  sessionChanged: (info) => set((s) => ({ sessionInfo: info, sessionError: null, treeVersion: s.treeVersion + 1 })),
  sessionAppended: (patch) =>
    set((s) =>
      s.sessionInfo ? { sessionInfo: { ...s.sessionInfo, ...patch }, appendVersion: s.appendVersion + 1 } : {},
    ),
  hashesChecked: () => set((s) => (s.sessionInfo ? { sessionInfo: { ...s.sessionInfo, checkingHashes: false } } : {})),
  sessionFailed: (message) => set({ sessionError: message, progress: null }),
  // Kept at 100 % too: the entries read are counted until the read's end is told (the session's
  // figures come with it), which clears it.
  setProgress: (p) => set({ progress: p }),
  placeCursor: (row, reveal = false) => set(reveal ? { selectedRow: row, scrollToRow: row } : { selectedRow: row }),
  revealRow: (row) => set({ scrollToRow: row }),
  rowRevealed: () => set({ scrollToRow: null }),
  toggleFoldAudit: (on) => set((s) => ({ foldAudit: on ?? !s.foldAudit, selectedRow: null })),
  toggleFollow: () => set((s) => ({ follow: !s.follow })),
  openComposer: (parentId) => set({ composerFor: parentId }),
  closeComposer: () => set({ composerFor: null }),
  setDraft: (parentId, text) =>
    set((s) => {
      const k = draftKey(s.sessionKey, parentId);
      const drafts = keyedCopy(s.drafts); // parent ids are ledger data
      if (text) drafts[k] = text;
      else delete drafts[k];
      return { drafts };
    }),
  branched: (parentId, newId) => {
    get().setDraft(parentId, '');
    get().selectLeaf(newId);
    set({ composerFor: null, pendingSelect: newId });
  },
  takePendingSelect: (newIds) => {
    const p = get().pendingSelect;
    if (!p || !newIds.includes(p)) return null;
    set({ pendingSelect: null });
    return p;
  },
});
