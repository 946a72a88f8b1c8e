/** The plan, its profile, compare, branching, folding and the drawer's panels. */
import type { AppState } from '../store/types';
import type { CapacityProfile } from '../../shared/ledger-types';
import { parseDecimalInteger } from '../../shared/decimal-integer';
import { profileProblem } from '../util/profile-rules';
import type { Action, ActionPrompt } from './action';
import { hasOpenSession, hasSelectedEntry } from './enabled';

/** The number typed at a profile prompt ("200,000" and "200_000" too), or null. */
const parseWhole = (input: string): number | null => {
  const t = input.trim().replace(/[_,\s]/g, '');
  return parseDecimalInteger(t, 999_999_999_999);
};

/** Sets one field of the profile; the prompt refuses what the plan bar would (profile-rules.ts). */
const profileAction = (field: keyof CapacityProfile, title: string, label: string): Action => {
  const prompt: ActionPrompt = {
    label,
    initial: (s: AppState) => String(s.profile[field]),
    check: (input, s) => {
      const n = parseWhole(input);
      if (n === null) return 'type a whole number';
      return profileProblem({ ...s.profile, [field]: n });
    },
  };
  return {
    id: `profile.${field}`,
    title,
    prompt,
    run: ({ state, input }) => {
      const n = input === undefined ? null : parseWhole(input);
      if (n === null || profileProblem({ ...state.profile, [field]: n }) !== null) return;
      state.setProfile({ [field]: n });
    },
  };
};

const panel = (name: 'warnings' | 'usage' | 'plan' | 'work', title: string, keys?: string[]): Action => ({
  id: `panel.${name}`,
  title,
  ...(keys ? { keys } : {}),
  run: ({ state }) => state.togglePanel(name),
});

export const viewActions: readonly Action[] = [
  {
    id: 'plan.toggle',
    title: 'Switch plan: none ↔ auto',
    keys: ['p'],
    run: ({ state }) => state.setPlan(state.plan === 'auto' ? 'none' : 'auto'),
  },
  { id: 'plan.none', title: 'Plan: none (every turn Full)', run: ({ state }) => state.setPlan('none') },
  { id: 'plan.auto', title: 'Plan: auto (§6 budget plan)', run: ({ state }) => state.setPlan('auto') },
  profileAction('window', 'Set profile: context window…', 'Context window in tokens'),
  profileAction('reserve', 'Set profile: reserve…', 'Reserve in tokens'),
  profileAction('bytes_per_token', 'Set profile: bytes per token…', 'Bytes per token'),
  {
    id: 'compare.toggle',
    title: 'Compare (two plans or two leaves)',
    keys: ['c'],
    run: ({ state }) => state.toggleCompare(),
    enabled: hasOpenSession,
  },
  {
    id: 'compare.diff',
    title: 'Text diff in compare',
    keys: ['d'],
    run: ({ state }) => state.toggleDiff(),
    enabled: (s) => s.compare.open,
  },
  {
    id: 'compare.nextChange',
    title: 'Text diff: next change (also F7)',
    keys: ['n', 'F7'],
    run: ({ state }) => state.stepDiff(1),
    enabled: (s) => s.compare.open && s.compare.diff,
  },
  {
    // Shift+F7 is caught by the diff view itself: a chord of Shift and a named key reads as the key alone.
    id: 'compare.prevChange',
    title: 'Text diff: previous change (also Shift+F7)',
    keys: ['N'],
    run: ({ state }) => state.stepDiff(-1),
    enabled: (s) => s.compare.open && s.compare.diff,
  },
  {
    id: 'branch.compose',
    title: 'Branch from the selected entry',
    keys: ['b'],
    run: ({ state }) => {
      // The selection, not the view still drawn for the previous one (a click then `b` at once).
      const id = state.leaf ?? state.leafView?.leaf ?? null;
      if (id) state.openComposer(id);
    },
    enabled: hasSelectedEntry,
  },
  {
    id: 'tree.foldAudit',
    title: 'Fold audit runs (on / off)',
    keys: ['a'],
    run: ({ state }) => state.toggleFoldAudit(),
  },
  panel('warnings', 'Warnings panel', ['w']),
  panel('usage', 'Usage panel', ['u']),
  panel('plan', 'Turns of the plan panel', ['t']),
  panel('work', 'Work panel'),
];
