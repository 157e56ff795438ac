/**
 * The benchmark's reading of the server's own histograms (`tests/bench/loadgen/child.ts`): the
 * Prometheus text parsed, and one window's count, mean and interpolated quantiles, on the
 * exposition prom-client really writes.
 */
import { Histogram, Registry } from 'prom-client';
import { histogramWindow, parseHistograms } from './loadgen/child.js';

const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001];

async function reading(registry: Registry) {
  return parseHistograms(await registry.metrics(), ['t_seconds', 'missing_seconds']);
}

test('a window is what the histogram recorded between two readings', async () => {
  const registry = new Registry();
  const h = new Histogram({ name: 't_seconds', help: 'test', buckets: BUCKETS, registers: [registry] });
  new Histogram({ name: 't_seconds_other', help: 'a name that starts the same', buckets: BUCKETS, registers: [registry] }).observe(9);
  h.observe(0.00005); // before the window: not counted
  const before = await reading(registry);
  expect(before.missing_seconds).toBeUndefined();
  expect(before.t_seconds).toEqual({
    sum: 0.00005,
    count: 1,
    buckets: [
      [0.0001, 1],
      [0.00025, 1],
      [0.0005, 1],
      [0.001, 1],
      [Number.POSITIVE_INFINITY, 1],
    ],
  });
  for (let i = 0; i < 98; i++) h.observe(0.0002); // all in (100, 250] µs
  h.observe(0.0004);
  h.observe(0.002); // above the last bound
  const win = histogramWindow(before.t_seconds, (await reading(registry)).t_seconds);
  expect(win).not.toBeNull();
  expect(win?.count).toBe(100);
  expect(win?.meanUs).toBeCloseTo((98 * 200 + 400 + 2000) / 100, 1);
  // The 50th of 98 in (100, 250]: 100 + 50/98 × 150 µs.
  expect(win?.p50Us).toBeCloseTo(100 + (50 / 98) * 150, 0);
  // The 99th in (250, 500]: the only one there, at its bucket's upper bound.
  expect(win?.p99Us).toBeCloseTo(500, 0);
  expect(histogramWindow(before.t_seconds, before.t_seconds)).toBeNull();
  expect(histogramWindow(undefined, undefined)).toBeNull();
});

test("a cluster process's histograms carry its node label, and are read the same", async () => {
  const registry = new Registry();
  registry.setDefaultLabels({ node: 'game1' });
  const h = new Histogram({ name: 't_seconds', help: 'test', buckets: BUCKETS, registers: [registry] });
  h.observe(0.0002);
  h.observe(0.002);
  const read = (await reading(registry)).t_seconds;
  expect(read).toEqual({
    sum: 0.0022,
    count: 2,
    buckets: [
      [0.0001, 0],
      [0.00025, 1],
      [0.0005, 1],
      [0.001, 1],
      [Number.POSITIVE_INFINITY, 2],
    ],
  });
});
