// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../shared/api';
import { useSecretsStore } from '../store/secrets-store';
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
    const badge = screen.getByLabelText(/^torn tail/);
    expect(badge.textContent?.trim()).toBe('tail');
    expect(badge.getAttribute('title')).toMatch(/^Torn tail: the last line has no newline/);
    // The warning sign is an inline SVG, not a glyph some machine's fonts may lack.
    expect(badge.querySelector('svg.icon-warn')).toBeTruthy();
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
    expect(badge.textContent?.trim()).toBe('not read');
    expect(badge.getAttribute('title')).toMatch(/FIFO/);
  });
});

describe('a session line says what it knows, and no more', () => {
  it('gives the file size, not a "~" entry estimate, before the session is read (a 35,974-entry file was "~98,787")', () => {
    draw(unread({ entries: 98_787, entriesExact: false, sizeBytes: 48 << 20 }));
    const meta = document.querySelector('.session-meta')?.textContent ?? '';
    expect(meta).not.toMatch(/~|98,787/);
    expect(meta).toContain('48');
    expect(screen.getByTitle('Entries are counted when the session is opened.')).toBeTruthy();
  });

  it('gives the exact entry count once read', () => {
    draw(unread({ entries: 35_974, entriesExact: true, warnings: 0, tailUnterminated: false }));
    expect(document.querySelector('.session-meta')?.textContent).toContain('35,974 entries');
  });

  it('explains a cwd-hash mismatch (§1) in its tooltip', () => {
    draw(unread({ cwdMismatch: true, cwdHash: 'deadbeefdeadbeef', tailUnterminated: false }));
    const badge = screen.getByLabelText('cwd mismatch');
    expect(badge.getAttribute('title')).toMatch(
      /deadbeefdeadbeef is not the FNV-1a hash of this session's cwd \(\/home\/ana\/p\)/,
    );
  });

  it('links a child session to its parent (a button beside the row, not inside it)', () => {
    draw(
      unread({
        parentSession: {
          sessionId: '01a1f7f8-3000-7bce-9f84-9a13f02868af',
          entryId: 'e9',
          key: 'agents/vak/sessions/x/p.jsonl',
        },
      }),
    );
    const link = screen.getByRole('button', { name: /child of/ });
    expect(link.closest('.session-item')).toBeNull();
    expect(link.getAttribute('title')).toMatch(/at entry e9/);
  });
});

describe('the hover on a session line', () => {
  it('shows the whole title an ellipsis cuts, then the file', () => {
    const title = 'Look at the last CI run: branch_appends_directive fails on the lock path, find out why';
    draw(unread({ title }));
    expect(screen.getByRole('button', { name: /Look at the last CI run/ }).getAttribute('title')).toBe(
      `${title}\nagents/vak/sessions/abc/s.jsonl`,
    );
  });
});

describe('the secrets a session line shows', () => {
  const key = unread({}).key;
  afterEach(() => useSecretsStore.getState().setCounts([], null));

  it('with the survey of sessions never opened off: "not counted", never a count or nothing', () => {
    useSecretsStore.getState().setCounts([], { on: false, kept: true });
    draw(unread({}));
    const state = screen.getByText('not counted');
    expect(state.getAttribute('title')).toMatch(/survey of sessions never opened is off/);
    expect(screen.queryByLabelText(/secrets? found/)).toBeNull();
  });

  it('off, a count the survey gave before is not shown either (no one checks it against the file now)', () => {
    useSecretsStore.getState().setCounts([{ key, count: 3, scanning: false, state: 'surveyed' }], {
      on: false,
      kept: false,
    });
    draw(unread({}));
    expect(screen.getByText('not counted')).toBeTruthy();
    expect(screen.queryByLabelText('3 secrets found')).toBeNull();
  });

  it('off, an opened session keeps its count (its open scan counts it)', () => {
    useSecretsStore.getState().setCounts([{ key, count: 2, scanning: false, state: 'open' }], {
      on: false,
      kept: true,
    });
    draw(unread({}));
    expect(screen.getByLabelText('2 secrets found')).toBeTruthy();
    expect(screen.queryByText('not counted')).toBeNull();
  });

  it('on, a surveyed count shows as found by the survey', () => {
    useSecretsStore.getState().setCounts([{ key, count: 3, scanning: false, state: 'surveyed' }], {
      on: true,
      kept: true,
    });
    draw(unread({}));
    expect(screen.getByLabelText('3 secrets found').getAttribute('title')).toMatch(/background survey/);
    expect(screen.queryByText('not counted')).toBeNull();
  });
});
