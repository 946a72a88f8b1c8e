/**
 * A leaf's projected context as a file: the §9 `project --json` shape (indented), or Markdown a
 * person can read (each message a section, content in fences that no ledger text can close).
 * Written in pieces (projection-text.ts): a caller sends each piece on and never holds the file.
 */
import { clipJson } from '../../shared/json-text';
import type { Json, ProjectedMessage, Projection } from '../../shared/ledger-types';
import {
  mapSource,
  projectionJsonIndented,
  projectionMarkdown,
  sourceOfProjection,
  type ExportSource,
} from './projection-text';

export type { ExportSource };

/**
 * Strings longer than this are clipped in an export, with a note of how much is left out: a
 * tool result of hundreds of MB in the open turn would otherwise be copied whole several times
 * over (fences, the joined text, the answer) and the export's size would follow it.
 */
export const MAX_EXPORT_STRING_CHARS = 1 << 20;
const CLIP_LIMITS = { maxChars: MAX_EXPORT_STRING_CHARS, maxDepth: Infinity };

/** A message with every string over MAX_EXPORT_STRING_CHARS clipped (the same object when none is). */
function clipMessage(m: ProjectedMessage): ProjectedMessage {
  const r = clipJson(m.content, CLIP_LIMITS);
  return r.clipped ? { ...m, content: r.value as Json[] } : m;
}

/** The system prompt and tools with every string over MAX_EXPORT_STRING_CHARS clipped. */
function clipHeader(p: Projection): Projection {
  const tools = clipJson(p.tools, CLIP_LIMITS);
  const system = clipJson(p.system, CLIP_LIMITS);
  if (!tools.clipped && !system.clipped) return p;
  return { ...p, system: system.value as string, tools: tools.value as Json[] };
}

/** An export being written: what to call the file, and its text in pieces. */
export interface ExportPieces {
  fileName: string;
  mimeType: 'application/json' | 'text/markdown' | 'text/html';
  pieces: Iterator<string>;
}

/**
 * The export file for a projection, as JSON (§9, indented) or Markdown, in pieces. Its size
 * follows the projection's: long strings clipped (MAX_EXPORT_STRING_CHARS), values nested deep
 * written compactly past MAX_INDENT_LEVELS (stringifyJson). Messages are clipped as they come:
 * a long string is never kept whole beside the next ones.
 */
export function projectionExportPieces(
  source: ExportSource,
  format: 'json' | 'markdown',
  sessionId: string,
): ExportPieces {
  const clipped = mapSource(source, clipMessage, clipHeader);
  const stem = `${sessionId}-${source.summary.leaf}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  if (format === 'json') {
    return {
      fileName: `${stem}.projection.json`,
      mimeType: 'application/json',
      pieces: withEnd(projectionJsonIndented(clipped), '\n'),
    };
  }
  return {
    fileName: `${stem}.projection.md`,
    mimeType: 'text/markdown',
    pieces: projectionMarkdown(clipped, sessionId),
  };
}

function* withEnd(pieces: Iterable<string>, end: string): Generator<string> {
  yield* pieces;
  yield end;
}

/**
 * The whole export of a projection as one text: the reference a test compares the streamed
 * export to (made from the whole projection, where the app and the CLI stream from a leaf's plan).
 */
export function projectionExport(
  p: Projection,
  format: 'json' | 'markdown',
  sessionId: string,
): Omit<ExportPieces, 'pieces'> & { text: string } {
  const e = projectionExportPieces(sourceOfProjection(p), format, sessionId);
  const parts: string[] = [];
  for (let r = e.pieces.next(); !r.done; r = e.pieces.next()) parts.push(r.value);
  return { fileName: e.fileName, mimeType: e.mimeType, text: parts.join('') };
}
