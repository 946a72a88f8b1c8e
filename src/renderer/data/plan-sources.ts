/**
 * A leaf view's plan rows, read as they come on screen (a leaf view carries only the
 * plan's outline, whatever the number of turns): by window for the turns panel and the strip's
 * tooltip, by id for the tree's turn markers. One of each per view, made anew for every view
 * (the view's leaf pinned: an append must not move it), so rows of two plans never mix.
 */
import type { Api, LeafRequest, LeafView, PlanTurn } from '../../shared/api';
import { MAX_PLAN_TURNS } from '../../shared/api';
import type { TurnFidelity } from '../../shared/ledger-types';
import { PagedSource } from './paged-source';

/** Plan turns per page (a turns panel shows a few dozen; a strip segment is read whole when it is small). */
export const PLAN_PAGE = 200;
/** Pages kept: ~6k turns, whatever the plan's length. */
export const PLAN_MAX_PAGES = 32;

export type PlanTurnsSource = PagedSource<PlanTurn>;

const byView = new WeakMap<LeafView, { key: string; source: PlanTurnsSource }>();

/** The request a view's rows are read with: its own leaf, whatever `req` said (null follows appends). */
const pinnedOf = (req: LeafRequest, view: LeafView): LeafRequest => ({ ...req, leaf: view.leaf });

/** The plan turns of `view` (answering `req`), shared by everything that shows them (panel, strip). */
export function planTurnsSource(api: Api, req: LeafRequest, view: LeafView): PlanTurnsSource {
  const key = JSON.stringify([req.key, req.plan, req.profile, req.overrides]);
  const have = byView.get(view);
  if (have && have.key === key) return have.source;
  const pinned = pinnedOf(req, view);
  const source = new PagedSource<PlanTurn>({
    pageSize: PLAN_PAGE,
    maxPages: PLAN_MAX_PAGES,
    total: view.plan.turns,
    fetch: async (start, count, signal) => {
      const r = await api.getPlanTurns({ ...pinned, start, count }, { signal });
      return { start, items: r.turns, total: r.total };
    },
  });
  byView.set(view, { key, source });
  return source;
}

/**
 * The fidelity of the turns named on screen (the tree's rows), asked by id in batches of what is
 * not known yet. Until an answer arrives, the previous view's fidelity of the same turn stands in
 * (neighbouring leaves share their closed turns), so markers do not blink while moving.
 */
export class TurnFidelities {
  private readonly known = new Map<string, TurnFidelity | null>();
  private readonly asked = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private abort = new AbortController();
  private readonly pinned: LeafRequest;
  /** What stands in until answers come: the previous view's answers (a map, never a chain of lookups). */
  private readonly fallback: ReadonlyMap<string, TurnFidelity | null>;

  constructor(
    private readonly api: Api,
    req: LeafRequest,
    readonly view: LeafView,
    previous: TurnFidelities | null,
  ) {
    this.pinned = pinnedOf(req, view);
    this.fallback = !previous ? new Map() : previous.known.size > 0 ? previous.known : previous.fallback;
  }

  /** The turn's fidelity; null when `id` is no closed turn of the plan (or not known yet). */
  get(id: string): TurnFidelity | null {
    const f = this.known.get(id);
    return f !== undefined ? f : (this.fallback.get(id) ?? null);
  }

  /** Asks for the ids not asked yet (one request, at most MAX_PLAN_TURNS ids). */
  want(ids: readonly string[]): void {
    const fresh = [...new Set(ids)].filter((id) => !this.asked.has(id)).slice(0, MAX_PLAN_TURNS);
    if (fresh.length === 0 || this.view.plan.turns === 0) return;
    for (const id of fresh) this.asked.add(id);
    const signal = this.abort.signal;
    this.api.getPlanTurns({ ...this.pinned, ids: fresh }, { signal }).then(
      (r) => {
        if (signal.aborted) {
          for (const id of fresh) this.asked.delete(id);
          return;
        }
        for (const id of fresh) this.known.set(id, null);
        for (const t of r.turns) this.known.set(t.turn_id, t.fidelity);
        this.notify();
      },
      () => {
        // Dropped (a newer view) or failed: asked again when it comes on screen again.
        for (const id of fresh) this.asked.delete(id);
      },
    );
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /** Nothing shows this view now: its requests under way are dropped (asked again if it shows again). */
  cancel(): void {
    this.abort.abort();
    this.abort = new AbortController();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }
}

const fidelitiesByView = new WeakMap<LeafView, TurnFidelities>();
/** The newest lookup made: the next one of the same session starts from its answers. */
let lastFidelities: { key: string; lookup: TurnFidelities } | null = null;

/** The turn fidelity lookup of `view` (answering `req`), one per view. */
export function turnFidelitiesFor(api: Api, req: LeafRequest, view: LeafView): TurnFidelities {
  const have = fidelitiesByView.get(view);
  if (have) return have;
  const previous = lastFidelities && lastFidelities.key === req.key ? lastFidelities.lookup : null;
  const lookup = new TurnFidelities(api, req, view, previous);
  fidelitiesByView.set(view, lookup);
  lastFidelities = { key: req.key, lookup };
  return lookup;
}

/** A tree row that can be a closed turn's directive (§4: a user message that is not a control nudge). */
export const mayStartTurn = (row: { kind: string; role: string | null; control: boolean }): boolean =>
  row.kind === 'message' && row.role === 'user' && !row.control;
