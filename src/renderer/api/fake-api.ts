import type {
  Api,
  ApiEvent,
  ChainItem,
  EntryRole,
  HiddenReason,
  HomeInfo,
  LeafRequest,
  SessionInfo,
  SessionSummary,
  TreeRow,
  TurnOption,
} from '../../shared/api';
import {
  isAuditKindName,
  type Json,
  type LedgerWarning,
  type PlanRow,
  type ProjectedMessage,
  type Projection,
} from '../../shared/ledger-types';
import { ApiError } from './api-methods';
import { fakeChainItems, fakeLeafView, fakeTurnOptions } from './fake-chain';
import { DEMO_HOME, type FakeEntry, SESSION_A, demoEntries, demoSessions } from './fake-data';

export interface FakeApiOptions {
  home?: HomeInfo;
  sessions?: SessionSummary[];
  entries?: Record<string, FakeEntry[]>;
  /** Branching refuses with code 'locked' while true. */
  locked?: boolean;
}

export interface FakeApi extends Api {
  /** Pushes an event to every listener, as the main side would. */
  emit(e: ApiEvent): void;
  /** Appends an entry as another process would and emits the session event. */
  appendExternal(key: string, entry: FakeEntry): void;
  calls: { method: string; req: unknown }[];
  setLocked(v: boolean): void;
}

const roleOf = (e: FakeEntry): EntryRole | null => {
  const m = e.message as { role?: EntryRole } | undefined;
  return e.kind === 'message' && m ? (m.role ?? null) : null;
};
const textOf = (e: FakeEntry): string => {
  if (e.kind === 'header') return String(e.model ?? 'header');
  const m = e.message as { content?: { type: string; text?: string; name?: string }[] } | undefined;
  const b = m?.content?.find((c) => c.type === 'text' || c.type === 'tool_use' || c.type === 'tool_result');
  if (b?.type === 'text') return b.text ?? '';
  if (b?.type === 'tool_use') return b.name ?? '';
  if (b?.type === 'tool_result') return '(tool result)';
  return e.kind;
};
const tokensOf = (v: Json, bpt: number): number => 4 + Math.ceil(JSON.stringify(v).length / bpt);

