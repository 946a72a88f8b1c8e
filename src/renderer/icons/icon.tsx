import type { ReactElement } from 'react';
import { ownTable } from '../../shared/own-key';

/**
 * Inline SVG icons drawn with the text colour. Glyphs such as ⑂ or ⧉ depend on the fonts a
 * machine has (a stock Debian shows empty boxes for them); these paths do not.
 */
const PATHS = ownTable({
  /** ⚠ a triangle with a bang. */
  warn: (
    <path
      d="M8 1.2 15.4 14.6H.6ZM7.1 5.6v4.8h1.8V5.6ZM7.1 11.4v1.7h1.8v-1.7Z"
      fill="currentColor"
      fillRule="evenodd"
      stroke="none"
    />
  ),
  /** ⑂ a fork: one line in, two out. */
  branch: (
    <>
      <circle cx="4" cy="3" r="1.6" />
      <circle cx="4" cy="13" r="1.6" />
      <circle cx="12" cy="5" r="1.6" />
      <path d="M4 4.6v6.8M12 6.6c0 3-8 2.5-8 4.8" />
    </>
  ),
  header: <path d="M8 1.5 14.5 8 8 14.5 1.5 8Z" fill="currentColor" />,
  message: (
    <>
      <rect x="1.5" y="3.5" width="13" height="9" rx="1" />
      <path d="m1.8 4 6.2 5 6.2-5" />
    </>
  ),
  /** ⧉ two overlapping squares: entries folded into one. */
  compaction: (
    <>
      <path d="M5.5 10.5h-4v-9h9v4" />
      <rect x="5.5" y="5.5" width="9" height="9" />
    </>
  ),
  receipt: (
    <>
      <path d="M3 1.5h10v13l-2-1.3-1.7 1.3L8 13.2l-1.3 1.3L5 13.2l-2 1.3Z" />
      <path d="M5.5 5h5M5.5 8h5" />
    </>
  ),
  goal: (
    <>
      <circle cx="8" cy="8" r="6.3" />
      <circle cx="8" cy="8" r="3.3" />
      <circle cx="8" cy="8" r="0.9" fill="currentColor" />
    </>
  ),
  goal_update: (
    <>
      <circle cx="7" cy="9" r="5.3" />
      <circle cx="7" cy="9" r="1.2" fill="currentColor" />
      <path d="M7 9 14 2M10.5 2H14v3.5" />
    </>
  ),
  /** A pulse line: something the runtime did. */
  activity: <path d="M1 8.5h3l2-5 3.5 9 2-4h3.5" />,
  work: (
    <>
      <rect x="1.5" y="2.5" width="13" height="11" rx="1" />
      <path d="m4 6 1.3 1.3L7.5 5M9 6.5h3.5M4 10.5h8.5" />
    </>
  ),
  intent: <path d="M2 13 13 3M7.5 3H13v5.5" />,
  /** ⤷ down, then right: a run spawned from here. */
  child_run: <path d="M4 1.5v8.5h9M10 7l3 3-3 3" />,
  turn_capabilities_bound: (
    <>
      <circle cx="5" cy="8" r="3.2" />
      <path d="M8.2 8H15M12.5 8v3M14.5 8v2" />
    </>
  ),
  presentation: (
    <>
      <rect x="1.5" y="1.5" width="13" height="13" rx="1" />
      <rect x="4.5" y="4.5" width="7" height="7" fill="currentColor" />
    </>
  ),
  turn_card: (
    <>
      <rect x="1.5" y="2.5" width="13" height="11" rx="1" />
      <path d="M4 6h8M4 8.5h8M4 11h5" />
    </>
  ),
  unknown: (
    <>
      <circle cx="8" cy="8" r="6.3" />
      <path d="M6 6.2a2 2 0 1 1 2.6 1.9c-.5.2-.6.6-.6 1.3M8 11.3v1" />
    </>
  ),
  /** ↑ to the parent session. */
  parent: <path d="M13 14.5H6.5V2M3 5.5 6.5 2 10 5.5" />,
} satisfies Record<string, ReactElement>);

export type IconName = keyof typeof PATHS;

/** An icon at the text's size and colour; `label` gives it a name for screen readers, else it is decoration. */
export function Icon({ name, label }: { name: IconName; label?: string }) {
  return (
    <svg
      className={`icon icon-${name}`}
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      {label && <title>{label}</title>}
      {PATHS[name]}
    </svg>
  );
}
