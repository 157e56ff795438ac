/**
 * @colyseus/core 0.16.26 imports `@pm2/io` (its `Stats.reset`, for PM2's dashboard), and
 * importing `@pm2/io` 6 starts it at once: a timer that lists every libuv handle each second
 * (`process._getActiveHandles()`, one object per socket: thousands under load), another that
 * polls V8's heap statistics, an inspector session with the profiler domains enabled, and, in a
 * process with an IPC channel, a push of every metric each second and a handle scan every 3 s,
 * all on the event loop (a handle scan took 5–76 ms at 1,000 rooms). This server exports its
 * own metrics (prom-client at `/metrics`), so it installs an inert `@pm2/io` under the global
 * key that `@pm2/io` reads before starting (`Symbol.for('@pm2/io')`); Colyseus's two
 * `io.metric(...)` calls then do nothing. Re-check when Colyseus or `@pm2/io` is upgraded.
 */
const PM2_IO_KEY = Symbol.for('@pm2/io');

/** The part of `@pm2/io` Colyseus 0.16 calls, doing nothing. */
const inert = Object.freeze({
  metric: () => Object.freeze({ set() {}, val: () => 0 }),
  destroy() {},
  inert: true,
});

/** Keeps `@pm2/io` from starting, unless it already has (then it is left alone). */
export function disablePm2Io(): void {
  const global = globalThis as Record<symbol, unknown>;
  if (global[PM2_IO_KEY] === undefined) global[PM2_IO_KEY] = inert;
}
