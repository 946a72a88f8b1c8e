import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../test-support/temp-dir';
import { cliInProcess } from './cli-run';
import { ledgerBytes, userMsg } from './ledger-lines';

const tempDir = useTempDir('vak-edge-');

function ledgerFile(entries: Parameters<typeof ledgerBytes>[0]): string {
  const file = join(tempDir(), 'edge.jsonl');
  writeFileSync(file, ledgerBytes(entries));
  return file;
}

describe('CLI: meta.control on assistant and tool messages (LEDGER.md §8)', () => {
  it('project keeps them in a closed turn at Full', async () => {
    const file = ledgerFile([
      { id: 'h', parent_id: null, kind: 'header', system_prompt: 's', tools: [] },
      { id: 'd1', parent_id: 'h', kind: 'message', message: userMsg('go') },
      {
        id: 'a1',
        parent_id: 'd1',
        kind: 'message',
        message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        meta: { control: 'redo' },
      },
      { id: 'd2', parent_id: 'a1', kind: 'message', message: userMsg('next') },
    ]);
    const r = await cliInProcess(['project', file, '--plan', 'none', '--json']);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.out) as { messages: { fidelity: string; source_ids: string[] }[] };
    expect(p.messages.map((m) => [m.fidelity, m.source_ids[0]])).toEqual([
      ['full', 'd1'],
      ['full', 'a1'],
      ['open', 'd2'],
      ['tail', 'd2'],
    ]);
  });
});
