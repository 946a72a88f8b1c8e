import { useId, useState } from 'react';
import type { CapacityProfile } from '../../shared/ledger-types';
import { parseDecimalInteger } from '../../shared/decimal-integer';
import { fmtInt } from '../util/format';
import './compare.css';
import { profileFault, profileProblem } from '../util/profile-rules';

type Field = keyof CapacityProfile;
type Drafts = Record<Field, string>;

const FIELDS: { key: Field; label: string; size: number }[] = [
  { key: 'window', label: 'window', size: 8 },
  { key: 'reserve', label: 'reserve', size: 7 },
  { key: 'bytes_per_token', label: 'bytes/token', size: 3 },
];

const draftsOf = (p: CapacityProfile): Drafts => ({
  window: String(p.window),
  reserve: String(p.reserve),
  bytes_per_token: String(p.bytes_per_token),
});

/** The drafts as a profile, or the reason they are not one (and which field is at fault). */
export function readDrafts(d: Drafts): { profile: CapacityProfile } | { problem: string; field: Field } {
  // Field names are ours, but a Map keeps the lookup free of any prototype all the same.
  const nums = new Map<Field, number>();
  for (const f of FIELDS) {
    const n = parseDecimalInteger(d[f.key].trim(), 999_999_999);
    if (n === null) return { problem: `${f.label} must be a whole number`, field: f.key };
    nums.set(f.key, n);
  }
  const num = (f: Field): number => nums.get(f) ?? 0;
  const profile: CapacityProfile = {
    window: num('window'),
    reserve: num('reserve'),
    bytes_per_token: num('bytes_per_token'),
  };
  const fault = profileFault(profile);
  return fault ? { problem: fault.reason, field: fault.field } : { profile };
}

interface Props {
  /** The profile in use (the last valid one). */
  value: CapacityProfile;
  onCommit: (p: CapacityProfile) => void;
  /** Prefix of the inputs' labels ("B " for side B of a comparison). */
  labelPrefix?: string;
}

/**
 * Window, reserve and bytes/token of a CapacityProfile (§6). A value is used only when the
 * three together make a valid profile; otherwise the reason shows in place and the last
 * valid profile stays in use (the inputs keep what was typed, so nothing is lost).
 */
export function ProfileEditor({ value, onCommit, labelPrefix = '' }: Props) {
  const [drafts, setDrafts] = useState<Drafts>(() => draftsOf(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    // The profile changed elsewhere (a link, Back/Forward): show it, unless it is what was typed.
    setSeen(value);
    const r = readDrafts(drafts);
    if (!('profile' in r) || profileProblem(value) !== null || !same(r.profile, value)) setDrafts(draftsOf(value));
  }
  const read = readDrafts(drafts);
  const problem = 'problem' in read ? read : null;
  const id = useId();
  const change = (f: Field, text: string) => {
    const next = { ...drafts, [f]: text };
    setDrafts(next);
    const r = readDrafts(next);
    if ('profile' in r && !same(r.profile, value)) onCommit(r.profile);
  };
  return (
    <span className="profile-editor" role="group" aria-label={`${labelPrefix}capacity profile`}>
      {FIELDS.map((f) => (
        <span className="profile-input" key={f.key}>
          <label htmlFor={`${id}-${f.key}`}>{labelPrefix + f.label}</label>
          <input
            id={`${id}-${f.key}`}
            inputMode="numeric"
            value={drafts[f.key]}
            size={f.size}
            aria-invalid={problem?.field === f.key}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => change(f.key, e.target.value)}
            onKeyDown={(e) => {
              // Esc puts back the profile in use.
              if (e.key === 'Escape' && problem) {
                e.stopPropagation();
                setDrafts(draftsOf(value));
              }
            }}
          />
        </span>
      ))}
      {problem && (
        <span className="profile-problem" id={`${id}-problem`} role="alert">
          {problem.problem}; still using window {fmtInt(value.window)}, reserve {fmtInt(value.reserve)},{' '}
          {value.bytes_per_token} bytes/token (Esc puts them back)
        </span>
      )}
    </span>
  );
}

const same = (a: CapacityProfile, b: CapacityProfile): boolean =>
  a.window === b.window && a.reserve === b.reserve && a.bytes_per_token === b.bytes_per_token;
