/**
 * Why the server keeps @pm2/io inert (server/src/obs/pm2.ts): @pm2/io, which @colyseus/core
 * imports, opens an inspector session and sends `HeapProfiler.enable`, and with the heap
 * profiler on V8 tracks every object a full collection moves. This script fills a heap with
 * small objects, churns it for 4 s with a full collection every second, and prints the
 * collections' pauses by kind (1 = scavenge, 4 = mark-compact), without or with the heap profiler
 * enabled the way @pm2/io does it.
 *
 *   node tests/bench/heapProfilerGc.mjs off
 *   node tests/bench/heapProfilerGc.mjs on
 */
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');

const enable = process.argv[2] === 'on';
if (enable) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('HeapProfiler.enable');
}
const keep = [];
for (let i = 0; i < 1_500_000; i++) keep.push({ a: i, b: String(i), c: [i] });
const pauses = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push([e.detail?.kind ?? e.kind, e.duration]);
}).observe({ entryTypes: ['gc'] });
const t0 = performance.now();
let nextFull = t0 + 1000;
let junk = [];
while (performance.now() - t0 < 4000) {
  for (let i = 0; i < 20000; i++) junk.push({ x: i, y: `z${i}` });
  if (junk.length > 200000) junk = [];
  keep[(Math.random() * keep.length) | 0] = { a: 1, b: 'x', c: [2] };
  if (performance.now() > nextFull) {
    collect();
    nextFull += 1000;
  }
  await new Promise((resolve) => setImmediate(resolve));
}
const byKind = {};
for (const [kind, ms] of pauses) {
  const e = (byKind[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
  e.count++;
  e.totalMs += ms;
  e.maxMs = Math.max(e.maxMs, ms);
}
for (const e of Object.values(byKind)) {
  e.totalMs = Math.round(e.totalMs);
  e.maxMs = Math.round(e.maxMs);
}
console.log(`heap profiler ${enable ? 'on ' : 'off'}: ${JSON.stringify(byKind)}; heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`);
