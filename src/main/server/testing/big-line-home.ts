/** A home with one session whose last entry is one very long line (for paging and slow-client tests). */
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../../../test-support/fixtures';

export const BIG_LINE_KEY = 'agents/vak/sessions/0000000000000000/01a22688-5a80-7d3d-a60d-53f7388101d1.jsonl';
export const BIG_ENTRY_ID = 'e-big';

/** Writes `home` with linear.jsonl plus an entry whose text is `textBytes` ASCII bytes; returns the session path. */
export function writeBigLineHome(home: string, textBytes: number): string {
  const path = join(home, BIG_LINE_KEY);
  mkdirSync(join(path, '..'), { recursive: true });
  copyFileSync(join(FIXTURES, 'linear.jsonl'), path);
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const last = lines[lines.length - 1];
  const lastId = (JSON.parse(last) as { id: string }).id;
  const entry = {
    id: BIG_ENTRY_ID,
    parent_id: lastId,
    ts: '2026-11-29T09:07:00.000Z',
    prev_hash: createHash('sha256').update(last).digest('hex'),
    kind: 'message',
    message: { role: 'user', content: [{ type: 'text', text: 'x'.repeat(textBytes) }] },
  };
  appendFileSync(path, JSON.stringify(entry) + '\n');
  return path;
}
