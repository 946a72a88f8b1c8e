/**
 * Handlers of the secret methods (api-secrets.ts), and the redaction every export gets unless its
 * request says `unredacted`. The scanning itself runs as sessions are read (secrets/).
 */
import type { SecretApiMethods, SecretCount } from '../../shared/api-secrets';
import type { SessionKey } from '../../shared/leaf-request';
import type { CancelSignal } from '../core/cancel';
import type { OpenSession } from '../library/session-cache';
import { Redactor } from '../secrets/redact';
import { secretCounts, sessionRedactor, sessionScanner, sessionSecrets } from '../secrets/session-secrets';
import type { ApiClient } from './api-backend';

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
  await sessionScanner(key)?.whenIdle();
  return sessionRedactor(key);
}

/**
 * `surveyCounts`: what the survey of the home says of the sessions not opened (survey.ts); the
 * open scans' counts come first, so a session opened mid-survey is never counted twice.
 */
export function secretHandlers(
  session: (key: SessionKey, client: ApiClient) => Promise<OpenSession>,
  surveyCounts: () => SecretCount[] = () => [],
): SecretHandlers {
  return {
    getSecrets: async ({ key, entryIds, limit }, client) => {
      await session(key, client); // opening it starts its scan
      return sessionSecrets(key, entryIds, limit);
    },
    getSecretCounts: async () => {
      const open = secretCounts();
      const seen = new Set(open.map((c) => c.key));
      return { sessions: [...open, ...surveyCounts().filter((c) => !seen.has(c.key))] };
    },
    redactTexts: async ({ key, texts }, client) => {
      await session(key, client);
      const r = await exportRedactor(key, false);
      const out = texts.map((t) => r.text(t));
      return { texts: out, redacted: r.count };
    },
  };
}
