import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_PLAN_TURNS,
  type ChainItems,
  type EntryDetail,
  type LeafView,
  type PlanTurns,
  type SessionInfo,
  type TreeRowsResult,
} from '../shared/api';
import {
  DEFAULT_PROFILE,
  type LedgerWarning,
  type Projection,
  type TreeReport,
  type VerifyReport,
} from '../shared/ledger-types';
import type { ApiClient } from '../main/api/api-backend';
import { ExplorerBackend } from '../main/api/explorer-backend';
import { entryPreview } from '../main/core/entry-preview';
import { Ledger } from '../main/core/ledger';
import { project } from '../main/core/projection';
import { treeReport, verifyReport } from '../main/core/reports';
import { projectionJson } from '../shared/projection-json';
import { FIXTURES } from '../test-support/fixtures';
import { useTempDir } from '../test-support/temp-dir';
import { cliProcess } from './cli-run';
import { mutate, mutation, type Mutation } from './mutations';
import { sessionKey, writeSession } from './temp-home';

/**
 * Reliability: over mutated copies of every fixture ledger (bit flips,
 * truncation, inserted bytes and lines, invalid UTF-8, deep nesting, built-in names,
 * multi-megabyte lines), the reader, the projection, the CLI and the API never throw,
 * never hang (the test's timeout bounds them), never change a byte of the file, and
 * the CLI (a real process) and the API (in process) read the same thing.
 *
 * Replay a failure with FUZZ_SEED=<seed> (fast-check prints the seed and path).
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261201);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 60);
/** Every how-many cases the real CLI process is run as well (it costs a Node start-up). */
const PROCESS_EVERY = 8;

const FIXTURE_FILES = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .map((f) => ({ name: f, bytes: readFileSync(join(FIXTURES, f)) }));

const tempDir = useTempDir('vak-fuzz-');
const client: ApiClient = { id: 'fuzz', push: () => undefined };
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** A reply crosses IPC (structured clone) and the WebSocket (JSON) without error. */
function sendable(x: unknown): void {
  structuredClone(x);
  JSON.stringify(x);
}

/** The in-process reading: the same core the CLI runs. */
function coreReading(file: string): { verify: VerifyReport; tree: TreeReport; projections: Map<string, object> } {
  const ledger = Ledger.openSync(file);
  try {
    const verify = verifyReport(ledger);
    const tree = treeReport(ledger);
    const ix = ledger.index;
    for (let i = 0; i < ix.count; i++) entryPreview(ledger.entry(i));
    const projections = new Map<string, object>();
    const leaves = ix.count === 0 ? [] : [ix.activeLeaf, ...ix.leaves().slice(0, 1)];
    for (const leaf of leaves) {
      for (const plan of ['auto', 'none'] as const) {
        const p = project(ledger, leaf, { plan, profile: DEFAULT_PROFILE });
        projections.set(`${ix.ids[leaf]}:${plan}`, projectionJson(p));
      }
    }
    return { verify, tree, projections };
  } finally {
    ledger.close();
  }
}

