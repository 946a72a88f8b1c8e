/**
 * Builds the bundled demo home (`resources/demo-home`, LEDGER.md §1 layout) with the
 * project's own generator: several agents and working directories (one non-ASCII),
 * branches, packets, a reset, cards, intents, audit entries, a child_run ↔
 * parent_session pair, and one damaged file. Deterministic: same seeds, same bytes.
 *
 *   npx tsx scripts/make-demo-home.ts [OUT_DIR]
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cwdHash } from '../src/main/core/fnv1a64';
import { generateSession } from '../src/generator';
import { withProviderUsage } from './demo-usage';

interface Planned {
  agent: string;
  cwd: string;
  seed: number;
  bytes: number;
  sessionId?: string;
  branchChance?: number;
  startMs: number;
}

const ANA = '/home/ana/projects/vak';
const MDLITE = '/home/ana/src/mdlite';
const UNICODE = '/home/ana/Projekte/straße-ünï';
const DAY = Date.UTC(2026, 10, 20, 8, 0, 0);
const H = 3600_000;
/** The reviewer run started by the main session: its id (a UUIDv7 of its start) is fixed so both sides name it. */
const REVIEWER_START = DAY + 2 * H;
const REVIEWER_MS = REVIEWER_START.toString(16).padStart(12, '0');
const REVIEWER_ID = `${REVIEWER_MS.slice(0, 8)}-${REVIEWER_MS.slice(8)}-7a51-8c0d-5e1f2a3b4c5d`;

/** Writes a session, its usage first made what a provider reports for its content (seeded by `seed`). */
function write(
  out: string,
  agent: string,
  cwd: string,
  sessionId: string,
  bytes: Buffer,
  seed: number,
  damaged = false,
): string {
  const real = withProviderUsage(bytes, seed);
  const dir = join(out, 'agents', agent, 'sessions', cwdHash(cwd));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${sessionId}.jsonl`);
  writeFileSync(path, damaged ? damage(real) : real);
  return path;
}

/** A session's bytes damaged as a crash and a bad edit would: a torn line mid-file and a torn tail. */
function damage(bytes: Buffer): Buffer {
  const lines = bytes.toString('utf8').split('\n');
  lines.pop(); // the empty string after the final \n
  const mid = Math.floor(lines.length / 2);
  lines[mid] = lines[mid].slice(0, Math.floor(lines[mid].length / 2)); // torn_line, then hash_mismatch
  const last = lines[lines.length - 1];
  return Buffer.from(lines.join('\n') + '\n' + last.slice(0, 40), 'utf8'); // unterminated_tail
}

/** Writes the demo home into `out` (emptied first); returns the files written. */
export function makeDemoHome(out: string): string[] {
  rmSync(out, { recursive: true, force: true });
  const written: string[] = [];
  const main = generateSession({
    seed: 11,
    bytes: 700_000, // long enough for the context to overflow once: a reset_all
    cwd: ANA,
    startMs: DAY,
    branchChance: 0.08,
    toolResultBytes: [80, 300],
    bigLines: false,
    childRuns: [{ child_session_id: REVIEWER_ID, agent: 'reviewer' }],
  });
  written.push(write(out, 'vak', ANA, main.sessionId, main.bytes, 11));
  const reviewer = generateSession({
    seed: 12,
    bytes: 50_000,
    cwd: ANA,
    sessionId: REVIEWER_ID,
    startMs: REVIEWER_START,
    toolResultBytes: [300, 1500],
    bigLines: false,
    parentSession: { session_id: main.sessionId, entry_id: main.childRunIds[0] },
  });
  written.push(write(out, 'reviewer', ANA, reviewer.sessionId, reviewer.bytes, 12));

  const plans: Planned[] = [
    { agent: 'vak', cwd: ANA, seed: 21, bytes: 110_000, startMs: DAY + 24 * H, branchChance: 0.1 },
    { agent: 'vak', cwd: MDLITE, seed: 31, bytes: 140_000, startMs: DAY + 30 * H },
    { agent: 'vak', cwd: MDLITE, seed: 32, bytes: 60_000, startMs: DAY + 50 * H },
    { agent: 'vak', cwd: UNICODE, seed: 41, bytes: 90_000, startMs: DAY + 72 * H },
    { agent: 'planner', cwd: MDLITE, seed: 51, bytes: 35_000, startMs: DAY + 31 * H },
  ];
  for (const p of plans) {
    const s = generateSession({
      seed: p.seed,
      bytes: p.bytes,
      cwd: p.cwd,
      startMs: p.startMs,
      branchChance: p.branchChance,
      toolResultBytes: [300, 2000],
      bigLines: false,
    });
    written.push(write(out, p.agent, p.cwd, s.sessionId, s.bytes, p.seed));
  }
  const broken = generateSession({ seed: 61, bytes: 40_000, cwd: ANA, startMs: DAY + 96 * H, bigLines: false });
  written.push(write(out, 'vak', ANA, broken.sessionId, broken.bytes, 61, true));
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const out = resolve(process.argv[2] ?? join(root, 'resources', 'demo-home'));
  const files = makeDemoHome(out);
  process.stdout.write(`wrote ${files.length} sessions to ${out}\n`);
}
