/**
 * A ledger whose strings are named like Object.prototype's own: ids and leaves, kinds, roles,
 * block types, tool names, model names, stop reasons, activity types, work and turn ids, the
 * agent, the cwd and the text are `__proto__`, `constructor`, `toString`, `hasOwnProperty` and
 * their kin. Written by the generator's LedgerWriter, so its hash chain is valid.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LedgerWriter, Rng } from '../generator';
import { cwdHash } from '../main/core/fnv1a64';
import { sessionKey } from '../shared/session-key';

export const BUILTIN_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;
const [P, C, T, H] = BUILTIN_NAMES;

/** An object with these own keys: `{ __proto__: x }` written as a literal would set the prototype. */
const own = (...pairs: [string, unknown][]): Record<string, unknown> => Object.fromEntries(pairs);

export interface BuiltinNamesSession {
  bytes: Buffer;
  agent: string;
  cwd: string;
  sessionId: string;
  /** The session key (LEDGER.md §1) in a home. */
  key: string;
  /** Every entry's id, in file order. */
  ids: string[];
  /** The four leaves, named `__proto__`, `constructor`, `toString`, `hasOwnProperty` (the last is the active one). */
  leaves: readonly string[];
  /** Entries of the chain every leaf shares, by what they stand for. */
  shared: { header: string; directive: string; assistant: string; toolResult: string };
}

const usage = { input_tokens: 120, output_tokens: 30 };

/** The ledger in memory. */
export function builtinNamesSession(): BuiltinNamesSession {
  const w = new LedgerWriter(new Rng(7), Date.UTC(2026, 0, 1));
  const agent = C;
  const cwd = P;
  const sessionId = '01a1f7f8-3000-7bce-9f84-0000000070a0';
  const ids: string[] = [];
  let at: string | null = null;
  /** Appends an entry under `parent` (the last one appended, when not given). */
  const add = (id: string, kind: string, payload: Record<string, unknown>, parent: string | null = at): string => {
    ids.push(w.append(kind, parent, payload, 1000, id));
    at = id;
    return id;
  };
  const tools = BUILTIN_NAMES.map((name) => ({
    name,
    description: T,
    input_schema: { type: 'object', properties: own([P, { type: 'string' }], [C, { type: 'string' }]) },
  }));
  const header = add('valueOf', 'header', {
    session_id: sessionId,
    app_version: P,
    provider: C,
    model: P,
    system_prompt: T,
    tools,
    permission_mode: H,
    cwd,
    parent_session: null,
  });
  const directive = add('isPrototypeOf', 'message', {
    message: { role: 'user', content: [{ type: 'text', text: P }] },
    meta: { model: C, stop_reason: T },
  });
  const assistant = add('propertyIsEnumerable', 'message', {
    message: {
      role: 'assistant',
      content: [
        { type: 'thinking', text: C },
        { type: 'text', text: T },
        { type: 'tool_use', id: P, name: C, input: own([P, H], [C, T], [T, P]) },
      ],
    },
    meta: { model: P, stop_reason: P, usage },
  });
  const toolResult = add('toLocaleString', 'message', {
    message: { role: 'tool', content: [{ type: 'tool_result', tool_use_id: P, content: H, digest: T }] },
  });
  add('__defineGetter__', 'message', {
    message: { role: 'assistant', content: [{ type: 'text', text: H }] },
    meta: { model: T, stop_reason: C, usage },
  });
  // Unknown kinds (kept raw), each carrying a field of its own name.
  add('__lookupGetter__', P, own([P, C]));
  add('__defineSetter__', C, own([C, T]));
  add('__lookupSetter__', T, own([T, H]));
  add('valueOf.hasOwnProperty', H, own([H, P]));
  // Messages whose role is no role (kept and shown, in no turn), and blocks of no known type.
  for (const role of BUILTIN_NAMES)
    add(`role.${role}`, 'message', { message: { role, content: [{ type: 'text', text: role }] } });
  add('blocks', 'message', {
    message: { role: 'assistant', content: BUILTIN_NAMES.map((type) => own(['type', type], ['text', type])) },
    meta: { model: H, stop_reason: H, usage },
  });
  for (const type of BUILTIN_NAMES)
    add(`activity.${type}`, 'activity', { activity: { type, detail: own([type, type]) } });
  add('work.1', 'work', { work: { work_id: C, event: T, state: P, detail: H } });
  add('work.2', 'work', { work: { work_id: P, event: H, state: C } });
  add('turn_card', 'turn_card', {
    turn_card: {
      turn_id: directive,
      asked: P,
      did: C,
      answered: T,
      narration: H,
      outcome: P,
      reading: C,
      cost: { input_tokens: 1, output_tokens: 1 },
      line: T,
    },
  });
  add('presentation', 'presentation', {
    presentation: {
      tool_use_id: P,
      card_type: C,
      payload: own([P, T]),
      digest: T,
      evidence: [P, C],
      identity_digest: H,
      ack: P,
    },
  });
  add('intent', 'intent', { intent: { reading: P, engagement: C, provenance: T, model_visible: H } });
  add('goal', 'goal', { goal: { objective: P, criteria: [C, T] } });
  add('goal_update', 'goal_update', { goal_update: { status: T, relation: P, note: C } });
  add('child_run', 'child_run', { child_run: { child_session_id: P, agent: C, outcome: T, summary: H } });
  add('capabilities', 'turn_capabilities_bound', {
    capabilities: { core_tools: [P, C], deferred_tools: [T], tool_index_text: H, domains: own([P, [C]], [T, [H]]) },
  });
  add('receipt', 'receipt', {
    receipt: {
      purpose: P,
      winning_attempt: 0,
      attempts: [{ reason: C, domain: T, settlement: H, usage }],
      prefix_digest: P,
    },
  });
  add('compaction', 'compaction', {
    packet: { summary: C, first_turn_id: directive, last_turn_id: directive, model: T, tokens_before: 500 },
  });
  add('second', 'message', { message: { role: 'user', content: [{ type: 'text', text: C }] } });
  add('answer', 'message', {
    message: { role: 'assistant', content: [{ type: 'text', text: T }] },
    meta: { model: C, stop_reason: H, usage },
  });
  // Four leaves on the last entry: a directive, an answer, an unknown kind, a message of no role.
  const fork = at;
  add(P, 'message', { message: { role: 'user', content: [{ type: 'text', text: P }] } }, fork);
  add(C, 'message', { message: { role: 'assistant', content: [{ type: 'text', text: C }] }, meta: { model: C } }, fork);
  add(T, T, own([T, T]), fork);
  add(H, 'message', { message: { role: H, content: [{ type: 'text', text: H }] } }, fork);
  return {
    bytes: w.finish(),
    agent,
    cwd,
    sessionId,
    key: sessionKey(agent, cwdHash(cwd), sessionId),
    ids,
    leaves: BUILTIN_NAMES,
    shared: { header, directive, assistant, toolResult },
  };
}

/** Writes the ledger into `home`; returns it and its file's path. */
export function writeBuiltinNamesSession(home: string): BuiltinNamesSession & { file: string } {
  const s = builtinNamesSession();
  const file = join(home, s.key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, s.bytes);
  return { ...s, file };
}
