import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cwdHash } from '../src/main/core/fnv1a64';
import { scanHome } from '../src/main/core/home';
import { Ledger } from '../src/main/core/ledger';
import { SessionLibrary } from '../src/main/library/session-library';
import { contextSeries } from '../src/main/api/context-series';
import { DEFAULT_PROFILE } from '../src/shared/ledger-types';
import { MIN_APPLY_R2 } from '../src/renderer/context-chart/fit-verdict';
import { DEMO_BYTES_PER_TOKEN } from './demo-usage';
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

  it("has the usage a provider reports for its content: the chart's fit is good, the dots follow the bars", () => {
    let fitted = 0;
    for (const s of scanHome(BUNDLED)) {
      const l = Ledger.openSync(s.path);
      const series = contextSeries(l, l.index.count - 1, {
        key: s.key,
        leaf: null,
        plan: 'auto',
        profile: DEFAULT_PROFILE,
      });
      l.close();
      const calls = series.points.filter((p) => p.measured !== null);
      if (calls.length < 3) continue; // the damaged session: too few calls on its chain to judge
      fitted++;
      expect(series.fit.cannotFit, s.key).toBeNull();
      expect(series.fit.r2!, s.key).toBeGreaterThanOrEqual(MIN_APPLY_R2);
      expect(series.fit.bytesPerToken!, s.key).toBeCloseTo(DEMO_BYTES_PER_TOKEN, 0);
      // Each call's measured input is within a tenth of the estimate for that call at the fitted value.
      for (const p of calls) {
        const m = p.measured!;
        expect(Math.abs(m.tokens - m.estimated) / m.tokens, `${s.key} ${m.entryId}`).toBeLessThan(0.1);
      }
      // Measured input grows with the context: the largest call is half again the smallest or more.
      const sizes = calls.map((p) => p.measured!.tokens);
      expect(Math.max(...sizes), s.key).toBeGreaterThan(1.5 * Math.min(...sizes));
    }
    expect(fitted).toBeGreaterThanOrEqual(6);
  });
});
