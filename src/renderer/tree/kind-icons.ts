import { createElement, type ReactElement } from 'react';
import { Icon, type IconName } from '../icons/icon';

/** Short labels for the narrow role column: a role for messages, else the kind. */
const KIND_SHORT: Record<string, string> = {
  header: 'head',
  compaction: 'cmpct',
  receipt: 'rcpt',
  goal_update: 'goal±',
  activity: 'act',
  child_run: 'child',
  turn_capabilities_bound: 'caps',
  presentation: 'pres',
  turn_card: 'card',
};

export const kindLabel = (kind: string): string => KIND_SHORT[kind] ?? kind;

export const ROLE_LABEL: Record<string, string> = { user: 'user', assistant: 'asst', tool: 'tool' };

/**
 * One icon per entry kind, shown before the row's text: an inline SVG (icons/icon.tsx), so it
 * draws the same whatever fonts the machine has; an unknown kind gets a question mark.
 */
export const kindIcon = (kind: string): ReactElement =>
  createElement(Icon, { name: Object.hasOwn(KIND_ICON, kind) ? KIND_ICON[kind] : 'unknown' });

/** §3's kinds and their icons. */
const KIND_ICON: Record<string, IconName> = {
  header: 'header',
  message: 'message',
  compaction: 'compaction',
  receipt: 'receipt',
  goal: 'goal',
  goal_update: 'goal_update',
  activity: 'activity',
  work: 'work',
  intent: 'intent',
  child_run: 'child_run',
  turn_capabilities_bound: 'turn_capabilities_bound',
  presentation: 'presentation',
  turn_card: 'turn_card',
};
