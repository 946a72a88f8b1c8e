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
      <button type="button" onClick={() => void copy()} aria-label={name ?? label} title={name ?? label}>
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
