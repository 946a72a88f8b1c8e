/**
 * The rule set: secretlint's recommended preset, as its own maintainers keep it (cloud keys,
 * tokens of the common services, private keys, credentials in URLs and connection strings).
 * Nothing here decides what a secret is; this file only runs the preset over a text and names
 * what it found.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';

const CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/** One match of a rule in a text (UTF-16 offsets, end exclusive). */
export interface RuleMatch {
  start: number;
  end: number;
  /** The rule's id without the `@secretlint/secretlint-rule-` prefix (`github`, `aws`, …). */
  rule: string;
  /** What kind of secret, from the rule's message id in kebab case (`github-token`, `aws-access-key-id`). */
  kind: string;
}

/**
 * Whether a text could hold anything the preset matches, cheaply (one pass over its characters):
 * each rule needs a run of at least 16 letters, digits, `_` or `-` that is not only hex digits and
 * dashes (a key with its prefix, or its variable's name; ids and hashes are such hex runs), a
 * `://…:…@` (credentials in URLs and connection strings), a PEM header, npm's `_authToken` or an
 * AWS account id's name. A gate only, so most text is never handed to the rules; the fixture's
 * recall (docs/secrets.md) is measured through it, and a JSON key (a run before `":`) is no token.
 */
export function mayHoldSecret(text: string): boolean {
  let run = 0;
  let nonHex = false;
  const n = text.length;
  for (let k = 0; k < n; k++) {
    const c = text.charCodeAt(k);
    if ((c >= 48 && c <= 57) || c === 45 || ((c | 32) >= 97 && (c | 32) <= 102)) run++;
    else if (((c | 32) >= 103 && (c | 32) <= 122) || c === 95) {
      run++;
      nonHex = true;
    } else {
      if (run >= 16 && nonHex && !(c === 34 && text.charCodeAt(k + 1) === 58)) return true;
      if (c === 58 && text.charCodeAt(k + 1) === 47 && text.charCodeAt(k + 2) === 47 && credentialsAfter(text, k + 3))
        return true;
      run = 0;
      nonHex = false;
    }
  }
  if (run >= 16 && nonHex) return true;
  return text.includes('PRIVATE KEY') || text.includes('_authToken') || /ccount|CCOUNT/.test(text);
}

/** `user:password@` right after a `://` at `k` (before any space, slash or quote). */
function credentialsAfter(text: string, k: number): boolean {
  let colon = false;
  for (let j = k; j < text.length && j < k + 512; j++) {
    const c = text.charCodeAt(j);
    if (c === 58) colon = true;
    else if (c === 64) return colon;
    else if (c <= 32 || c === 47 || c === 34 || c === 39) return false;
  }
  return false;
}

/** `GITHUB_TOKEN` → `github-token`, `AWSAccessKeyID` → `aws-access-key-id`, `BasicAuth` → `basic-auth`. */
export function kindOf(messageId: string): string {
  return (
    messageId
      // Product names written in mixed case stay one word (`PostgreSQLConnection` → `postgresql-connection`).
      .replace(/PostgreSQL|MySQL|MongoDB|OpenAI|GitHub|GitLab/g, (w) => w[0] + w.slice(1).toLowerCase())
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
      .replace(/[_\s]+/g, '-')
      .toLowerCase()
  );
}

const PREFIX = '@secretlint/secretlint-rule-';

/** The preset's matches in `text`, in order. */
export async function lintText(text: string): Promise<RuleMatch[]> {
  const result = await lintSource({
    source: { content: text, filePath: '/session.txt', contentType: 'text' },
    // Masked: the messages (never shown or logged here anyway) carry no secret text.
    options: { config: CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  const out: RuleMatch[] = [];
  for (const m of result.messages) {
    const rule = m.ruleId.startsWith(PREFIX) ? m.ruleId.slice(PREFIX.length) : m.ruleId;
    out.push({ start: m.range[0], end: m.range[1], rule, kind: kindOf(m.messageId) });
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  return out;
}
