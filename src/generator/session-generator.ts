import { SYSTEM_PROMPT, TOOLS, directive, paragraph, sentence, toolCall, toolOutput } from './vocabulary';
import { LedgerWriter } from './ledger-writer';
import { Rng } from './rng';

export interface GenerateOptions {
  seed: number;
  /** Stop after about this many entries… */
  entries?: number;
  /** …or this many bytes (whichever comes first; at least one must be given). */
  bytes?: number;
  cwd: string;
  sessionId?: string;
  startMs?: number;
  model?: string;
  /** A header parent_session link (sub-agent sessions). */
  parentSession?: { session_id: string; entry_id: string } | null;
  /** Chance that a turn starts a new branch from an earlier answer. */
  branchChance?: number;
  /** Write to this file (streamed) instead of returning the bytes. */
  path?: string;
  /** Tool result sizes in bytes (default 2–8 KB, as in real sessions; smaller for huge entry counts). */
  toolResultBytes?: [number, number];
  /** A ~200 KB tool result every few thousand entries (default true). */
  bigLines?: boolean;
  /** Child runs to record (sub-agent sessions this one started). */
  childRuns?: { child_session_id: string; agent: string }[];
  /**
   * `mixed` (default): turn cards, packets and resets as a compacting agent writes them.
   * `uncompacted`: none of them, so every turn can only be Full — a session of an agent
   * without compaction, the worst case for `plan none`.
   */
  shape?: 'mixed' | 'uncompacted';
}

export interface GeneratedSession {
  bytes: Buffer;
  sessionId: string;
  entries: number;
  size: number;
  /** Ids of the child_run entries written, in order of `childRuns`. */
  childRunIds: string[];
}

/**
 * A realistic vak session: turns of directive → (thinking, tool calls, results)* → answer,
 * with receipts, approvals, intents, work items, turn cards, packets, resets when
 * the context would overflow, occasional branches, card calls, ~20% tool results of
 * 2–8 KB and a ~200 KB tool result every few thousand entries.
 */
