/** One glyph per entry kind, shown before the row's text. */
export const KIND_ICON: Record<string, string> = {
  header: '◆',
  message: '✉',
  compaction: '⧉',
  receipt: '¤',
  goal: '◎',
  goal_update: '◎',
  activity: '⚙',
  work: '⚒',
  intent: '➹',
  child_run: '⤷',
  turn_capabilities_bound: '⌘',
  presentation: '▣',
  turn_card: '▤',
};

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

export const kindIcon = (kind: string): string => KIND_ICON[kind] ?? '?';
