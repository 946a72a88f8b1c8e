import { lazyPart } from '../util/lazy-parts';
import { useAppStore } from '../store/app-store';

/** The strip's own chunk (util/lazy-parts.tsx): a first screen has it closed. */
const FatePanel = lazyPart(
  () => import('./fate-strip'),
  (m: typeof import('./fate-strip')) => m.FatePanel,
);

/** The fate strip (toggle: F): how the pinned History entry reached the model at every later turn end. */
export function FateStrip() {
  const open = useAppStore((s) => s.fateOpen);
  const key = useAppStore((s) => s.sessionKey);
  if (!open || !key) return null;
  return <FatePanel />;
}
