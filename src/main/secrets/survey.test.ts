import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecretCount } from '../../shared/api-secrets';
import { MemorySource } from '../core/byte-source';
import type { SessionFile } from '../core/home';
import { Ledger } from '../core/ledger';
import { fixtureLedger } from './fixtures/planted-secrets';
import { SecretScanner } from './secret-scanner';
import { SecretSurvey, type SecretSurveyOptions } from './survey';

const CWD = '0123456789abcdef';

let home: string;
const surveys: SecretSurvey[] = [];

afterEach(async () => {
  for (const s of surveys.splice(0)) await s.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

function sessionFileAt(name: string): SessionFile {
  const key = `agents/a/sessions/${CWD}/${name}.jsonl`;
  return { key, agent: 'a', cwdHash: CWD, sessionId: name, path: join(home, ...key.split('/')) };
}

function makeHome(): void {
  home = mkdtempSync(join(tmpdir(), 'vak-survey-'));
  mkdirSync(join(home, 'agents', 'a', 'sessions', CWD), { recursive: true });
}

/** What the open scan finds in these bytes: the figure the survey must agree with. */
async function openScanCount(bytes: Buffer): Promise<number> {
  const scanner = new SecretScanner();
  await Ledger.open(new MemorySource(bytes) as never, { lineSink: scanner });
  await scanner.whenIdle();
  return scanner.count;
}

function survey(files: SessionFile[], over: Partial<SecretSurveyOptions> = {}): SecretSurvey & { warnings: string[] } {
  const warnings: string[] = [];
  const s = new SecretSurvey({
    sessions: () => files.map((file) => ({ key: file.key, file })),
    isOpen: () => false,
    foregroundBusy: () => false,
    chunkBytes: 4096,
    restFactor: 0,
    startMs: 0,
    passGapMs: 5,
    warn: (m) => warnings.push(m),
    ...over,
  });
  surveys.push(s);
  return Object.assign(s, { warnings });
}

/** Resolves once `pred` holds, checked whenever the survey reports a step or a pass. */
function until(s: SecretSurvey, pred: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (pred()) return resolve();
    const off = s.onChange(() => {
      if (pred()) {
        off();
        resolve();
      }
    });
  });
}

const countOf = (s: SecretSurvey, key: string): SecretCount | undefined => s.counts().find((c) => c.key === key);

