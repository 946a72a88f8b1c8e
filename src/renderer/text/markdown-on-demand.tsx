import { useSyncExternalStore } from 'react';
import type { MarkdownText as MarkdownTextType } from './markdown-text';
import { VerbatimText } from './verbatim-text';

/**
 * The markdown renderer (react-markdown and its parsers, a fifth of the bundle) is a chunk of its
 * own, loaded the first time a pane draws text rendered: the page's first screen (verbatim by
 * default) neither reads nor compiles it.
 */
const loaded: { Markdown: typeof MarkdownTextType | null } = { Markdown: null };
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Loads the markdown renderer (once); resolves when it can draw. */
export function loadMarkdown(): Promise<void> {
  loading ??= import('./markdown-text').then(
    (m) => {
      loaded.Markdown = m.MarkdownText;
      for (const l of [...listeners]) l();
    },
    (e: unknown) => {
      // Asked again on the next draw (a chunk that failed to load, e.g. the server went away).
      loading = null;
      throw e;
    },
  );
  return loading;
}

const subscribe = (l: () => void): (() => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** A text block as markdown; until the renderer has loaded, the text as it is. */
export function MarkdownText({ text }: { text: string }) {
  const ready = useSyncExternalStore(subscribe, () => loaded.Markdown !== null);
  if (ready && loaded.Markdown) return <loaded.Markdown text={text} />;
  loadMarkdown().catch(() => undefined);
  return <VerbatimText text={text} />;
}
