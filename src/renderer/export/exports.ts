/**
 * Exports of the open session and the selected leaf: built by the backend
 * (escaped, self-contained), saved here through a download. Each says what happened in the
 * store's `exportNotice`, so a key or the palette that started it shows the outcome too.
 */
import type { Api } from '../../shared/api';
import { MAX_SLICE_BYTES } from '../../shared/api';
import type { ProjectionExportRequest } from '../../shared/api-features';
import type { ProjectedMessage } from '../../shared/ledger-types';
import { stringifyJson } from '../../shared/json-text';
import { describeError } from '../api/api-methods';
import type { AppState } from '../store/types';
import { copyText } from './clipboard';
import { downloadText } from './download';

/** An export or copy needs an open session. */
export const hasSession = (s: AppState): boolean => s.sessionKey !== null;

/** The request for the selected leaf's projection, as the panes show it. */
function projectionRequest(s: AppState, format: 'json' | 'markdown'): ProjectionExportRequest | null {
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

/** Downloads the session as one self-contained HTML page (the selected leaf opens first); redacted unless `unredacted`. */
export function exportSessionHtml(api: Api, s: AppState, unredacted = false): Promise<void> {
  return reported(s, async () => {
    if (!s.sessionKey) throw new Error('Open a session to export it.');
    const r = await api.exportSessionHtml({ key: s.sessionKey, leaf: s.leafView?.leaf ?? s.leaf, unredacted });
    downloadText(r.fileName, r.html, 'text/html');
    return (
      `Saved ${r.fileName} (${r.included.entryCount} entries${r.included.treeClipped ? ', tree clipped' : ''}).` +
      redactedNote(r.redacted, unredacted)
    );
  });
}

/** Downloads the selected leaf's projected context as §9 JSON or as Markdown; redacted unless `unredacted`. */
export function exportProjection(
  api: Api,
  s: AppState,
  format: 'json' | 'markdown',
  unredacted = false,
): Promise<void> {
  return reported(s, async () => {
    const req = projectionRequest(s, format);
    if (!req) throw new Error('Open a session to export its projected context.');
    const r = await api.exportProjection({ ...req, unredacted });
    downloadText(r.fileName, r.text, r.mimeType);
    return `Saved ${r.fileName}.${redactedNote(r.redacted, unredacted)}`;
  });
}

/** The selected leaf's whole projected context as §9 JSON text (never clipped for transport). */
export async function projectedContextText(api: Api, s: AppState): Promise<string> {
  const req = projectionRequest(s, 'json');
  if (!req) throw new Error('Open a session first.');
  return (await api.exportProjection(req)).text;
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
