import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cwdHash } from '../src/main/core/fnv1a64';
import { scanHome } from '../src/main/core/home';
import { Ledger } from '../src/main/core/ledger';
import { SessionLibrary } from '../src/main/library/session-library';
import { makeDemoHome } from './make-demo-home';

const BUNDLED = join(__dirname, '../resources/demo-home');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-demo-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('make-demo-home', () => {
  it('builds a realistic §1 home with one damaged file, identical to the bundled one', async () => {
    const files = makeDemoHome(dir);
    const sessions = scanHome(dir);
    expect(sessions).toHaveLength(files.length);
    expect(new Set(sessions.map((s) => s.agent)).size).toBeGreaterThanOrEqual(3);
    const total = sessions.reduce((n, s) => n + statSync(s.path).size, 0);
    expect(total).toBeLessThan(2 * 1024 * 1024);

    const lib = new SessionLibrary(dir);
    const list = await lib.list();
    const cwds = new Set(list.map((s) => s.cwd));
    expect(cwds.size).toBeGreaterThanOrEqual(3);
    expect([...cwds].some((c) => c !== null && Buffer.byteLength(c) !== c.length)).toBe(true); // non-ASCII
    for (const s of list) {
      expect(s.cwdHash).toBe(cwdHash(s.cwd!));
      expect(s.title).not.toBeNull();
    }
    // parent_session ↔ child_run, across agents.
    const child = list.find((s) => s.parentSession !== null)!;
    expect(child.parentSession!.key).not.toBeNull();

    let damaged = 0;
    const kinds = new Set<string>();
    let branches = 0;
    for (const s of sessions) {
      const l = Ledger.openSync(s.path);
      if (l.warnings().length > 0) damaged++;
      for (let i = 0; i < l.index.count; i++) kinds.add(l.index.kindName(i));
      branches += l.index.branchPoints().length;
      const text = readFileSync(s.path, 'utf8');
      if (s.key === child.parentSession!.key) {
        expect(text).toContain(`"child_session_id":"${child.sessionId}"`);
        expect(l.indexOf(child.parentSession!.entryId)).toBeDefined();
      }
      l.close();
    }
    expect(damaged).toBe(1);
    expect(branches).toBeGreaterThan(0);
    for (const k of ['compaction', 'turn_card', 'intent', 'presentation', 'receipt', 'activity', 'work', 'child_run']) {
      expect(kinds).toContain(k);
    }
    const all = sessions.map((s) => readFileSync(s.path, 'utf8')).join('');
    expect(all).toContain('"reset_all":true');
    expect(all).toContain('"packet":{');

    // The committed demo home is this script's output, byte for byte.
    const bundled = scanHome(BUNDLED);
    expect(bundled.map((s) => s.key)).toEqual(sessions.map((s) => s.key));
    for (const s of sessions) {
      const b = join(BUNDLED, relative(dir, s.path));
      expect(readFileSync(b).equals(readFileSync(s.path))).toBe(true);
    }
  });
});
