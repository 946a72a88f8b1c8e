import type { ApiMethod } from './api';

/**
 * Every request method of the contract, with no dependency at all: the sandboxed
 * preload (which can load only `electron`) and the renderer build their clients
 * from it. The record type makes a missing or extra name fail to compile.
 */
const METHOD_SET: Record<ApiMethod, true> = {
  getHome: true,
  listSessions: true,
  openSession: true,
  getTreeRows: true,
  findRow: true,
  getEntry: true,
  getLeafView: true,
  getChainItems: true,
  getProjectedMessage: true,
  getProjectedMessages: true,
  getPlanTurns: true,
  getWarnings: true,
  getWork: true,
  getLine: true,
  branch: true,
  subscribe: true,
  unsubscribe: true,
  listRecentFiles: true,
  openRecentFile: true,
  // features (api-features.ts)
  getContextSeries: true,
  search: true,
  cancelSearch: true,
  getCost: true,
  getPriceTable: true,
  getEntryFate: true,
  searchProjected: true,
  // secrets (api-secrets.ts)
  getSecrets: true,
  getSecretCounts: true,
  getSecretSurvey: true,
  setSecretSurvey: true,
  redactTexts: true,
  beginExport: true,
  readExport: true,
  endExport: true,
};

export const API_METHOD_NAMES = Object.keys(METHOD_SET) as ApiMethod[];

/** IPC channel names: one per method, plus the event push and the renderer's ready signal. */
export const ipcChannel = (m: ApiMethod): string => `vak:${m}`;
export const IPC_EVENT_CHANNEL = 'vak:event';
export const IPC_READY_CHANNEL = 'vak:renderer-ready';
/** Renderer → main: abort the call made with this call id (`BridgeApi.cancel`). */
export const IPC_CANCEL_CHANNEL = 'vak:cancel';
/** Renderer → main (DesktopFiles): show the Open dialog. */
export const IPC_OPEN_DIALOG_CHANNEL = 'vak:open-dialog';
/** Preload → main (DesktopFiles): open these dropped files (paths the preload took from the File objects). */
export const IPC_OPEN_DROPPED_CHANNEL = 'vak:open-dropped';
/** Renderer → main (DesktopExports): save this export where the user picks; answers an IpcReply. */
export const IPC_SAVE_EXPORT_CHANNEL = 'vak:save-export';