describe('the secret survey of sessions never opened', () => {
  it('counts the planted secrets of unopened sessions, as the open scan does, newest first', async () => {
    makeHome();
    const f = fixtureLedger();
    const expected = await openScanCount(f.bytes);
    expect(expected).toBeGreaterThanOrEqual(30);
    const older = sessionFileAt('older');
    const newer = sessionFileAt('newer');
    const clean = sessionFileAt('clean');
    writeFileSync(older.path, f.bytes);
    writeFileSync(newer.path, f.bytes);
    writeFileSync(clean.path, f.bytes.subarray(0, f.bytes.indexOf(10) + 1)); // the header alone
    utimesSync(older.path, new Date(1e12), new Date(1e12));
    const s = survey([older, clean, newer]);
    expect(s.counts().map((c) => c.state)).toEqual(['pending', 'pending', 'pending']);
    const firstSurveying: string[] = [];
    s.onChange(() => {
      const c = s.counts().find((x) => x.state === 'surveying');
      if (c && !firstSurveying.includes(c.key)) firstSurveying.push(c.key);
    });
    s.start();
    await until(s, () => s.counts().every((c) => c.state === 'surveyed'));
    expect(countOf(s, older.key)?.count).toBe(expected);
    expect(countOf(s, newer.key)?.count).toBe(expected);
    expect(countOf(s, clean.key)?.count).toBe(0);
    expect(firstSurveying[0]).not.toBe(older.key); // older has the oldest mtime: surveyed last
    expect(firstSurveying.at(-1)).toBe(older.key);
    expect(s.warnings).toEqual([]);
  });

  it('continues an appended file from where it stopped, and surveys a replaced one again', async () => {
    makeHome();
    const f = fixtureLedger();
    const expected = await openScanCount(f.bytes);
    const a = sessionFileAt('a');
    writeFileSync(a.path, f.bytes);
    const s = survey([a]);
    s.start();
    await until(s, () => countOf(s, a.key)?.state === 'surveyed');
    expect(countOf(s, a.key)?.count).toBe(expected);
    const readBefore = s.bytesRead;

    // Appended (the lines after the header once more: the same secrets again).
    const body = f.bytes.subarray(f.bytes.indexOf(10) + 1);
    appendFileSync(a.path, body);
    // (A pass in progress may have looked before the append: wait for the one after it.)
    const passes = s.passes;
    s.nudge();
    await until(s, () => s.passes > passes + 1 && countOf(s, a.key)?.state === 'surveyed');
    expect(countOf(s, a.key)?.count).toBe(expected * 2);
    // Only the appended bytes were read (and the few that prove the prefix unchanged were hashed apart).
    expect(s.bytesRead - readBefore).toBe(body.length);

    // Replaced by another file (a new inode): surveyed from its start, the old count dropped.
    const tmp = join(home, 'replacement');
    writeFileSync(tmp, f.bytes.subarray(0, f.bytes.indexOf(10) + 1));
    renameSync(tmp, a.path);
    const p2 = s.passes;
    s.nudge();
    await until(s, () => s.passes > p2 + 1 && countOf(s, a.key)?.state === 'surveyed');
    expect(countOf(s, a.key)?.count).toBe(0);

    // Rewritten in place with the same size (same inode, new bytes): never the stale count.
    writeFileSync(a.path, f.bytes);
    const p3 = s.passes;
    s.nudge();
    await until(s, () => s.passes > p3 + 1 && countOf(s, a.key)?.state === 'surveyed');
    expect(countOf(s, a.key)?.count).toBe(expected);
    const sameSize = Buffer.from(f.bytes);
    // Change a byte in the middle (a secret's line) without changing the size or the tail.
    const at = sameSize.indexOf('ghp_');
    expect(at).toBeGreaterThan(0);
    sameSize.write('xxxx', at);
    writeFileSync(a.path, sameSize);
    utimesSync(a.path, new Date(), new Date(Date.now() + 5000));
    const p4 = s.passes;
    s.nudge();
    await until(s, () => s.passes > p4 + 1 && countOf(s, a.key)?.state === 'surveyed');
    expect(countOf(s, a.key)?.count).toBe(await openScanCount(sameSize));
    expect(await openScanCount(sameSize)).toBeLessThan(expected);
  });

  it('skips a FIFO, a link loop and a file that is not a ledger with a warning, without hanging', async () => {
    makeHome();
    const f = fixtureLedger();
    const fifo = sessionFileAt('fifo');
    execFileSync('mkfifo', [fifo.path]);
    const loop = sessionFileAt('loop');
    symlinkSync(loop.path, loop.path);
    const text = sessionFileAt('text');
    writeFileSync(text.path, 'not a ledger\nat all\n');
    const good = sessionFileAt('good');
    writeFileSync(good.path, f.bytes);
    // A header longer than 1 MiB (a long system prompt): still a ledger.
    const long = sessionFileAt('long');
    const header = JSON.parse(f.bytes.subarray(0, f.bytes.indexOf(10)).toString()) as Record<string, unknown>;
    header['system_prompt'] = 'x'.repeat(1_200_000);
    writeFileSync(
      long.path,
      Buffer.concat([Buffer.from(JSON.stringify(header)), f.bytes.subarray(f.bytes.indexOf(10))]),
    );
    const s = survey([fifo, loop, text, good, long]);
    s.start();
    await until(s, () => s.passes >= 2);
    expect(countOf(s, fifo.key)?.state).toBe('not-scanned');
    expect(countOf(s, loop.key)?.state).toBe('not-scanned');
    expect(countOf(s, text.key)?.state).toBe('not-scanned');
    expect(countOf(s, good.key)).toMatchObject({ state: 'surveyed', count: await openScanCount(f.bytes) });
    expect(countOf(s, long.key)).toMatchObject({ state: 'surveyed', count: await openScanCount(f.bytes) });
    // One warning each, naming the file, never its content; not repeated on the next pass.
    expect(s.warnings).toHaveLength(3);
    expect(s.warnings.join('\n')).not.toContain('not a ledger\n');
    expect(s.warnings.find((w) => w.includes('text.jsonl'))).toContain('line 1 is not a ledger entry');
  });

  it('waits while the foreground works, and leaves a session that gets opened to its open scan', async () => {
    makeHome();
    const f = fixtureLedger();
    const a = sessionFileAt('a');
    writeFileSync(a.path, f.bytes);
    const b = sessionFileAt('b');
    writeFileSync(b.path, f.bytes);
    let busy = true;
    const open = new Set<string>();
    const s = survey([a, b], { foregroundBusy: () => busy, isOpen: (key) => open.has(key) });
    s.start();
    await until(s, () => s.pauses >= 3);
    expect(s.bytesRead).toBe(0);
    expect(s.counts().map((c) => c.state)).toEqual(['pending', 'pending']);
    // The foreground rests: the survey starts; a session opened meanwhile leaves the survey's list.
    busy = false;
    await until(s, () => s.bytesRead > 0);
    busy = true;
    const surveying = s.counts().find((c) => c.state === 'surveying')!.key;
    open.add(surveying);
    const paused = s.pauses;
    await until(s, () => s.pauses > paused + 2);
    const read = s.bytesRead;
    await until(s, () => s.pauses > paused + 4);
    expect(s.bytesRead).toBe(read); // paused: not a byte more
    busy = false;
    const other = surveying === a.key ? b.key : a.key;
    await until(s, () => countOf(s, other)?.state === 'surveyed');
    expect(s.counts().map((c) => c.key)).toEqual([other]);
  });

  describe('turned off and on by the user', () => {
    /** This process's descriptors open on `path` (Linux: /proc/self/fd). */
    const fdsOn = (path: string): number =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false; // (the listing's own descriptor, closed by now)
        }
      }).length;
    /** Lets the survey's loop run whatever it would run now (its wake-ups are promise callbacks). */
    const settle = async (): Promise<void> => {
      for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
    };

    it('off mid-file: closes it, claims nothing, reads no more and says nothing; on: resumes', async () => {
      makeHome();
      const f = fixtureLedger();
      const expected = await openScanCount(f.bytes);
      const a = sessionFileAt('a');
      writeFileSync(a.path, f.bytes);
      const clean = sessionFileAt('clean');
      writeFileSync(clean.path, f.bytes.subarray(0, f.bytes.indexOf(10) + 1));
      utimesSync(clean.path, new Date(1e12), new Date(1e12)); // older: a is surveyed first
      let listed = 0;
      const s = survey([a, clean], {
        sessions: () => {
          listed++;
          return [a, clean].map((file) => ({ key: file.key, file }));
        },
      });
      const states: boolean[] = [];
      s.onChange(() => {
        if (states.at(-1) !== s.isOn()) states.push(s.isOn());
      });
      s.start();
      // Mid-file: a's first step is counted, more of it is left.
      await until(s, () => countOf(s, a.key)?.state === 'surveying' && s.bytesRead < f.bytes.length);
      expect(fdsOn(a.path)).toBe(1);
      await s.setOn(false);
      expect(s.isOn()).toBe(false);
      expect(fdsOn(a.path)).toBe(0);
      expect(s.counts()).toEqual([]);
      const read = s.bytesRead;
      const lists = listed;
      // Woken (as a change in the home would), it still reads nothing and lists nothing.
      s.nudge();
      await settle();
      expect(s.bytesRead).toBe(read);
      expect(listed).toBe(lists);
      await s.setOn(false); // idempotent
      expect(states).toEqual([true, false]);

      await s.setOn(true);
      expect(s.isOn()).toBe(true);
      await until(s, () => s.counts().length === 2 && s.counts().every((c) => c.state === 'surveyed'));
      expect(countOf(s, a.key)?.count).toBe(expected);
      expect(countOf(s, clean.key)?.count).toBe(0);
      // a was not claimed when cut short: surveyed again from its start.
      expect(s.bytesRead - read).toBeGreaterThanOrEqual(f.bytes.length);
      expect(states).toEqual([true, false, true]);
      expect(s.warnings).toEqual([]);
    });

    it('off hides what was surveyed; on shows it again without reading unchanged files', async () => {
      makeHome();
      const f = fixtureLedger();
      const a = sessionFileAt('a');
      writeFileSync(a.path, f.bytes);
      const s = survey([a]);
      s.start();
      await until(s, () => countOf(s, a.key)?.state === 'surveyed');
      const count = countOf(s, a.key)?.count;
      const read = s.bytesRead;
      await s.setOn(false);
      expect(s.counts()).toEqual([]);
      await s.setOn(true);
      expect(countOf(s, a.key)).toMatchObject({ state: 'surveyed', count });
      const passes = s.passes;
      await until(s, () => s.passes > passes + 1);
      expect(s.bytesRead).toBe(read);
    });

    it('starts off when asked: reads nothing until turned on', async () => {
      makeHome();
      const f = fixtureLedger();
      const a = sessionFileAt('a');
      writeFileSync(a.path, f.bytes);
      const s = survey([a], { on: false });
      s.start();
      await settle();
      s.nudge();
      await settle();
      expect(s.bytesRead).toBe(0);
      expect(s.passes).toBe(0);
      expect(s.counts()).toEqual([]);
      await s.setOn(true);
      await until(s, () => countOf(s, a.key)?.state === 'surveyed');
      expect(countOf(s, a.key)?.count).toBe(await openScanCount(f.bytes));
    });
  });
});
