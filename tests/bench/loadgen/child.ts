/**
 * The child side of a benchmarked server process (the Djambi server or the baseline room): it
 * answers the parent's IPC requests with its CPU, memory, event-loop delay and GC figures, runs
 * a full GC, writes heap snapshots, and closes. Used by tests/bench/server-child.ts and
 * tests/bench/baseline/child.ts.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/** A request of the parent (`loadgen/server.ts`). */
export type ChildRequest = {
  id: number;
  type: 'stats' | 'gc' | 'close' | 'snapshot' | 'profile';
  path?: string;
  action?: 'start' | 'stop';
  intervalUs?: number;
  /** `stats` without the server's histograms (the idle window's readings need none). */
  bare?: boolean;
};

/** Sampling period of the event-loop delay monitor, ms (subtracted from its figures). */
const LOOP_RESOLUTION_MS = 2;

/** The Djambi server's histogram of a turn from its message to its patch (`obs/metrics.ts`). */
export const TURN_TO_PATCH = 'djambi_turn_to_patch_seconds';
/** Its histogram of one append to the game log. */
export const STORE_APPEND = 'djambi_store_append_seconds';

/** A Prometheus histogram as read at one moment: its sum (seconds), count and cumulative buckets. */
export interface HistogramReading {
  readonly sum: number;
  readonly count: number;
  /** `[upper bound in seconds, cumulative count]`, in order, `+Inf` last. */
  readonly buckets: readonly (readonly [number, number])[];
}

/**
 * Serves the parent's requests for a server listening on `port`; `close` stops it. `histograms`
 * (the Djambi server: its own `/metrics`) adds the server's histograms to every `stats` reply.
 */
export function serveParent(port: number, close: () => Promise<void>, histograms?: () => Promise<Record<string, HistogramReading>>): void {
  const send = (msg: unknown) => process.send?.(msg);
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  /** CPU (µs) this process spent reading its own histograms for the parent. */
  let probe = { user: 0, system: 0 };
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
    if (req.type === 'profile') await profile(req);
    if (req.type === 'close') {
      await close();
      send({ id: req.id, ok: true });
      process.exit(0);
    }
    const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
    const eventLoop = { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) };
    const gcNow = gc;
    if (req.type === 'stats') {
      // BENCH_MARK=1: a marker in the server's output (tests/bench/server.ts, "Diagnostics").
      if (process.env.BENCH_MARK) console.log(`[mark] stats${req.bare ? ' bare' : ''}`);
      loop.reset();
      gc = { count: 0, totalMs: 0, maxMs: 0 };
    }
    let own: Record<string, HistogramReading> | undefined;
    if (req.type === 'stats' && histograms && !req.bare) {
      const before = process.cpuUsage();
      own = await histograms().catch(() => undefined);
      const spent = process.cpuUsage(before);
      probe = { user: probe.user + spent.user, system: probe.system + spent.system };
    }
    // The harness's own reads of /metrics are left out of the CPU it reports: a read costs the
    // server about 25 ms (more for the first ones, which compile Node's fetch), about 1 % of a
    // core over a 2 s idle window; the Djambi server alone is read.
    const cpu = process.cpuUsage();
    send({
      id: req.id,
      cpu: { user: cpu.user - probe.user, system: cpu.system - probe.system },
      memory: process.memoryUsage(),
      time: performance.now(),
      eventLoop,
      gc: gcNow,
      histograms: own,
    });
  });
  send({ type: 'ready', port });
}

/** The CPU profiler of this process (V8's, through `node:inspector`), while one runs. */
let profiler: import('node:inspector').Session | null = null;

