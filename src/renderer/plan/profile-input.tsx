import { useState } from 'react';

interface Props {
  label: string;
  value: number;
  min: number;
  max: number;
  onCommit: (n: number) => void;
}

/** A whole-number input that only commits valid values and says what is wrong otherwise. */
export function ProfileInput({ label, value, min, max, onCommit }: Props) {
  const [text, setText] = useState(String(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setText(String(value));
  }
  const n = Number(text);
  const valid = /^\d+$/.test(text.trim()) && n >= min && n <= max;
  const id = `profile-${label.replace(/\W+/g, '-')}`;
  return (
    <span className="profile-input">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        inputMode="numeric"
        value={text}
        aria-invalid={!valid}
        title={valid ? undefined : `a whole number from ${min} to ${max}`}
        size={Math.max(3, String(max).length - 2)}
        onChange={(e) => {
          setText(e.target.value);
          const v = Number(e.target.value);
          if (/^\d+$/.test(e.target.value.trim()) && v >= min && v <= max) onCommit(v);
        }}
        onBlur={() => !valid && setText(String(value))}
      />
    </span>
  );
}
