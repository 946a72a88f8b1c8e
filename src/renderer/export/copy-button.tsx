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
export function CopyButton({ label, name, text, className }: Props) {
  const [state, setState] = useState<{ done: boolean; error: string | null }>({ done: false, error: null });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const copy = async () => {
    try {
      await copyText(await text());
      setState({ done: true, error: null });
    } catch (e) {
      setState({ done: false, error: describeError(e) });
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
        </span>
      )}
    </span>
  );
}
