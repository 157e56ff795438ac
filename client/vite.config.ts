/// <reference types="node" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
/** The game server during development (`npm start` in another terminal). */
const SERVER = process.env.DJAMBI_SERVER ?? 'http://localhost:2567';

/** Vite 8 for the Djambi client: compiles the rules engine from source, proxies the server in dev. */
export default defineConfig({
  root: here('.'),
  resolve: {
    alias: {
      '@djambi/shared': here('../shared/src/index.ts'),
      // The packages' "browser" builds are CommonJS/UMD, which cannot be tree-shaken: take their
      // ES modules (same code) so only the decoder and the client's parts are bundled.
      'colyseus.js': here('../node_modules/colyseus.js/build/esm/index.mjs'),
      '@colyseus/schema': here('../node_modules/@colyseus/schema/build/esm/index.mjs'),
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: SERVER, changeOrigin: true },
      '/healthz': { target: SERVER, changeOrigin: true },
      // colyseus.js talks to `${origin}/colyseus` in dev (matchmaking over HTTP, rooms over WebSocket).
      '/colyseus': {
        target: SERVER,
        changeOrigin: true,
        ws: true,
        rewrite: (path) => path.replace(/^\/colyseus/, ''),
      },
    },
  },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 800,
  },
});
