import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { EARLY_SOCKET_SCRIPT } from './src/main/web/early-socket';

/** Puts the early socket's script first in the page's head (its text is what the CSP's hash allows). */
function earlySocket(): Plugin {
  return {
    name: 'vak-early-socket',
    transformIndexHtml: () => [{ tag: 'script', children: EARLY_SOCKET_SCRIPT, injectTo: 'head-prepend' }],
  };
}

// main: ESM (package "type": "module"); preload: CommonJS, because a sandboxed
// preload cannot be an ES module; renderer: a plain web build that serve mode
// also hands to a normal browser.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The secret scan's thread: the backend worker (chunks/) finds it one folder up (thread-entry.ts).
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'secret-scan-worker': resolve(__dirname, 'src/main/secrets/secret-scan-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      outDir: 'out/renderer',
      minify: true,
      // One stylesheet, read with the page: a lazy part's styles (util/lazy-parts.tsx) are there before
      // its chunk is, so it never draws unstyled and no style is inserted at run time.
      cssCodeSplit: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        // Everything the page imports statically is one script, the entry: a load reads and
        // compiles one file; only the lazy parts (util/lazy-parts.tsx) and markdown are
        // chunks of their own. Without the group, the modules the entry shares with them became
        // five small chunks the entry imports. The entry is named `entry-` so that serve mode can tell
        // it from the chunks (web/static-files.ts serves it uncached).
        preserveEntrySignatures: false,
        output: {
          entryFileNames: 'assets/entry-[hash].js',
          codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
        },
      },
    },
    plugins: [react(), earlySocket()],
  },
});