/** The API's reading of the same file, checked against the core's. */
async function checkApi(home: string, core: ReturnType<typeof coreReading>): Promise<void> {
  // Read whole before answering: these figures are the file's (a first read in steps is checked
  // against a whole read on every fixture in read-in-steps.test.ts).
  const backend = await ExplorerBackend.create({
    home,
    isDemo: false,
    label: 'fuzz',
    watch: false,
    lockPollMs: 0,
    firstReadBytes: Infinity,
  });
  try {
    const key = sessionKey();
    const info = (await backend.call('openSession', { key }, client)) as SessionInfo;
    sendable(info);
    expect(info.warningCount).toBe(core.verify.warnings.length);
    expect(info.activeLeaf).toBe(core.verify.active_leaf);
    expect(info.entryCount).toBe(core.verify.entries);
    const warnings = (await backend.call('getWarnings', { key }, client)) as LedgerWarning[];
    expect(warnings).toEqual(core.verify.warnings);
    const rows = (await backend.call(
      'getTreeRows',
      { key, start: 0, count: 5000, foldAudit: false },
      client,
    )) as TreeRowsResult;
    sendable(rows);
    expect(rows.total).toBe(core.verify.entries);
    expect(rows.rows.map((r) => [r.id, r.parentId, r.kind, r.line])).toEqual(
      core.tree.entries.slice(0, 5000).map((e) => [e.id, e.parent_id, e.kind, e.line]),
    );
    if (core.verify.active_leaf === null) return;
    const req = { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {} };
    const view = (await backend.call('getLeafView', req, client)) as LeafView;
    sendable(view);
    const want = core.projections.get(`${core.verify.active_leaf}:auto`) as Projection;
    expect(view.projection.tokens).toEqual(want.tokens);
    const planRows = (await backend.call(
      'getPlanTurns',
      { ...req, start: 0, count: MAX_PLAN_TURNS },
      client,
    )) as PlanTurns;
    expect(planRows.total).toBe(want.plan.length);
    expect(view.plan.turns).toBe(want.plan.length);
    expect(
      planRows.turns.map(({ turn_id, fidelity, packet_id, tokens }) => ({ turn_id, fidelity, packet_id, tokens })),
    ).toEqual(want.plan.slice(0, MAX_PLAN_TURNS));
    expect(view.projection.messages.map((m) => [m.fidelity, m.source_ids, m.tokens])).toEqual(
      want.messages.map((m) => [m.fidelity, m.source_ids, m.tokens]),
    );
    // Content is compared where nothing had to be clipped for transport.
    view.projection.messages.forEach((m, k) => {
      if (!view.clipped.includes(k)) expect(m.content).toEqual(want.messages[k].content);
    });
    const items = (await backend.call('getChainItems', { ...req, start: 0, count: 2000 }, client)) as ChainItems;
    sendable(items);
    expect(items.total).toBe(view.chainLength);
    // Tables keyed by ledger data (kind names, entry ids) hold every key as data.
    const counts = Object.values(view.kindCounts);
    expect(counts.every((n) => typeof n === 'number')).toBe(true);
    expect(counts.reduce((a, n) => a + n, 0)).toBe(view.chainLength);
    for (const [id, pos] of Object.entries(view.sourcePositions)) {
      if (pos < items.items.length) expect(items.items[pos].id).toBe(id);
    }
    const sources = new Set(view.projection.messages.flatMap((m) => m.source_ids));
    expect(Object.keys(view.sourcePositions).every((id) => sources.has(id))).toBe(true);
    expect(Object.keys(view.sourcePositions).length).toBe(sources.size);
    const entry = (await backend.call('getEntry', { key, id: core.verify.active_leaf }, client)) as EntryDetail;
    sendable(entry);
    for (let k = 0; k < Math.min(3, view.projection.messages.length); k++) {
      sendable(await backend.call('getProjectedMessage', { ...req, message: k }, client));
    }
  } finally {
    await backend.close();
  }
}

/** The real command's reading, equal to the core's. */
function checkProcess(file: string, core: ReturnType<typeof coreReading>): void {
  const v = cliProcess(['verify', file, '--json']);
  expect(v.code).toBe(core.verify.warnings.length === 0 ? 0 : 1);
  expect(JSON.parse(v.out)).toEqual(core.verify);
  const t = cliProcess(['tree', file, '--json']);
  expect(t.code).toBe(0);
  expect(JSON.parse(t.out)).toEqual(core.tree);
  const p = cliProcess(['project', file, '--json']);
  if (core.verify.active_leaf === null) {
    expect(p.code).toBe(2);
    return;
  }
  expect(p.err).toBe('');
  expect(p.code).toBe(0);
  expect(JSON.parse(p.out)).toEqual(core.projections.get(`${core.verify.active_leaf}:auto`));
}

describe('reliability fuzz over mutated fixtures', () => {
  it(`never throws, hangs, writes, or reads differently through the CLI and the API (seed ${SEED})`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: FIXTURE_FILES.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (f, muts: Mutation[]) => {
          run++;
          const home = tempDir();
          const file = writeSession(home, mutate(FIXTURE_FILES[f].bytes, muts));
          const before = sha(file);
          try {
            const core = coreReading(file);
            await checkApi(home, core);
            if (run % PROCESS_EVERY === 1) checkProcess(file, core);
            expect(sha(file)).toBe(before);
          } finally {
            rmSync(home, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 360_000);
});
