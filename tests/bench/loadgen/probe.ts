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
