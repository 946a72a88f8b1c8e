import { useAppStore } from '../store/app-store';
import { lazyPart } from '../util/lazy-parts';

/** The palette's own chunk (util/lazy-parts.tsx): a first screen never draws it. */
const CommandPalette = lazyPart(
  () => import('./command-palette'),
  (m: typeof import('./command-palette')) => m.CommandPalette,
);

/** The command palette while it is open (each opening starts with an empty query). */
export function PaletteHost() {
  const open = useAppStore((s) => s.paletteOpen);
  return open ? <CommandPalette /> : null;
}