export function generateSession(opts: GenerateOptions): GeneratedSession {
  if (opts.entries === undefined && opts.bytes === undefined) throw new Error('give entries or bytes');
  const rng = new Rng(opts.seed);
  const w = new LedgerWriter(rng, opts.startMs ?? Date.UTC(2026, 10, 20, 8, 0, 0), opts.path);
  const maxEntries = opts.entries ?? Number.POSITIVE_INFINITY;
  const maxBytes = opts.bytes ?? Number.POSITIVE_INFINITY;
  const model = opts.model ?? 'claude-sonnet-4-5';
  const sessionId = opts.sessionId ?? w.newId();
  const done = (): boolean => w.entries >= maxEntries || w.bytes >= maxBytes;

  const header = w.append('header', null, {
    session_id: sessionId,
    app_version: '0.9.3',
    provider: 'anthropic',
    model,
    system_prompt: SYSTEM_PROMPT,
    tools: TOOLS,
    permission_mode: 'ask',
    cwd: opts.cwd,
    parent_session: opts.parentSession ?? null,
  });
  let leaf = w.append('turn_capabilities_bound', header, {
    capabilities: {
      core_tools: ['read_file', 'run_command', 'edit_file', 'search'],
      deferred_tools: ['show_card'],
      tool_index_text: 'show_card: present a structured card to the user',
      domains: { run_command: ['shell'], edit_file: ['workspace'] },
    },
  });
  if (!done()) {
    leaf = w.append('goal', leaf, {
      goal: {
        objective: 'Keep the test suite green while fixing what the user asks',
        criteria: ['cargo test passes', 'no new lint warnings'],
      },
    });
  }

  const closedTurns: string[] = []; // turn ids since the last reset, on the current chain
  const answers: string[] = []; // recent final answers: places to branch from
  let contextBytes = 0;
  let sinceBig = 0;
  let toolSeq = 0;
  let workSeq = 0;
  const childRuns = [...(opts.childRuns ?? [])];
  const childRunIds: string[] = [];
  const branchChance = opts.branchChance ?? 0.06;
  const compacting = (opts.shape ?? 'mixed') === 'mixed';

  while (!done()) {
    // A new directive: usually under the current leaf, sometimes a branch from an earlier answer.
    let parent = leaf;
    if (answers.length > 2 && rng.chance(branchChance)) {
      parent = answers[answers.length - rng.int(2, Math.min(4, answers.length))];
      closedTurns.length = 0; // the branch's chain has other turns; keep packets simple
    }
    const turnId = w.append(
      'message',
      parent,
      { message: { role: 'user', content: [{ type: 'text', text: directive(rng) }] } },
      rng.int(20_000, 120_000),
    );
    leaf = turnId;
    contextBytes += 200;
    if (rng.chance(0.15)) {
      leaf = w.append('intent', leaf, {
        intent: {
          reading: rng.pick(['debugging', 'refactoring', 'reviewing']),
          engagement: rng.pick(['focused', 'exploring']),
          provenance: 'user',
          model_visible: `intent: ${sentence(rng, 3, 7)}`,
        },
      });
    }
    const steps = rng.int(1, 4);
    let inputTokens = 2000 + Math.floor(contextBytes / 4);
    for (let s = 0; s < steps && !done(); s++) {
      const call = toolCall(rng);
      const toolUseId = `toolu_${(++toolSeq).toString(36)}${rng.hex(6)}`;
      const content: unknown[] = [];
      if (rng.chance(0.5)) content.push({ type: 'thinking', text: paragraph(rng, rng.int(1, 3)) });
      if (rng.chance(0.6)) content.push({ type: 'text', text: sentence(rng) });
      content.push({ type: 'tool_use', id: toolUseId, name: call.name, input: call.input });
      leaf = w.append('message', leaf, {
        message: { role: 'assistant', content },
        meta: {
          model,
          stop_reason: 'tool_use',
          usage: {
            input_tokens: inputTokens,
            output_tokens: rng.int(80, 900),
            cache_read_tokens: Math.floor(inputTokens * 0.8),
          },
        },
      });
      if (rng.chance(0.5)) {
        leaf = w.append(
          'receipt',
          leaf,
          {
            receipt: {
              purpose: 'turn',
              winning_attempt: 0,
              attempts: [
                {
                  reason: 'initial',
                  domain: 'api.anthropic.com',
                  settlement: 'ok',
                  usage: { input_tokens: inputTokens, output_tokens: rng.int(80, 900) },
                },
              ],
              prefix_digest: rng.hex(16),
              prefix_tokens: 2405,
            },
          },
          200,
        );
      }
      if (call.name === 'run_command' && rng.chance(0.3)) {
        leaf = w.append(
          'activity',
          leaf,
          { activity: { type: 'approval', detail: 'run_command allowed by user' } },
          500,
        );
      }
      sinceBig++;
      const big = (opts.bigLines ?? true) && sinceBig > 3000 && rng.chance(0.05);
      if (big) sinceBig = 0;
      const [lo, hi] = opts.toolResultBytes ?? [2048, 8192];
      const out = toolOutput(rng, big ? 200_000 : rng.int(lo, hi));
      const result: Record<string, unknown> = { type: 'tool_result', tool_use_id: toolUseId, content: out };
      if (rng.chance(0.15)) result['is_error'] = true;
      if (rng.chance(0.4)) result['digest'] = `${call.name}: ${out.split('\n').length} lines; ${sentence(rng, 3, 6)}`;
      leaf = w.append('message', leaf, { message: { role: 'tool', content: [result] } }, rng.int(500, 30_000));
      contextBytes += 600;
      inputTokens += 150;
      if (rng.chance(0.08)) {
        const workId = `w-${++workSeq}`;
        leaf = w.append(
          'work',
          leaf,
          { work: { work_id: workId, event: 'started', state: 'running', detail: call.name } },
          200,
        );
        leaf = w.append(
          'work',
          leaf,
          { work: { work_id: workId, event: 'finished', state: rng.pick(['done', 'failed']) } },
          200,
        );
      }
    }
    if (done()) break;
    // A card call now and then: show_card plus its presentation.
    if (rng.chance(0.05)) {
      const toolUseId = `toolu_card${(++toolSeq).toString(36)}`;
      leaf = w.append('message', leaf, {
        message: {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: toolUseId,
              name: 'show_card',
              input: { card_type: 'test_report', payload: { passed: rng.int(50, 200), failed: 0 } },
            },
          ],
        },
        meta: { model, stop_reason: 'tool_use', usage: { input_tokens: inputTokens, output_tokens: 60 } },
      });
      leaf = w.append('presentation', leaf, {
        presentation: {
          tool_use_id: toolUseId,
          card_type: 'test_report',
          payload: { suite: 'cargo test' },
          digest: rng.hex(64),
          evidence: [leaf],
          identity_digest: rng.hex(16),
          ack: 'Showed a test report card.',
        },
      });
      leaf = w.append('message', leaf, {
        message: { role: 'tool', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'card shown' }] },
      });
    }
    const answer = w.append('message', leaf, {
      message: { role: 'assistant', content: [{ type: 'text', text: paragraph(rng, rng.int(1, 4)) }] },
      meta: {
        model,
        stop_reason: 'end_turn',
        usage: {
          input_tokens: inputTokens,
          output_tokens: rng.int(100, 1500),
          cache_read_tokens: Math.floor(inputTokens * 0.8),
        },
      },
    });
    leaf = answer;
    answers.push(answer);
    if (answers.length > 8) answers.shift();
    closedTurns.push(turnId);
    contextBytes += 400;
    if (childRuns.length > 0 && rng.chance(0.3)) {
      const c = childRuns.shift()!;
      leaf = w.append('child_run', leaf, { child_run: { ...c, outcome: 'ok', summary: sentence(rng) } });
      childRunIds.push(leaf);
    }
    if (compacting && rng.chance(0.85)) {
      leaf = w.append(
        'turn_card',
        leaf,
        {
          turn_card: {
            turn_id: turnId,
            asked: sentence(rng, 4, 8),
            did: sentence(rng, 4, 8),
            answered: sentence(rng, 4, 8),
            narration: sentence(rng),
            outcome: rng.pick(['fixed', 'explained', 'partial']),
            reading: rng.pick(['debugging', 'refactoring']),
            cost: { input_tokens: inputTokens, output_tokens: 900 },
            line: `${sentence(rng, 5, 10)}`,
          },
        },
        300,
      );
    }
    if (rng.chance(0.1)) {
      leaf = w.append('goal_update', leaf, {
        goal_update: { status: 'progress', relation: 'advances', note: sentence(rng, 3, 6) },
      });
    }
    // Packets over older closed turns; a reset when the context would overflow.
    if (compacting && closedTurns.length >= 6 && rng.chance(0.3)) {
      const first = closedTurns[closedTurns.length - 6];
      const last = closedTurns[closedTurns.length - 3];
      leaf = w.append('compaction', leaf, {
        packet: {
          summary: paragraph(rng, 2),
          first_turn_id: first,
          last_turn_id: last,
          model: 'claude-haiku-4-5',
          tokens_before: Math.floor(contextBytes / 4),
        },
      });
    }
    if (compacting && contextBytes > 240_000 && rng.chance(0.5)) {
      leaf = w.append('compaction', leaf, {
        reset_all: true,
        summary: paragraph(rng, 3),
        model: 'claude-haiku-4-5',
        tokens_before: Math.floor(contextBytes / 4),
      });
      contextBytes = 2000;
      closedTurns.length = 0;
    }
  }
  const bytes = w.finish();
  return { bytes, sessionId, entries: w.entries, size: w.bytes, childRunIds };
}
