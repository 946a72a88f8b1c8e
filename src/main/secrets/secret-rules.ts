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
