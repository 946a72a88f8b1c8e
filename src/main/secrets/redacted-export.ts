/**
 * Redaction plugged into the projection export: its source's messages and header redacted as
 * they are shaped (one at a time, so a streamed writer takes the same source), and the file's
 * header saying how many secrets were replaced.
 */
import type { Json, ProjectedMessage, Projection } from '../../shared/ledger-types';
import { redactionNote, type Redactor } from './redact';

/** What projectionExportPieces reads (projection-export.ts `ExportSource`). */
export interface ProjectionSource {
  summary: Projection;
  messageCount: number;
  messages(start: number, end: number): ProjectedMessage[];
}

export function redactedProjectionSource(source: ProjectionSource, r: Redactor): ProjectionSource {
  if (r.empty) return source;
  const s = source.summary;
  return {
    summary: { ...s, system: r.text(s.system), tools: r.json(s.tools as Json[]) },
    messageCount: source.messageCount,
    messages: (start, end) => source.messages(start, end).map((m) => ({ ...m, content: r.json(m.content as Json[]) })),
  };
}

/**
 * The export with its header telling the redaction (none when nothing was replaced): a
 * `"redaction"` member first in the JSON, a quoted line under the Markdown title. Its text up to
 * the first line break is held until it is complete, given the header, and the rest passes
 * through as it comes.
 */
export function* withRedactionHeaderPieces(
  pieces: Iterator<string>,
  mimeType: string,
  count: number,
): Generator<string> {
  let head = '';
  let done = count === 0;
  for (let r = pieces.next(); !r.done; r = pieces.next()) {
    if (done) {
      yield r.value;
      continue;
    }
    head += r.value;
    // JSON is headed after its "{\n", Markdown after its title line: both need the first line break.
    if (head.indexOf('\n') < 0) continue;
    done = true;
    yield headed(head, mimeType, count);
  }
  if (!done) yield headed(head, mimeType, count);
}

function headed(text: string, mimeType: string, count: number): string {
  const note = redactionNote(count);
  if (mimeType === 'application/json' && text.startsWith('{\n')) {
    return `{\n  "redaction": ${JSON.stringify({ redacted: count, note })},\n${text.slice(2)}`;
  }
  const nl = text.indexOf('\n');
  return nl < 0 ? `${text}\n\n> ${note}\n` : `${text.slice(0, nl + 1)}\n> ${note}\n${text.slice(nl + 1)}`;
}