/** An in-memory Api over tiny ledgers: enough of the contract's behaviour for component tests. */
export function createFakeApi(opts: FakeApiOptions = {}): FakeApi {
  const home = opts.home ?? DEMO_HOME;
  const sessions = opts.sessions ?? demoSessions();
  const store: Record<string, FakeEntry[]> =
    opts.entries ?? Object.fromEntries(sessions.map((s) => [s.key, demoEntries()]));
  const listeners = new Set<(e: ApiEvent) => void>();
  const calls: { method: string; req: unknown }[] = [];
  let locked = opts.locked ?? false;
  let branchSeq = 0;

  const entriesOf = (key: string): FakeEntry[] => {
    const e = store[key];
    if (!e) throw new ApiError('not_found', `no session ${key}`);
    return e;
  };
  const byId = (key: string, id: string): FakeEntry => {
    const e = entriesOf(key).find((x) => x.id === id);
    if (!e) throw new ApiError('not_found', `no entry ${id}`);
    return e;
  };
  const chainTo = (key: string, leaf: string): FakeEntry[] => {
    const out: FakeEntry[] = [];
    let cur: FakeEntry | undefined = byId(key, leaf);
    while (cur) {
      out.unshift(cur);
      cur = cur.parent_id ? entriesOf(key).find((x) => x.id === cur!.parent_id) : undefined;
    }
    return out;
  };
  const activeLeaf = (key: string): string | null => entriesOf(key).at(-1)?.id ?? null;

  const allRows = (key: string, fold: boolean): TreeRow[] => {
    const es = entriesOf(key);
    const children = new Map<string, string[]>();
    for (const e of es) if (e.parent_id) children.set(e.parent_id, [...(children.get(e.parent_id) ?? []), e.id]);
    const lane = new Map<string, number>();
    let nextLane = 0;
    for (const e of es) {
      const p = e.parent_id;
      if (p && children.get(p)?.[0] === e.id && lane.has(p)) lane.set(e.id, lane.get(p)!);
      else lane.set(e.id, nextLane++);
    }
    const laneSpan = new Map<number, [number, number]>();
    es.forEach((e, i) => {
      const l = lane.get(e.id)!;
      const start = e.parent_id ? es.findIndex((x) => x.id === e.parent_id) : i;
      const cur = laneSpan.get(l);
      laneSpan.set(l, [Math.min(cur?.[0] ?? start, start), Math.max(cur?.[1] ?? i, i)]);
    });
    const act = activeLeaf(key);
    const rows: TreeRow[] = [];
    for (let i = 0; i < es.length; i++) {
      const e = es[i];
      let count = 1;
      if (fold && isAuditKindName(e.kind)) while (i + count < es.length && isAuditKindName(es[i + count].kind)) count++;
      const l = lane.get(e.id)!;
      const pl = e.parent_id ? lane.get(e.parent_id)! : null;
      const kids = children.get(e.id)?.length ?? 0;
      rows.push({
        row: rows.length,
        index: i,
        id: e.id,
        parentId: e.parent_id,
        kind: e.kind,
        role: roleOf(e),
        control: false,
        line: i + 1,
        ts: e.ts,
        text: count > 1 ? `${count} audit entries` : textOf(e),
        children: kids,
        isBranchPoint: kids > 1,
        isLeaf: kids === 0,
        isActiveLeaf: e.id === act,
        isOrphan: false,
        hasWarning: e.id === 'e04',
        lane: l,
        through: [...laneSpan.entries()].filter(([x, [a, b]]) => x !== l && a < i && b > i).map(([x]) => x),
        forkFrom: pl !== null && pl !== l ? pl : null,
        forkTo: (children.get(e.id) ?? []).map((c) => lane.get(c)!).filter((x) => x !== l),
        folded: count > 1 ? { count, kinds: es.slice(i, i + count).map((x) => x.kind) } : null,
      });
      i += count - 1;
    }
    return rows;
  };

  const project = (req: LeafRequest): { projection: Projection; chain: ChainItem[]; turnOptions: TurnOption[] } => {
    const leaf = req.leaf ?? activeLeaf(req.key)!;
    const chain = chainTo(req.key, leaf);
    const bpt = req.profile.bytes_per_token;
    const header = chain[0];
    const messages: ProjectedMessage[] = [];
    const plan: PlanRow[] = [];
    const hidden = new Map<string, HiddenReason>();
    const turnOf = new Map<string, string | null>();
    let turn: string | null = null;
    const turns: { id: string; entries: FakeEntry[] }[] = [];
    for (const e of chain) {
      if (roleOf(e) === 'user') {
        turn = e.id;
        turns.push({ id: e.id, entries: [] });
      }
      turnOf.set(e.id, turn);
      if (turn) turns.at(-1)!.entries.push(e);
    }
    const lastMsg = chain.filter((e) => e.kind === 'message').at(-1);
    const openTurn = lastMsg && roleOf(lastMsg) !== 'assistant' ? turns.at(-1)?.id : undefined;
    for (const t of turns) {
      const card = chain.find((e) => e.kind === 'turn_card' && (e.turn_card as { turn_id: string }).turn_id === t.id);
      const forced = req.overrides[t.id]?.fidelity;
      const asCard =
        t.id !== openTurn &&
        card &&
        (forced === 'card' || (!forced && req.plan === 'auto' && req.profile.window < 1000));
      if (asCard) {
        const content: Json[] = [{ type: 'text', text: `[turn card] ${(card.turn_card as { line: string }).line}` }];
        const tokens = tokensOf(content, bpt);
        messages.push({ role: 'user', content, fidelity: 'card', turn_id: t.id, source_ids: [card.id], tokens });
        plan.push({ turn_id: t.id, fidelity: 'card', packet_id: null, tokens });
        for (const e of t.entries) if (e.kind === 'message') hidden.set(e.id, 'as card');
        continue;
      }
      let sum = 0;
      for (const e of t.entries) {
        if (e.kind !== 'message') continue;
        const m = e.message as { role: 'user' | 'assistant' | 'tool'; content: Json[] };
        const content = m.content.filter((b) => (b as { type: string }).type !== 'thinking');
        const tokens = tokensOf(content, bpt);
        sum += tokens;
        messages.push({
          role: m.role,
          content,
          fidelity: t.id === openTurn ? 'open' : 'full',
          turn_id: t.id,
          source_ids: [e.id],
          tokens,
        });
      }
      if (t.id !== openTurn) plan.push({ turn_id: t.id, fidelity: 'full', packet_id: null, tokens: sum });
    }
    const tail: Json[] = [{ type: 'text', text: `[tail]\ntime: ${chain.at(-1)!.ts}` }];
    messages.push({
      role: 'user',
      content: tail,
      fidelity: 'tail',
      turn_id: null,
      source_ids: [leaf],
      tokens: tokensOf(tail, bpt),
    });
    const system = String(header.system_prompt ?? '');
    const tools = (header.tools as Json[]) ?? [];
    const sysT = Math.ceil(system.length / bpt);
    const toolsT = Math.ceil(JSON.stringify(tools).length / bpt);
    const msgT = messages.reduce((a, m) => a + m.tokens, 0);
    const available = req.profile.window - req.profile.reserve - sysT - toolsT;
    const projection: Projection = {
      leaf,
      system,
      tools,
      messages,
      plan,
      tokens: { system: sysT, tools: toolsT, messages: msgT, total: sysT + toolsT + msgT, available },
      over_budget: Math.max(0, msgT - available),
      notes: [],
    };
    const items: ChainItem[] = chain.map((e, pos) => {
      const projectedAs = messages.flatMap((m, i) => (m.source_ids.includes(e.id) ? [i] : []));
      const h: HiddenReason | null =
        hidden.get(e.id) ??
        (e.kind === 'header'
          ? 'header'
          : projectedAs.length === 0
            ? isAuditKindName(e.kind)
              ? 'audit'
              : 'empty'
            : null);
      return {
        pos,
        id: e.id,
        index: entriesOf(req.key).indexOf(e),
        kind: e.kind,
        role: roleOf(e),
        control: false,
        line: entriesOf(req.key).indexOf(e) + 1,
        ts: e.ts,
        text: textOf(e),
        turnId: turnOf.get(e.id) ?? null,
        projectedAs,
        hidden: h,
      };
    });
    const closed = turns.filter((t) => t.id !== openTurn).map((t) => t.id);
    return { projection, chain: items, turnOptions: fakeTurnOptions(chain, closed) };
  };

  const log = (method: string, req: unknown): void => void calls.push({ method, req });

  const sessionInfo = (key: string): SessionInfo => {
    const es = entriesOf(key);
    const summary = sessions.find((s) => s.key === key)!;
    const usage = { input_tokens: 600, output_tokens: 90, cache_read_tokens: 0, cache_write_tokens: 0, messages: 3 };
    return {
      key,
      summary,
      header: {
        sessionId: summary.sessionId,
        model: 'claude-sonnet-4-5',
        provider: 'anthropic',
        cwd: summary.cwd,
        appVersion: '0.9.3',
        permissionMode: 'ask',
      },
      entryCount: es.length,
      activeLeaf: activeLeaf(key),
      warningCount: 1,
      branchPoints: allRows(key, false).filter((r) => r.isBranchPoint).length,
      leaves: allRows(key, false).filter((r) => r.isLeaf).length,
      rowCount: allRows(key, false).length,
      foldedRowCount: allRows(key, true).length,
      laneCount: 2,
      usage: { activeChain: usage, allBranches: { ...usage, input_tokens: 650, messages: 4 } },
      work: [
        {
          work_id: 'w1',
          state: 'open',
          last_event: 'opened',
          detail: 'evict by size',
          events: 1,
          first_entry: 'e11',
          last_entry: 'e11',
          last_ts: es[0].ts,
        },
      ],
      childRuns: [],
      appendOnlyBreaks: [],
    };
  };

  const api: FakeApi = {
    calls,
    setLocked: (v) => void (locked = v),
    emit: (e) => listeners.forEach((l) => l(e)),
    appendExternal(key, entry) {
      entriesOf(key).push(entry);
      api.emit({
        type: 'session',
        key,
        change: 'appended',
        entryCount: entriesOf(key).length,
        activeLeaf: entry.id,
        newIds: [entry.id],
      });
    },
    onEvent(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async getHome(req) {
      log('getHome', req);
      return home;
    },
    async listSessions(req) {
      log('listSessions', req);
      return sessions;
    },
    async openSession(req) {
      log('openSession', req);
      return sessionInfo(req.key);
    },
    async getTreeRows(req) {
      log('getTreeRows', req);
      const rows = allRows(req.key, req.foldAudit);
      return { total: rows.length, laneCount: 2, rows: rows.slice(req.start, req.start + req.count) };
    },
    async findRow(req) {
      log('findRow', req);
      const rows = allRows(req.key, req.foldAudit);
      const i = entriesOf(req.key).findIndex((e) => e.id === req.id);
      if (i < 0) throw new ApiError('not_found', `no entry ${req.id}`);
      const r = rows.filter((x) => x.index <= i).at(-1)!;
      return { row: r.row };
    },
    async getEntry(req) {
      log('getEntry', req);
      const e = byId(req.key, req.id);
      const index = entriesOf(req.key).indexOf(e);
      const raw = JSON.stringify(e);
      return {
        id: e.id,
        index,
        line: index + 1,
        offset: index * 200,
        length: raw.length,
        kind: e.kind,
        raw,
        sliceStart: 0,
        sliceEnd: raw.length,
        truncated: false,
        json: e as unknown as Json,
      };
    },
    async getLeafView(req) {
      log('getLeafView', req);
      const { projection, chain, turnOptions } = project(req);
      return fakeLeafView(projection, chain, turnOptions);
    },
    async getChainItems(req) {
      log('getChainItems', req);
      return fakeChainItems(project(req).chain, req);
    },
    async getProjectedMessage(req) {
      log('getProjectedMessage', req);
      return project(req).projection.messages[req.message];
    },
    async getWarnings(req) {
      log('getWarnings', req);
      entriesOf(req.key);
      return [
        { code: 'hash_mismatch', line: 4, offset: 600, id: 'e04', message: 'prev_hash does not match line 3' },
        { code: 'torn_line', line: 9, offset: 1400, message: 'line is not valid JSON' },
      ] satisfies LedgerWarning[];
    },
    async getLine(req) {
      log('getLine', req);
      entriesOf(req.key);
      const text = req.offset === 1400 ? '{"id":"e09","parent_id":"e08","ts":"2026-' : '{"id":"e04"}';
      return { offset: req.offset, length: text.length, text, validUtf8: true, terminated: true, truncated: false };
    },
    async branch(req) {
      log('branch', req);
      if (locked) throw new ApiError('locked', 'the session file is locked by another process');
      if (!req.text.trim()) throw new ApiError('bad_request', 'the text is empty');
      byId(req.key, req.parentId);
      const id = `b${++branchSeq}`;
      const es = entriesOf(req.key);
      es.push({
        id,
        parent_id: req.parentId,
        ts: new Date().toISOString(),
        kind: 'message',
        message: { role: 'user', content: [{ type: 'text', text: req.text }] },
      });
      queueMicrotask(() =>
        api.emit({
          type: 'session',
          key: req.key,
          change: 'appended',
          entryCount: es.length,
          activeLeaf: id,
          newIds: [id],
        }),
      );
      return { id, parentId: req.parentId, line: es.length, offset: es.length * 200 };
    },
    async subscribe(req) {
      log('subscribe', req);
      return { subscription: `sub-${calls.length}` };
    },
    async unsubscribe(req) {
      log('unsubscribe', req);
      return {};
    },
  };
  return api;
}

export { SESSION_A };
