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

/**
 * Where a session's count comes from:
 * - `open`: scanned as it was read (opened since the backend started); `scanning` while lines wait;
 * - `surveyed`: never opened, counted by the background survey of the home (as the file was then);
 * - `surveying`: the survey is reading it now (`count` so far);
 * - `pending`: not surveyed yet (the survey reaches it in turn);
 * - `not-scanned`: the survey could not read it as a ledger (a FIFO, a link loop, not a ledger).
 * With the survey off (the user's setting, or `serve --no-secret-survey`), sessions never opened
 * are not listed: `SecretCounts.survey` says why (a row shows "not counted", never a 0).
 */
export type SecretCountState = 'open' | 'surveyed' | 'surveying' | 'pending' | 'not-scanned';

export interface SecretCount {
  key: SessionKey;
  count: number;
  /** The count may grow: lines of an open session wait to be scanned, or the survey is reading it. */
  scanning: boolean;
  state: SecretCountState;
}

/**
 * The background survey of sessions never opened, as the user set it: `on` (it counts them) or
 * off (it reads nothing; their counts are not reported). `kept`: the choice is kept across
 * launches (the desktop app's settings) rather than for this server only (serve mode).
 */
export interface SecretSurveyState {
  on: boolean;
  kept: boolean;
}

export interface SecretCounts {
  sessions: SecretCount[];
  /** The survey's state: off, sessions never opened are left out of `sessions`. */
  survey: SecretSurveyState;
}

/** The marker that stands for a redacted secret. */
export const redactionMarker = (kind: string): string => `[redacted: ${kind}]`;

export interface SecretApiMethods {
  getSecrets(req: { key: SessionKey; entryIds?: string[]; limit?: number }): SessionSecrets;
  /** Every session's count and where it comes from (the open scan, or the survey of unopened ones). */
  getSecretCounts(req: Record<string, never>): SecretCounts;
  /** The survey of sessions never opened: on or off. */
  getSecretSurvey(req: Record<string, never>): SecretSurveyState;
  /**
   * Turns the survey on or off for the serving backend (every library subscriber hears a
   * `secretSurvey` event); off, the step in progress ends first. Idempotent.
   */
  setSecretSurvey(req: { on: boolean }): SecretSurveyState;
  /** The texts with every secret found in the session replaced by its marker. */
  redactTexts(req: { key: SessionKey; texts: string[] }): { texts: string[]; redacted: number };
}
