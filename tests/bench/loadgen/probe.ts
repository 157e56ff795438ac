/**
 * Preloaded into a real server process (`node --import tsx --import probe.ts server/dist/index.js`,
 * by tests/bench/cluster.ts): once the server answers `/healthz` on `PORT`, it serves the
 * parent's IPC requests for figures (`child.ts`), as the single-process benchmark's child does,
 * with the server's own turn → patch and append histograms from its `/metrics`. A `close` request
 * stops the server as SIGTERM does.
 */
import { parseHistograms, STORE_APPEND, serveParent, TURN_TO_PATCH } from './child.js';

const port = Number(process.env.PORT);

async function whenListening(): Promise<void> {
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Not awaited at the top level: a preload's top-level await would hold back the server itself.
void whenListening().then(() =>
  serveParent(
    port,
    () =>
      new Promise<void>(() => {
        process.kill(process.pid, 'SIGTERM');
      }),
    async () => {
      const token = process.env.METRICS_TOKEN;
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
      return parseHistograms(await res.text(), [TURN_TO_PATCH, STORE_APPEND]);
    },
  ),
);

/**
 * `BENCH_ALLOC_PROF=DIR` (a diagnostic): V8's allocation sampler, counting only what survives a
 * scavenge, from `BENCH_ALLOC_PROF_START` s after the start (default 45) for
 * `BENCH_ALLOC_PROF_SECONDS` s (default 20), written to DIR/alloc-PID.heapprofile.
 */
const allocDir = process.env.BENCH_ALLOC_PROF;
if (allocDir) {
  const { Session } = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  const startS = Number(process.env.BENCH_ALLOC_PROF_START ?? 45);
  const seconds = Number(process.env.BENCH_ALLOC_PROF_SECONDS ?? 20);
  setTimeout(() => {
    void post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
    setTimeout(async () => {
      const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
      writeFileSync(`${allocDir}/alloc-${process.pid}.heapprofile`, JSON.stringify(profile));
    }, seconds * 1000).unref();
  }, startS * 1000).unref();
}
