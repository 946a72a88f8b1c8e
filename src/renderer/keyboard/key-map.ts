/**
 * How a key press is named for the action registry (actions/registry.ts), and how a name is
 * shown. A chord is a `KeyboardEvent.key` (`j`, `?`, `ArrowDown`, `Escape`), or, with Ctrl/⌘
 * or Alt held, the modifiers and the key in capitals: `Mod+K`, `Mod+Shift+F`. Shift alone is
 * part of the key already (`?` is Shift+/ on a US layout, `$` Shift+4).
 */
import { ownValue } from '../../shared/own-key';

/** A Mac shows ⌘ where other systems show Ctrl. */
export const isMac = (): boolean => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The chord a key press makes, or null for a bare modifier press. */
export function keyChord(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): string | null {
  if (e.key === 'Control' || e.key === 'Meta' || e.key === 'Alt' || e.key === 'Shift') return null;
  const mod = e.ctrlKey || e.metaKey;
  if (!mod && !e.altKey) return e.key;
  const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  return [mod ? 'Mod' : null, e.altKey ? 'Alt' : null, e.shiftKey ? 'Shift' : null, key].filter(Boolean).join('+');
}

/** A chord with Ctrl/⌘ or Alt: it works even while typing in a field. */
export const isModChord = (chord: string): boolean => chord.startsWith('Mod+') || chord.startsWith('Alt+');

const NAMES: Record<string, string> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
  Escape: 'Esc',
  ' ': 'Space',
};

/** A chord as people read it: `Ctrl+Shift+F` (`⌘⇧F` on a Mac), `↓`, `Esc`. */
export function chordLabel(chord: string, mac: boolean = isMac()): string {
  const parts = chord.split('+');
  // A chord of the `+` key itself ends in an empty part.
  const key = chord.endsWith('++') || chord === '+' ? '+' : (parts.pop() ?? '');
  const mods = chord === '+' ? [] : parts.filter((p) => p !== '');
  const name = ownValue(NAMES, key) ?? key;
  if (mac) {
    const sym: Record<string, string> = { Mod: '⌘', Alt: '⌥', Shift: '⇧' };
    return mods.map((m) => ownValue(sym, m) ?? m).join('') + name;
  }
  return [...mods.map((m) => (m === 'Mod' ? 'Ctrl' : m)), name].join('+');
}

/** Every chord of an action, as the overlay and the palette show them: `j / ↓`. */
export const keysLabel = (keys: readonly string[], mac: boolean = isMac()): string =>
  keys.map((k) => chordLabel(k, mac)).join(' / ');