/** Starts the sampling profiler, or stops it and writes its profile (`.cpuprofile` JSON) to `req.path`. */
async function profile(req: ChildRequest): Promise<void> {
  const { Session } = await import('node:inspector');
  const post = (session: import('node:inspector').Session, method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, out) => (err ? reject(err) : resolve(out))));
  // BENCH_HEAP_PROF=1: V8's allocation sampler instead (every allocation of the window, collected
  // or not, sampled every 4 KB on average; a `.heapprofile` of the bytes allocated by each stack;
  // with BENCH_HEAP_LIVE=1, only what is still alive when it stops; with BENCH_HEAP_LIVE=scavenge,
  // only what survived a scavenge: what the young generation's collections copy).
  const heap = process.env.BENCH_HEAP_PROF === '1';
  const live = process.env.BENCH_HEAP_LIVE;
  if (req.action === 'start' && !profiler) {
    profiler = new Session();
    profiler.connect();
    if (heap) {
      await post(profiler, 'HeapProfiler.enable');
      await post(profiler, 'HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: live !== '1',
        includeObjectsCollectedByMinorGC: live !== '1' && live !== 'scavenge',
      });
      return;
    }
    await post(profiler, 'Profiler.enable');
    await post(profiler, 'Profiler.setSamplingInterval', { interval: req.intervalUs ?? 500 });
    await post(profiler, 'Profiler.start');
  } else if (req.action === 'stop' && profiler) {
    const { profile: data } = (await post(profiler, heap ? 'HeapProfiler.stopSampling' : 'Profiler.stop')) as { profile: unknown };
    profiler.disconnect();
    profiler = null;
    if (req.path) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const { dirname } = await import('node:path');
      mkdirSync(dirname(req.path), { recursive: true });
      writeFileSync(req.path, JSON.stringify(data));
    }
  }
}

/**
 * The histograms named `names` in a Prometheus text exposition. Labels besides `le` (a cluster
 * process's `node`) are allowed; the series of one name are added up.
 */
export function parseHistograms(text: string, names: readonly string[]): Record<string, HistogramReading> {
  const out: Record<string, HistogramReading> = {};
  const line = /^(\w+?)_(bucket|sum|count)(?:\{([^}]*)\})? (\S+)$/;
  for (const name of names) {
    const buckets = new Map<number, number>();
    let sum = 0;
    let count = 0;
    let seen = false;
    for (const row of text.split('\n')) {
      if (!row.startsWith(name)) continue;
      const m = line.exec(row);
      if (!m || m[1] !== name) continue;
      const value = Number(m[4]);
      if (m[2] === 'sum') sum += value;
      else if (m[2] === 'count') {
        count += value;
        seen = true;
      } else {
        const le = /(?:^|,)le="([^"]+)"/.exec(m[3] ?? '')?.[1];
        if (le === undefined) continue;
        const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
        buckets.set(bound, (buckets.get(bound) ?? 0) + value);
      }
    }
    if (seen && buckets.size > 0) out[name] = { sum, count, buckets: [...buckets].sort((a, b) => a[0] - b[0]) };
  }
  return out;
}

/** What a histogram recorded between two readings: count, mean, and p50 / p90 / p99 read from the buckets, µs. */
export interface HistogramWindow {
  readonly count: number;
  readonly meanUs: number;
  /** Interpolated within a bucket, as Prometheus's `histogram_quantile` does. */
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p99Us: number;
}

/** `name mean … µs, p50 ≈ … µs, p90 ≈ … µs, p99 ≈ … µs (count)`, or null for no window. */
export function describeWindow(name: string, h: HistogramWindow | null): string | null {
  return h ? `${name} mean ${h.meanUs} µs, p50 ≈ ${h.p50Us} µs, p90 ≈ ${h.p90Us} µs, p99 ≈ ${h.p99Us} µs (${h.count})` : null;
}

/** The observations of a histogram between `before` and `after` (null when it recorded none). */
export function histogramWindow(before: HistogramReading | undefined, after: HistogramReading | undefined): HistogramWindow | null {
  if (!after) return null;
  const count = after.count - (before?.count ?? 0);
  if (count <= 0) return null;
  const cumulative = after.buckets.map(([le, c], i) => [le, c - (before?.buckets[i]?.[1] ?? 0)] as const);
  const quantile = (q: number): number => {
    const rank = q * count;
    let lowerBound = 0;
    let lowerCount = 0;
    for (const [le, c] of cumulative) {
      if (c >= rank) {
        if (!Number.isFinite(le)) return lowerBound;
        return lowerBound + ((rank - lowerCount) / Math.max(1, c - lowerCount)) * (le - lowerBound);
      }
      lowerBound = le;
      lowerCount = c;
    }
    return lowerBound;
  };
  const us = (seconds: number) => Math.round(seconds * 1e7) / 10;
  return { count, meanUs: us((after.sum - (before?.sum ?? 0)) / count), p50Us: us(quantile(0.5)), p90Us: us(quantile(0.9)), p99Us: us(quantile(0.99)) };
}
