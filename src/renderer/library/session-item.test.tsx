// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../shared/api';
import { SessionItem } from './session-item';

afterEach(cleanup);

/** A big session not opened yet: the library knows its head and its last byte only. */
const unread = (over: Partial<SessionSummary>): SessionSummary => ({
  key: 'agents/vak/sessions/abc/s.jsonl',
  agent: 'vak',
  cwdHash: 'abc',
  cwd: '/home/ana/p',
  cwdMismatch: false,
  sessionId: 's',
  title: 'Big session',
  model: 'claude-sonnet-4-5',
  firstTs: null,
  lastTs: null,
  entries: 35_000,
  entriesExact: false,
  branches: null,
  warnings: null,
  tailUnterminated: true,
  sizeBytes: 100 << 20,
  mtimeMs: 0,
  lock: 'free',
  unreadable: null,
  parentSession: null,
  ...over,
});

const draw = (s: SessionSummary) =>
  render(
    <ul>
      <SessionItem s={s} selected={false} onOpen={() => undefined} />
    </ul>,
  );

describe('a session line before the session is read', () => {
  it('shows a torn tail when the last line has no \\n and no agent holds the file', () => {
    draw(unread({}));
    expect(screen.getByLabelText(/^torn tail/).textContent).toBe('⚠ tail');
  });

  it('shows no torn tail while an agent writes (the missing \\n is a write in progress)', () => {
    draw(unread({ lock: 'held' }));
    expect(screen.queryByLabelText(/^torn tail/)).toBeNull();
    expect(screen.getByLabelText('live: an agent holds the lock')).toBeTruthy();
  });

  it('where the lock state is unknown, claims neither a live agent nor a torn tail', () => {
    draw(unread({ lock: 'unknown' }));
    expect(screen.queryByLabelText('live: an agent holds the lock')).toBeNull();
    expect(screen.queryByLabelText(/^torn tail/)).toBeNull();
  });

  it('says why a file is listed but not read (a FIFO, a foreign link)', () => {
    draw(unread({ unreadable: 'x.jsonl is a FIFO (named pipe), not a regular file; it is not read' }));
    const badge = screen.getByLabelText(/^not read: .*FIFO/);
    expect(badge.textContent).toBe('⚠ not read');
    expect(badge.getAttribute('title')).toMatch(/FIFO/);
  });
});
