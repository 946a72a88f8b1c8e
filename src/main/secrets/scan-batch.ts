/**
 * The scan of a batch of lines: gate, parse, the preset. Runs on the scan thread
 * (secret-scan-worker.ts), or in the reading thread when that thread cannot start
 * (scan-thread.ts). Pure: a batch in, findings out.
 */
import type { SecretFinding } from '../../shared/api-secrets';
import { entryTexts } from './entry-texts';
import { mayHoldSecret, mayHoldSecretBytes } from './secret-gate';
import { lintText, type RuleMatch } from './secret-rules';

/** A finding with its secret's text (never sent to a client, never logged). */
export interface HeldFinding extends SecretFinding {
  secret: string;
}

/** A finding as a scan of a batch makes it: its entry by position in the index (LineBatch.entries). */
export type BatchFinding = Omit<HeldFinding, 'entryId'> & { entry: number };

/**
 * Lines copied back to back into one buffer, as a LineSink saw them; plain data, so it crosses
 * to the scan thread with the buffer transferred, not copied.
 */
export interface LineBatch {
  buf: ArrayBuffer;
  /** Line k's bytes end at `ends[k]` (they start where line k−1's end, or at 0). */
  ends: number[];
  lineNos: number[];
  /**
   * Line k's entry, by its position in the reading's index (numbers, not the ids: a backlog of
   * lines waiting for the scan then holds no string per line; the reading thread names them).
   */
  entries: number[];
  /**
   * Where the lines lie in a session file (a reading of a file on disk): the scan thread may then
   * let a batch's bytes go and have them read back from there when they are linted (LineFile).
   */
  file?: LineFile;
  /** Line k's offset in `file`. */
  offsets?: number[];
  /**
   * The lines' bytes are not in `buf` (empty; `ends` still add up their lengths): they are read
   * from `file` at `offsets` before the gate (read-back.ts, `readLinesInFile`). A scan deferred
   * during a first open hands its lines over so.
   */
  inFile?: boolean;
}

/** A session file, named as it was opened: the file is append-only, so a line's offset stays. */
export interface LineFile {
  path: string;
  dev: number;
  ino: number;
}

export interface BatchResult {
  findings: BatchFinding[];
  /** Lines scanned, and texts handed to the rules (the gate let them through). */
  lines: number;
  texts: number;
  /**
   * Lines read back from the file for the scan (their bytes were let go) that were no longer
   * what was read: not scanned (counted in `lines`), so no finding can name the wrong text.
   */
  changed?: number;
  /** Lines read back from the file for the scan, `changed` among them. */
  readBack?: number;
}

/** Texts handed to the rules at once: one call per group keeps the rules' fixed cost small. */
const GROUP_CHARS = 32 << 10;
/** Between two texts of a group: no rule of the preset matches across a blank line and a NUL. */
const SEPARATOR = '\n\u0000\n';

interface GatedText {
  path: string;
  text: string;
  line: number;
  entry: number;
  bytes: Buffer;
}

/**
 * Scans lines `from` … of `batch`; with `until`, stops after the first group of texts for which
 * it says so and returns where it stopped (`next`), so a caller on a busy thread can scan in steps.
 */
export async function scanBatch(
  batch: LineBatch,
  from = 0,
  until: () => boolean = () => false,
): Promise<BatchResult & { next: number }> {
  const all = Buffer.from(batch.buf);
  const out: BatchResult = { findings: [], lines: 0, texts: 0 };
  let k = from;
  const n = batch.ends.length;
  while (k < n) {
    const texts: GatedText[] = [];
    let chars = 0;
    for (; k < n && chars < GROUP_CHARS; k++) {
      const bytes = all.subarray(k === 0 ? 0 : batch.ends[k - 1], batch.ends[k]);
      out.lines++;
      // Most lines hold nothing a rule could match: they are not even parsed.
      if (!mayHoldSecretBytes(bytes)) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(bytes.toString('utf8'));
      } catch {
        continue; // the reader accepted it, so it parses; a line changed since is read again anyway
      }
      for (const t of entryTexts(entry as never)) {
        if (!mayHoldSecret(t.text)) continue;
        out.texts++;
        texts.push({ ...t, line: batch.lineNos[k], entry: batch.entries[k], bytes });
        chars += t.text.length + SEPARATOR.length;
      }
    }
    try {
      for (const f of await scanTexts(texts)) out.findings.push(f);
    } catch {
      // A rule that throws on some text must not stop the session's scan: its group is skipped.
    }
    if (until()) break;
  }
  return { ...out, next: k };
}

/** Runs the rules once over the texts joined, and maps each match back to its text. */
async function scanTexts(texts: GatedText[]): Promise<BatchFinding[]> {
  if (texts.length === 0) return [];
  const starts: number[] = [];
  let joined = '';
  for (const t of texts) {
    if (joined.length > 0) joined += SEPARATOR;
    starts.push(joined.length);
    joined += t.text;
  }
  const matches = await lintText(joined);
  const out: BatchFinding[] = [];
  for (const m of matches) {
    const k = lastAtOrBefore(starts, m.start);
    const t = texts[k];
    const start = m.start - starts[k];
    const end = Math.min(m.end - starts[k], t.text.length);
    if (end <= start) continue;
    out.push(finding(t, start, end, m));
  }
  return out;
}

function finding(t: GatedText, start: number, end: number, m: RuleMatch): BatchFinding {
  const secret = t.text.slice(start, end);
  return {
    entry: t.entry,
    line: t.line,
    field: t.path,
    rule: m.rule,
    kind: m.kind,
    start,
    end,
    lineBytes: lineByteRange(t.bytes, t.text, start, end),
    secret,
  };
}

/**
 * Where `text.slice(start, end)` lies in the line's bytes, when the line writes the text as
 * JSON.stringify does (the usual case); null when it escapes it otherwise.
 */
function lineByteRange(line: Buffer, text: string, start: number, end: number): [number, number] | null {
  const token = Buffer.from(JSON.stringify(text));
  const at = line.indexOf(token);
  if (at < 0) return null;
  const before = Buffer.byteLength(JSON.stringify(text.slice(0, start))) - 1; // opening quote included
  const inside = Buffer.byteLength(JSON.stringify(text.slice(start, end))) - 2;
  return [at + before, at + before + inside];
}

function lastAtOrBefore(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
