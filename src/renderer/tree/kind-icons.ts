import { createElement, type ReactElement } from 'react';
import { ownValue } from '../../shared/own-key';
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

export const kindLabel = (kind: string): string => ownValue(KIND_SHORT, kind) ?? kind;

const ROLE_SHORT: Record<string, string> = { user: 'user', assistant: 'asst', tool: 'tool' };

/** Short label of a message's role; any other role (ledger data) as written. */
export const roleLabel = (role: string): string => ownValue(ROLE_SHORT, role) ?? role;

/**
 * One icon per entry kind, shown before the row's text: an inline SVG (icons/icon.tsx), so it
 * draws the same whatever fonts the machine has; an unknown kind gets a question mark.
 */
export const kindIcon = (kind: string): ReactElement =>
  createElement(Icon, { name: ownValue(KIND_ICON, kind) ?? 'unknown' });

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
