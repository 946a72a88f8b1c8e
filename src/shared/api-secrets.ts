/**
 * The API of secret scanning: what was found in a session (kinds and places, never the
 * secret's text), counts for the library, and redaction of text a client is about to copy.
 * Merged into `FeatureApiMethods` (api-features.ts). Plain types only: the renderer imports it.
 */
import type { SessionKey } from './leaf-request';

/** One secret found in an entry's line. */
export interface SecretFinding {
  entryId: string;
  /** The entry's physical line (1-based). */
  line: number;
  /** Where in the entry: a path such as `message.content[2].text`. */
  field: string;
  /** The rule of secretlint's recommended preset that matched (`github`, `aws`, …). */
  rule: string;
  /** What kind of secret (`github-token`, `aws-access-key-id`): what a redaction marker names. */
  kind: string;
  /** UTF-16 offsets in the field's text (end exclusive): what an entry view marks. */
  start: number;
  end: number;
  /** Byte range in the line (end exclusive), when the line writes the text the usual JSON way. */
  lineBytes: [number, number] | null;
}

export interface SessionSecrets {
  key: SessionKey;
  /** Findings in the session (every line scanned so far). */
  count: number;
  /** Lines are still being scanned: the count may grow. */
  scanning: boolean;
  /** The first line scanned (> 1: a reading restored from a kept index scans appended lines only). */
  fromLine: number;
  /** Findings by kind. */
  kinds: Record<string, number>;
  /** The findings of the entries asked for (all of the session's, up to `limit`, when none are named). */
  findings: SecretFinding[];
  /** More findings than were listed. */
  clipped: boolean;
}

export interface SecretCount {
  key: SessionKey;
  count: number;
  scanning: boolean;
}

/** The marker that stands for a redacted secret. */
export const redactionMarker = (kind: string): string => `[redacted: ${kind}]`;

export interface SecretApiMethods {
  getSecrets(req: { key: SessionKey; entryIds?: string[]; limit?: number }): SessionSecrets;
  /** Counts of the sessions scanned so far (opened since the backend started). */
  getSecretCounts(req: Record<string, never>): { sessions: SecretCount[] };
  /** The texts with every secret found in the session replaced by its marker. */
  redactTexts(req: { key: SessionKey; texts: string[] }): { texts: string[]; redacted: number };
}
