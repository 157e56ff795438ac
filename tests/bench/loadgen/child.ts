/**
 * The child side of a benchmarked server process (the Djambi server or the baseline room): it
 * answers the parent's IPC requests with its CPU, memory, event-loop delay and GC figures, runs
 * a full GC, writes heap snapshots, and closes. Used by tests/bench/server-child.ts and
 * tests/bench/baseline/child.ts.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/** A request of the parent (`loadgen/server.ts`). */
export type ChildRequest = { id: number; type: 'stats' | 'gc' | 'close' | 'snapshot'; path?: string };

/** Sampling period of the event-loop delay monitor, ms (subtracted from its figures). */
const LOOP_RESOLUTION_MS = 2;

/** Serves the parent's requests for a server listening on `port`; `close` stops it. */
export function serveParent(port: number, close: () => Promise<void>): void {
  const send = (msg: unknown) => process.send?.(msg);
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.totalMs += e.duration;
      gc.maxMs = Math.max(gc.maxMs, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', async (req: ChildRequest) => {
    if (req.type === 'gc') {
      const collect = (globalThis as { gc?: () => void }).gc;
      if (collect) {
        collect();
        collect();
      }
    }
    if (req.type === 'snapshot' && req.path) {
      const { writeHeapSnapshot } = await import('node:v8');
      writeHeapSnapshot(req.path);
    }
    if (req.type === 'close') {
      await close();
      send({ id: req.id, ok: true });
      process.exit(0);
    }
    const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
    const eventLoop = { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) };
    const gcNow = gc;
    if (req.type === 'stats') {
      loop.reset();
      gc = { count: 0, totalMs: 0, maxMs: 0 };
    }
    send({ id: req.id, cpu: process.cpuUsage(), memory: process.memoryUsage(), time: performance.now(), eventLoop, gc: gcNow });
  });
  send({ type: 'ready', port });
}
