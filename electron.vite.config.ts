import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

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
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [react()],
  },
});
