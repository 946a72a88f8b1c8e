/**
 * Handlers of the secret methods (api-secrets.ts), and the redaction every export gets unless its
 * request says `unredacted`. The scanning itself runs as sessions are read (secrets/).
 */
import type { SecretApiMethods, SecretCount, SecretCounts, SecretSurveyState } from '../../shared/api-secrets';
import type { SessionKey } from '../../shared/leaf-request';
import type { CancelSignal } from '../core/cancel';
import type { OpenSession } from '../library/session-cache';
import { Redactor } from '../secrets/redact';
import { secretCounts, sessionRedactor, sessionScanner, sessionSecrets } from '../secrets/session-secrets';
import { ApiError, type ApiClient } from './api-backend';

/** The background survey of sessions never opened, as the secret methods see it (survey-setting.ts). */
export interface SurveyControl {
  /** What it says of the sessions not opened (none while off). */
  counts(): SecretCount[];
  state(): SecretSurveyState;
  /** Turns it on or off; resolves once that took effect. */
  set(on: boolean): Promise<SecretSurveyState>;
}

/** A backend without a survey: it is off, and cannot be turned on. */
export const NO_SURVEY: SurveyControl = {
  counts: () => [],
  state: () => ({ on: false, kept: false }),
  set: async (on) => {
    if (on) throw new ApiError('refused', 'this backend has no secret survey');
    return { on: false, kept: false };
  },
};

type SecretMethod = keyof SecretApiMethods;
export type SecretHandlers = {
  [M in SecretMethod]: (
    req: Parameters<SecretApiMethods[M]>[0],
    client: ApiClient,
    signal?: CancelSignal,
  ) => Promise<ReturnType<SecretApiMethods[M]>>;
};

/**
 * The redactor for an export of `key`: every line read so far scanned first (an export made while
 * the scan runs must not miss what it is about to find); one that replaces nothing when unredacted.
 */
export async function exportRedactor(key: SessionKey, unredacted: boolean | undefined): Promise<Redactor> {
  if (unredacted === true) return new Redactor([]);
  const scanner = sessionScanner(key);
  // An export waits for the scan: a scan still deferred for a first screen goes on now.
  scanner?.endDeferral();
  await scanner?.whenIdle();
  return sessionRedactor(key);
}

/** Every session's count: the open scans' first, then the survey's of the sessions not opened. */
export function allSecretCounts(survey: SurveyControl): SecretCounts {
  const open = secretCounts();
  const seen = new Set(open.map((c) => c.key));
  return { sessions: [...open, ...survey.counts().filter((c) => !seen.has(c.key))], survey: survey.state() };
}

/**
 * `survey`: the survey of the home, which counts the sessions not opened (survey.ts); the open
 * scans' counts come first, so a session opened mid-survey is never counted twice.
 */
export function secretHandlers(
  session: (key: SessionKey, client: ApiClient) => Promise<OpenSession>,
  survey: () => SurveyControl = () => NO_SURVEY,
): SecretHandlers {
  return {
    getSecrets: async ({ key, entryIds, limit }, client) => {
      await session(key, client); // opening it starts its scan
      return sessionSecrets(key, entryIds, limit);
    },
    getSecretCounts: async () => allSecretCounts(survey()),
    getSecretSurvey: async () => survey().state(),
    setSecretSurvey: async ({ on }) => survey().set(on),
    redactTexts: async ({ key, texts }, client) => {
      await session(key, client);
      const r = await exportRedactor(key, false);
      const out = texts.map((t) => r.text(t));
      return { texts: out, redacted: r.count };
    },
  };
}
