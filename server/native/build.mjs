/**
 * Builds the memory-map addon (`mmap.c`) at `npm ci`/`npm install`. It is optional: without it
 * (no C compiler, no Node headers, another OS) the store writes its pending file with one
 * `write` per event instead (server/src/store/mapped.ts), so a failed build warns and exits 0.
 */
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
if (process.platform !== 'linux' && process.platform !== 'darwin') {
  console.warn(`[djambi] no memory-map addon on ${process.platform}: the store writes its pending file with write()`);
  process.exit(0);
}
const run = spawnSync('node-gyp', ['rebuild', '--release'], {
  cwd: here,
  stdio: ['ignore', 'pipe', 'pipe'],
  encoding: 'utf8',
  shell: process.platform === 'win32',
});
if (run.status !== 0) {
  const why = run.error ? run.error.message : (run.stderr || run.stdout).trim().split('\n').slice(-5).join('\n');
  console.warn(`[djambi] the memory-map addon was not built; the store writes its pending file with write() instead.\n${why}`);
}
