/**
 * The server under benchmark, run in its own process by tests/bench/server.ts so that its CPU
 * and memory can be measured apart from the load generator. Talks to the parent over IPC.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../../server/src/app.js';
import { openStore } from '../../server/src/store/open.js';
import type { GameStore } from '../../server/src/store/types.js';

type Request = { id: number; type: 'stats' | 'gc' | 'close' | 'snapshot'; path?: string };

/** The store named by BENCH_STORE: none, a SQLite file in a temporary directory, or PostgreSQL (DATABASE_URL). */
async function benchStore(): Promise<GameStore | undefined> {
  const kind = process.env.BENCH_STORE ?? 'none';
  if (kind === 'none') return undefined;
  if (kind === 'sqlite') return openStore({ databaseUrl: `sqlite:${path.join(mkdtempSync(path.join(os.tmpdir(), 'djambi-bench-')), 'bench.sqlite')}` });
  return openStore({ databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
}

async function main(): Promise<void> {
  const store = await benchStore();
  const server = await createServer({ port: 0, host: '127.0.0.1', clientDir: '/nonexistent', graceSeconds: 5, store, restoreOnBoot: false });
  const send = (msg: unknown) => process.send?.(msg);
  const loop = monitorEventLoopDelay({ resolution: 2 });
  loop.enable();
  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.totalMs += e.duration;
      gc.maxMs = Math.max(gc.maxMs, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', async (req: Request) => {
    if (req.type === 'gc') {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        gc();
        gc();
      }
    }
    if (req.type === 'snapshot' && req.path) {
      const { writeHeapSnapshot } = await import('node:v8');
      writeHeapSnapshot(req.path);
    }
    if (req.type === 'close') {
      await server.close();
      send({ id: req.id, ok: true });
      process.exit(0);
    }
    const eventLoop = { p50: loop.percentile(50) / 1e6 - 2, p99: loop.percentile(99) / 1e6 - 2, max: loop.max / 1e6 - 2 };
    const gcNow = gc;
    if (req.type === 'stats') {
      loop.reset();
      gc = { count: 0, totalMs: 0, maxMs: 0 };
    }
    send({ id: req.id, cpu: process.cpuUsage(), memory: process.memoryUsage(), time: performance.now(), eventLoop, gc: gcNow });
  });
  send({ type: 'ready', port: server.port });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
