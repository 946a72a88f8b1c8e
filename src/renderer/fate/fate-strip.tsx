import { useState, type KeyboardEvent } from 'react';
import type { EntryFate } from '../../shared/api-features';
import { useAppStore } from '../store/app-store';
import { fateLabel, fateRuns, runText, type FateRun } from './fate-runs';
import { shortId } from '../util/format';
import { useEntryFate } from './use-entry-fate';
import './fate.css';

/** The fate strip's body (fate-host.tsx draws it while the strip is open). */
export function FatePanel() {
  const toggle = useAppStore((s) => s.toggleFate);
  const { entry, fate, b, error, loading } = useEntryFate(true);
  // Compare open: the lines are named for what differs, the plan or the leaf.
  // Two leaves' chains can have different numbers of turn ends after the entry: one scale for both.
  const scale = Math.max(fate?.rows.length ?? 0, b?.fate?.rows.length ?? 0);
  const names = !b
    ? null
    : b.mode === 'plan'
      ? ['Plan A', 'Plan B']
      : [`Leaf A (${leafName(fate?.leaf ?? null)})`, `Leaf B (${leafName(b.fate?.leaf ?? b.leaf)})`];
  return (
    <section className="fate-strip" aria-label="Fate of the pinned entry">
      <header className="fate-head">
        <b>Fate</b>
        {entry === null ? (
          <span className="dim">
            Pin an entry in the History (click its id) to see how it reached the model at every later turn end.
          </span>
        ) : (
          <span className="dim">
            of {fate ? `${fate.kind} ` : ''}
            <code>{entry}</code>
            {fate && fate.turn > 0 ? ` (turn ${fate.turn})` : ''}
            {loading ? ' · working…' : ''}
          </span>
        )}
        {error && (
          <span className="error" role="alert">
            {error}
          </span>
        )}
        <button type="button" className="fate-close" onClick={() => toggle(false)} aria-label="Hide the fate strip (F)">
          ✕
        </button>
      </header>
      {fate && <FateLine fate={fate} label={names ? 'A' : null} name={names?.[0]} scale={scale} />}
      {fate && b?.fate && <FateLine fate={b.fate} label="B" name={names?.[1]} scale={scale} />}
      {fate && b?.offChain && (
        <div className="fate-line" data-side="B">
          <span className="fate-side">B</span>
          <p className="fate-off-chain dim" data-testid="fate-reason-B">
            {names?.[1]}: not on this leaf&apos;s chain, so this entry never reaches B&apos;s model
          </p>
        </div>
      )}
    </section>
  );
}

const leafName = (leaf: string | null): string => (leaf === null ? 'the active leaf' : shortId(leaf));

/** One plan's strip: a run per stretch of turn ends with one fate, the first one no longer sent as itself marked. */
function FateLine({
  fate,
  label,
  name: side,
  scale,
}: {
  fate: EntryFate;
  label: string | null;
  name?: string;
  /** Turn ends the widest line has: a shorter chain ends early on the same scale. */
  scale: number;
}) {
  const runs = fateRuns(fate);
  const [focus, setFocus] = useState(-1);
  const total = fate.rows.length;
  const at = focus >= 0 && focus < runs.length ? focus : -1;
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const from = at >= 0 ? at : 0;
    const move = new Map([
      ['ArrowLeft', from - 1],
      ['ArrowRight', at >= 0 ? from + 1 : 0],
      ['Home', 0],
      ['End', runs.length - 1],
    ]).get(e.key);
    if (move === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    setFocus(Math.max(0, Math.min(runs.length - 1, move)));
  };
  const shown: FateRun | null = at >= 0 ? runs[at] : null;
  const name = side ? `${side}: ` : '';
  return (
    <div className="fate-line" data-side={label ?? 'A'}>
      {label && <span className="fate-side">{label}</span>}
      <div className="fate-body">
        <div
          className="fate-runs"
          tabIndex={0}
          role="slider"
          aria-label={`${name}fate per turn end: ←/→ move between stretches`}
          aria-valuemin={runs.length > 0 ? 1 : 0}
          aria-valuemax={runs.length}
          aria-valuenow={at + 1}
          aria-valuetext={shown ? runText(shown) : runs.map(runText).join('; ')}
          onKeyDown={onKey}
          onBlur={() => setFocus(-1)}
        >
          {runs.map((r, k) => (
            <span
              key={r.first}
              className={`fate-run fate-${r.fidelity}${r.change ? ' fate-change' : ''}${k === at ? ' fate-focus' : ''}`}
              style={{ flexGrow: r.count, flexBasis: 0 }}
              title={runText(r)}
              data-fidelity={r.fidelity}
              data-turns={`${r.fromTurn}-${r.toTurn}`}
              onMouseEnter={() => setFocus(k)}
            />
          ))}
          {scale > total && <span className="fate-beyond" style={{ flexGrow: scale - total, flexBasis: 0 }} />}
        </div>
        <div className="fate-words" aria-live="polite">
          {shown ? (
            <span className="fate-shown">{runText(shown)}</span>
          ) : (
            <span className="fate-reason" data-testid={`fate-reason-${label ?? 'A'}`}>
              {name}
              {fate.change
                ? fate.change.reason
                : total === 0
                  ? 'no turn end after it on this chain'
                  : `sent as itself at all ${total} turn ends from its own on`}
            </span>
          )}
          <span className="fate-legend dim">
            {[...new Set(runs.map((r) => r.fidelity))].map((f) => (
              <span key={f} className="fate-key">
                <i className={`fate-swatch fate-${f}`} />
                {fateLabel(f)}
              </span>
            ))}
          </span>
        </div>
      </div>
    </div>
  );
}
