import { useEffect, useRef, useState } from 'react';
import { describeError } from '../api/api-methods';
import { copyText } from './clipboard';

interface Props {
  /** What the button says, e.g. "copy id". */
  label: string;
  /** The accessible name (defaults to the label). */
  name?: string;
  /** The text to copy (fetched when it is not at hand: a raw line, a clipped message). */
  text: () => string | Promise<string>;
  className?: string;
  /** Another way to get the text when copying failed with this error (a save for a text too big to copy). */
  offer?: (e: unknown) => { label: string; run: () => Promise<unknown> } | null;
}

/**
 * The accessible name: the given name when it holds the words shown, else the shown words then
 * the name. A name without the visible text fails speech users ("click copy all" finds nothing)
 * and axe's label-content-name-mismatch.
 */
export function copyButtonName(label: string, name: string | undefined): string {
  if (!name) return label;
  return name.toLowerCase().includes(label.toLowerCase()) ? name : `${label}: ${name}`;
}

/** A copy button that says "copied" for a moment, or why it failed, in place. */
export function CopyButton({ label, name, text, className, offer }: Props) {
  const [state, setState] = useState<{ done: boolean; error: string | null }>({ done: false, error: null });
  const [instead, setInstead] = useState<{ label: string; run: () => Promise<unknown> } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const copy = async () => {
    setInstead(null);
    try {
      await copyText(await text());
      setState({ done: true, error: null });
    } catch (e) {
      setState({ done: false, error: describeError(e) });
      setInstead(offer?.(e) ?? null);
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState((s) => (s.error ? s : { done: false, error: null })), 1500);
  };
  return (
    <span className={`copy-button${className ? ` ${className}` : ''}`}>
      <button type="button" onClick={() => void copy()} aria-label={copyButtonName(label, name)} title={name ?? label}>
        {state.done ? 'copied ✓' : label}
      </button>
      {state.error && (
        <span className="error copy-error" role="alert">
          {state.error}
          {instead && (
            <>
              {' '}
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  const run = instead.run;
                  setInstead(null);
                  run().catch((e: unknown) => setState({ done: false, error: describeError(e) }));
                }}
              >
                {instead.label}
              </button>
            </>
          )}
        </span>
      )}
    </span>
  );
}
