import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/api';
import { resetAppStore, useAppStore } from './app-store';
import { draftKey } from '../util/draft-key';

const st = useAppStore.getState;

describe('the store keeps its invariants in its intents', () => {
  beforeEach(resetAppStore);

  it('folding drops the cursor (rows renumber), once, whoever folds', () => {
    st().placeCursor(7, true);
    st().toggleFoldAudit();
    expect(st()).toMatchObject({ foldAudit: true, selectedRow: null });
    st().placeCursor(3);
    st().toggleFoldAudit(false);
    expect(st()).toMatchObject({ foldAudit: false, selectedRow: null });
  });

  it('progress stays until it is cleared, at 100 % too (the read’s end is told later)', () => {
    st().setProgress({ bytesRead: 50, bytesTotal: 100, entriesRead: 3 });
    expect(st().progress).toEqual({ bytesRead: 50, bytesTotal: 100, entriesRead: 3 });
    st().setProgress({ bytesRead: 100, bytesTotal: 100, entriesRead: 7 });
    expect(st().progress).toEqual({ bytesRead: 100, bytesTotal: 100, entriesRead: 7 });
    st().setProgress(null);
    expect(st().progress).toBeNull();
  });

  it('another session starts clean but keeps the plan, the profile and unsent drafts', () => {
    st().selectSession('a');
    st().sessionOpened({ activeLeaf: 'x' } as SessionInfo);
    st().selectLeaf('e5', 4);
    st().setPlan('none');
    st().setOverride('t1', { fidelity: 'card' });
    st().setDraft('e5', 'half a thought');
    st().pin({ entries: ['e5'], messages: [] });
    st().selectSession('b');
    expect(st()).toMatchObject({ sessionKey: 'b', sessionInfo: null, leaf: null, selectedRow: null, overrides: {} });
    expect(st().pinned).toBeNull();
    expect(st().plan).toBe('none');
    expect(st().drafts[draftKey('a', 'e5')]).toBe('half a thought');
  });

  it('a branch selects the new entry, closes the composer and forgets the draft', () => {
    st().selectSession('a');
    st().openComposer('e5');
    st().setDraft('e5', 'try again');
    st().branched('e5', 'n1');
    expect(st()).toMatchObject({ leaf: 'n1', composerFor: null, pendingSelect: 'n1', drafts: {} });
    expect(st().takePendingSelect(['other'])).toBeNull();
    expect(st().takePendingSelect(['n1'])).toBe('n1');
    expect(st().pendingSelect).toBeNull();
  });

  it('a second click on the same pin unpins; Esc closes the topmost thing first', () => {
    st().togglePin({ entries: ['e1'], messages: [2] });
    st().togglePin({ entries: ['e1'], messages: [2] });
    expect(st().pinned).toBeNull();
    st().togglePanel('keys', true);
    st().openComposer('e1');
    st().pin({ entries: ['e1'], messages: [] });
    st().escape();
    expect(st()).toMatchObject({ composerFor: 'e1', panels: { keys: false } });
    st().escape();
    expect(st().composerFor).toBeNull();
    st().escape();
    expect(st().pinned).toBeNull();
  });

  it('exposes no generic setter', () => {
    expect('set' in st()).toBe(false);
    expect('setState' in useAppStore).toBe(false);
  });
});
