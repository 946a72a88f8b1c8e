import { useAppStore } from '../store/app-store';
import { CommandPalette } from './command-palette';

/** The command palette while it is open (each opening starts with an empty query). */
export function PaletteHost() {
  const open = useAppStore((s) => s.paletteOpen);
  return open ? <CommandPalette /> : null;
}
