import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';
import { parseSessionKey, SESSION_EXT, sessionKey } from './session-key';

describe('session keys (§1)', () => {
  it('round-trips a key through its parts', () => {
    const key = sessionKey('vak', '70929a3c84065db2', '01a1f7f8-3000-7bce-9f84-9a13f02868af');
    expect(key).toBe(`agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af${SESSION_EXT}`);
    expect(parseSessionKey(key)).toEqual({
      agent: 'vak',
      cwdHash: '70929a3c84065db2',
      sessionId: '01a1f7f8-3000-7bce-9f84-9a13f02868af',
    });
  });
  it.each([
    'agents/vak/sessions/h/../x.jsonl',
    'agents/../sessions/h/x.jsonl',
    'agents/vak/sessions/h/x.json',
    'agents/vak/sessions/h/sub/x.jsonl',
    'agents/vak/sessions/h\\x.jsonl',
    '/agents/vak/sessions/h/x.jsonl',
  ])('refuses %s', (key) => {
    expect(parseSessionKey(key)).toBeNull();
  });
});

describe('formatBytes', () => {
  it('reads as people read sizes', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(2150)).toBe('2.1 KB');
    expect(formatBytes(3.5 * 1024 * 1024)).toBe('3.5 MB');
  });
});
