/**
 * Exports of the open session and the selected leaf: built by the backend (escaped,
 * self-contained), saved to a file the user picks (save-export.ts). Each says what happened in
 * the store's `exportNotice`, so a key or the palette that started it shows the outcome too.
 */
import type { Api } from '../../shared/api';
import { MAX_SLICE_BYTES } from '../../shared/api';
import type { ExportBeginRequest } from '../../shared/api-features';
import type { ProjectedMessage } from '../../shared/ledger-types';
import { stringifyJson } from '../../shared/json-text';
import { describeError } from '../api/api-methods';
import type { AppState } from '../store/types';
import { copyText } from './clipboard';
import { exportTextForCopy, saveExport } from './save-export';

/** An export or copy needs an open session. */
export const hasSession = (s: AppState): boolean => s.sessionKey !== null;

/** The request for the selected leaf's projection, as the panes show it. */
function projectionRequest<F extends ExportBeginRequest['format']>(
  s: AppState,
  format: F,
): (Omit<ExportBeginRequest, 'format'> & { format: F }) | null {
  if (!s.sessionKey) return null;
  return {
    key: s.sessionKey,
    leaf: s.leafView?.leaf ?? s.leaf,
    plan: s.plan,
    profile: s.profile,
    overrides: s.overrides,
    format,
  };
}

/** Runs an export or copy, reporting its outcome in the store. */
async function reported(s: AppState, what: () => Promise<string>): Promise<void> {
  try {
    s.setExportNotice({ text: await what(), error: false });
  } catch (e) {
    s.setExportNotice({ text: describeError(e), error: true });
  }
}

/** What an export's notice says of its redaction. */
const redactedNote = (n: number | undefined, unredacted: boolean): string =>
  unredacted ? ' Unredacted: it holds every secret found.' : n ? ` ${n} secret${n === 1 ? '' : 's'} redacted.` : '';

/**
 * Sending secrets is an explicit choice: asks before an unredacted export (false: not confirmed).
 * `confirm` is the dialog (tests pass their own).
 */
export function confirmUnredacted(confirm: (q: string) => boolean = (q) => window.confirm(q)): boolean {
  return confirm(
    'Export WITHOUT redaction? The file will hold every secret the scan found (keys, tokens, passwords) as they are.',
  );
}

/**
 * Saves the session as one self-contained HTML page (the selected leaf opens first); redacted unless
 * `unredacted`. Written by the backend and saved in chunks (save-export.ts), never one reply.
 */
export function saveSessionHtml(api: Api, s: AppState, unredacted = false): Promise<void> {
  return reported(s, async () => {
    const req = projectionRequest(s, 'html');
    if (!req) throw new Error('Open a session to export it.');
    return saveExport(api, { ...req, unredacted }, (n) => redactedNote(n, unredacted));
  });
}

/** Saves the selected leaf's projected context as §9 JSON or as Markdown (in chunks, as above). */
export function saveProjection(api: Api, s: AppState, format: 'json' | 'markdown', unredacted = false): Promise<void> {
  return reported(s, async () => {
    const req = projectionRequest(s, format);
    if (!req) throw new Error('Open a session to export its projected context.');
    return saveExport(api, { ...req, unredacted }, (n) => redactedNote(n, unredacted));
  });
}

/**
 * The selected leaf's whole projected context as §9 JSON text (never clipped for transport);
 * TooBigToCopyError past MAX_COPY_CHARS.
 */
export async function projectedContextText(api: Api, s: AppState): Promise<string> {
  const req = projectionRequest(s, 'json');
  if (!req) throw new Error('Open a session first.');
  return exportTextForCopy(api, req);
}

/** Copies the whole projected context (§9 JSON), reporting in the store. */
export function copyProjectedContext(api: Api, s: AppState): Promise<void> {
  return reported(s, async () => {
    await copyText(await projectedContextText(api, s));
    return 'Copied the projected context (JSON).';
  });
}

/** An entry's raw line, whole: read in slices when it is longer than one reply carries. */
export async function rawLineOf(api: Api, key: string, id: string): Promise<string> {
  let out = '';
  let start = 0;
  for (;;) {
    const d = await api.getEntry({ key, id, maxBytes: MAX_SLICE_BYTES, sliceStart: start });
    out += d.raw;
    if (d.sliceEnd >= d.length || d.sliceEnd <= start) return out;
    start = d.sliceEnd;
  }
}

/** A projected message's text: its text blocks, and other blocks as their JSON. */
export function messageText(m: ProjectedMessage): string {
  return m.content
    .map((b) =>
      typeof b === 'object' && b !== null && !Array.isArray(b) && b['type'] === 'text' && typeof b['text'] === 'string'
        ? b['text']
        : stringifyJson(b, 2),
    )
    .join('\n\n');
}
