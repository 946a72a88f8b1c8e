import type { CostBlock, TokenCounts } from '../../shared/api-features';

/** US dollars: cents for sums of a dollar or more, four decimals below (a turn costs fractions of a cent). */
export function fmtUsd(n: number): string {
  return `$${n.toFixed(Math.abs(n) >= 1 ? 2 : 4)}`;
}

/** A block's cost as shown: the sum of priced models; "+ unpriced" when some tokens have no price; tokens only when none has. */
export function costText(b: CostBlock): string {
  const priced = b.byModel.some((m) => m.usd !== null);
  if (!priced) return b.byModel.length === 0 ? fmtUsd(0) : 'tokens only';
  return b.complete ? fmtUsd(b.usd) : `${fmtUsd(b.usd)} + unpriced`;
}

/** Models of a block that the price table does not know. */
export function unpricedModels(...blocks: CostBlock[]): string[] {
  const out = new Set<string>();
  for (const b of blocks) for (const m of b.byModel) if (m.usd === null) out.add(m.model);
  return [...out].sort();
}

export const TOKEN_FIELDS: [keyof TokenCounts, string][] = [
  ['input', 'input'],
  ['output', 'output'],
  ['cacheRead', 'cache read'],
  ['cacheWrite', 'cache write'],
];

/** Calls counted in a block (over its models). */
export const callsOf = (b: CostBlock): number => b.byModel.reduce((a, m) => a + m.calls, 0);
