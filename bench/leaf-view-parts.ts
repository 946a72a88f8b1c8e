/**
 * What a leaf view's answer is made of on the 100 MB session, field by field (JSON characters),
 * for the active leaf and a few leaves along the chain. node bin/run-ts.mjs bench/leaf-view-parts.ts
 */
import { real100InProcess } from './real100-in-process';
import type { LeafView } from '../src/shared/api';
import { leafRequest } from './real100-selection';

const { backend, client, key } = await real100InProcess();
await backend.call('openSession', { key }, client);
const kb = (v: unknown): string => `${(JSON.stringify(v).length / 1024).toFixed(1)}`;
const report = (label: string, v: LeafView): void => {
  const { projection, messagePages, chain, ...rest } = v;
  const parts: [string, unknown][] = [
    ['chain', chain],
    ...messagePages.map((p, k) => [`page${k}@${p.start}(${p.messages.length})`, p] as [string, unknown]),
    ['system', projection.system],
    ['tools', projection.tools],
    ['notes', projection.notes],
    ...Object.entries(rest),
  ];
  console.log(
    `${label}: ${kb(v)} KB = ${parts
      .map(([k, x]) => [k, JSON.stringify(x)?.length ?? 0] as const)
      .filter(([, n]) => n > 200)
      .map(([k, n]) => `${k} ${(n / 1024).toFixed(1)}`)
      .join(', ')}`,
  );
};
/** The screen the page asks for in a 1600×1000 window (the bench's), as leaf-screen.ts sizes it. */
const screen = { chainRows: Math.ceil(1000 / 22) + 12, messages: Math.ceil(1000 / 40) + 6 };
const view = async (leaf: string | null, withScreen: boolean): Promise<LeafView> =>
  (await backend.call(
    'getLeafView',
    { ...leafRequest(key, leaf), pagedMessages: true, ...(withScreen ? { screen } : {}) },
    client,
  )) as LeafView;
const active = await view(null, false);
report('active', active);
report('active, screen', await view(null, true));
for (const f of [0.1, 0.5, 0.9]) {
  const pos = Math.floor(active.chainLength * f);
  const page = (await backend.call('getChainItems', { ...leafRequest(key, null), start: pos, count: 1 }, client)) as {
    items: { id: string }[];
  };
  const id = page.items[0].id;
  report(`leaf @${f}`, await view(id, false));
  report(`leaf @${f}, screen`, await view(id, true));
}
await backend.close();
