import { describe, expect, it } from 'vitest';
import { lintText } from './secret-rules';

describe('the preset as the explorer runs it', () => {
  // The gate (secret-gate.ts) lets no line through for an account id's name: this holds it to that.
  it('reports no AWS account id (its id scan rule is off)', async () => {
    const texts = [
      'aws_account_id = "123456789012"',
      'AWS_ACCOUNT_ID: 1234-5678-9012',
      "export AwsAccountId='123456789012'",
      'account_id = 123456789012',
    ];
    for (const t of texts) expect(await lintText(t)).toEqual([]);
  });
});
