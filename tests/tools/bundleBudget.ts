/**
 * `npm run budget [-- DIST] [-- --by-source]`: the client bundle budget. Prints the gzipped
 * JavaScript of the game page of the built client (`client/dist` unless DIST is given; build it
 * first with `npm run build`) and exits 1 when it is above 250 KB (250 × 1024 bytes), 2 when it
 * cannot measure. The measure is the client benchmark's (`tests/tools/bundleSize.ts`).
 *
 * `--by-source` also prints what each dependency and project file costs the page (gzipped alone
 * and marginal), from the source maps of a client built with them: `npx vite build --sourcemap`
 * in `client/` (works at any commit, e.g. to measure a validation library's share).
 */
import path from 'node:path';
import { CLIENT_DIST } from '../e2e/helpers.js';
import { type BundleSize, GAME_PAGE_BUDGET_BYTES, GAME_PAGE_BUDGET_KB, measureBundle, measureSources, toKB } from './bundleSize.js';

const args = process.argv.slice(2);
const BY_SOURCE = args.includes('--by-source');
const distArg = args.find((a) => !a.startsWith('--'));
const dist = distArg ? path.resolve(distArg) : CLIENT_DIST;
function measure(): BundleSize {
  try {
    return measureBundle(dist);
  } catch (err) {
    console.error(`budget: ${(err as Error).message}`);
    process.exit(2);
  }
}
const size = measure();
for (const c of size.chunks) console.log(`${String(c.gzipBytes).padStart(8)} B gzip  ${String(c.bytes).padStart(8)} B  ${c.file}`);
if (BY_SOURCE) {
  console.log('marginal B   alone B  minified B  source');
  for (const s of measureSources(dist))
    console.log(`${String(s.marginalGzipBytes).padStart(10)} ${String(s.aloneGzipBytes).padStart(9)} ${String(s.bytes).padStart(11)}  ${s.source}`);
}
const ok = size.gzipBytes <= GAME_PAGE_BUDGET_BYTES;
console.log(
  `budget: game page JS ${toKB(size.gzipBytes)} KB gzip (${size.gzipBytes} B) in ${size.chunks.length} files, home entry ${toKB(size.entryGzipBytes)} KB; ` +
    `limit ${GAME_PAGE_BUDGET_KB} KB (${GAME_PAGE_BUDGET_BYTES} B): ${ok ? 'ok' : 'OVER'}`,
);
process.exit(ok ? 0 : 1);
