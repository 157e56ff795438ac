/// <reference types="node" />
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
/** The game server during development (`npm start` in another terminal). */
const SERVER = process.env.DJAMBI_SERVER ?? 'http://localhost:2567';

/** The text types worth compressing (images and fonts here are already compressed formats). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|wasm|txt|map)$/;
/** Below this, a file fits in the first round trip anyway and the encoding's overhead is not worth a file. */
const MIN_BYTES = 1024;
/** A variant is kept only if it is at most this share of the original. */
const MAX_RATIO = 0.9;

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) next to every compressible
 * file of the build, once, so the server sends them as they are (server/src/http/static.ts) and
 * never compresses per request. Tiny files and ones that do not shrink get no variant.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'djambi-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const data = readFileSync(file);
        if (data.length < MIN_BYTES) continue;
        const br = brotliCompressSync(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            [constants.BROTLI_PARAM_MODE]: /\.wasm$/.test(entry.name) ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
          },
        });
        const gz = gzipSync(data, { level: constants.Z_BEST_COMPRESSION });
        if (br.length <= data.length * MAX_RATIO) writeFileSync(`${file}.br`, br);
        if (gz.length <= data.length * MAX_RATIO) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

/** Vite 8 for the Djambi client: compiles the rules engine from source, proxies the server in dev. */
export default defineConfig({
  root: here('.'),
  plugins: [precompress()],
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
