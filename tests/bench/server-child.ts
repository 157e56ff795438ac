/**
 * The server under benchmark, run in its own process by tests/bench/server.ts so that its CPU
 * and memory can be measured apart from the load generator. Talks to the parent over IPC
 * (`loadgen/child.ts`).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GameStore } from '../../server/src/store/types.js';
import { parseHistograms, STORE_APPEND, serveParent, TURN_TO_PATCH } from './loadgen/child.js';

/**
 * The server as production runs it: the compiled `server/dist` (and `shared/dist`), which the
 * `bench:server` script builds first. `BENCH_SERVER=src` loads the TypeScript sources through
 * tsx instead (slower: tsx keeps function names, a `defineProperty` per nested closure call).
 */
const SOURCE = process.env.BENCH_SERVER === 'src' ? 'src' : 'dist';
const { createServer } = (await import(`../../server/${SOURCE}/app.js`)) as typeof import('../../server/src/app.js');
const { openStore } = (await import(`../../server/${SOURCE}/store/open.js`)) as typeof import('../../server/src/store/open.js');
const { createMetrics } = (await import(`../../server/${SOURCE}/obs/metrics.js`)) as typeof import('../../server/src/obs/metrics.js');

/** The store named by BENCH_STORE: none, a SQLite file in a temporary directory, or PostgreSQL (DATABASE_URL). */
async function benchStore(): Promise<GameStore | undefined> {
  const kind = process.env.BENCH_STORE ?? 'none';
  if (kind === 'none') return undefined;
  if (kind === 'sqlite') return openStore({ databaseUrl: `sqlite:${path.join(mkdtempSync(path.join(os.tmpdir(), 'djambi-bench-')), 'bench.sqlite')}` });
  return openStore({ databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
}

async function main(): Promise<void> {
  const store = await benchStore();
  // The registry the server's `/metrics` serves (as `createServer` would make it).
  const metrics = createMetrics();
  const server = await createServer({
    port: 0,
    host: '127.0.0.1',
    clientDir: '/nonexistent',
    graceSeconds: 5,
    store,
    restoreOnBoot: false,
    observability: { metrics },
  });
  // The server's own view of each turn (from its message to its patch) and of each append: the
  // text an operator's scrape of `/metrics` gets, read from the registry in this process. Not
  // through `fetch`: an HTTP client in the server's own process brought sockets of other shapes
  // into Node's stream code, which V8 had optimised for the players' sockets alone, and the
  // server deoptimised and recompiled it at the start of every measured window.
  serveParent(
    server.port,
    () => server.close(),
    async () => parseHistograms(await metrics.registry.metrics(), [TURN_TO_PATCH, STORE_APPEND]),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
