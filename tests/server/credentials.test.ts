/**
 * Failed credentials of `/metrics` (bearer token) and the monitor (`/colyseus`, basic auth) are
 * limited per client address (docs/PROTOCOL.md "Limits", `limits.rates.auth`): after the burst
 * of failures every request of that address, the right secret included, gets 429 `rate_limited`
 * with `Retry-After` until a token is back; other addresses are not affected, and a request
 * without credentials costs nothing. Other clients are other loopback addresses; the clock is a
 * manual one, so no test waits for the bucket to refill.
 */
import type { RunningServer } from '../../server/src/app.js';
import { DEFAULT_HTTP_LIMITS } from '../../server/src/http/limits.js';
import { TestClock } from '../support/clock.js';
import { quietSdkWarnings, startServer } from './helpers.js';
import { raw, type RawResponse } from './httpHelpers.js';

quietSdkWarnings();

const AUTH = DEFAULT_HTTP_LIMITS.rates.auth!;
const TOKEN = 'scrape-secret';
const PASSWORD = 'monitor-secret';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const basic = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` });

const clock = TestClock.following();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: clock.now, observability: { metricsToken: TOKEN, monitorPassword: PASSWORD } });
});
afterAll(async () => {
  await server.close();
});

const metrics = (from: string, headers: Record<string, string> = {}) => raw(server, '/metrics', { from, headers });
const monitor = (from: string, headers: Record<string, string> = {}) => raw(server, '/colyseus/api', { from, headers });

function expectThrottled(res: RawResponse): void {
  expect(res.status).toBe(429);
  expect(res.json).toMatchObject({ error: { code: 'rate_limited' } });
  expect(res.json.error.retryAfterMs).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(Math.ceil(AUTH.intervalMs / 1000));
}

test('/metrics: after the burst of wrong tokens, 429 for every try, the right token included; other addresses still scrape', async () => {
  expect(AUTH.burst).toBeLessThanOrEqual(10);
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) statuses.push((await metrics('127.0.0.2', bearer(`wrong-${i}`))).status);
  expect(statuses.filter((s) => s === 401)).toHaveLength(AUTH.burst);
  expect(statuses.slice(AUTH.burst).every((s) => s === 429)).toBe(true);
  expectThrottled(await metrics('127.0.0.2', bearer(`wrong`)));
  expectThrottled(await metrics('127.0.0.2', bearer(TOKEN)));
  // The monitor's password shares the address's budget.
  expectThrottled(await monitor('127.0.0.2', basic('admin', PASSWORD)));
  // Another address is not affected.
  expect((await metrics('127.0.0.3', bearer(TOKEN))).status).toBe(200);
});

test('the monitor: wrong passwords are limited alike; once a token is back, one more try', async () => {
  for (let i = 0; i < AUTH.burst; i++) expect((await monitor('127.0.0.4', basic('admin', `wrong-${i}`))).status).toBe(401);
  expectThrottled(await monitor('127.0.0.4', basic('admin', 'wrong')));
  expectThrottled(await monitor('127.0.0.4', basic('admin', PASSWORD)));
  expectThrottled(await metrics('127.0.0.4', bearer(TOKEN)));
  clock.advance(AUTH.intervalMs);
  expect((await monitor('127.0.0.4', basic('admin', 'wrong-again'))).status).toBe(401);
  expectThrottled(await monitor('127.0.0.4', basic('admin', PASSWORD)));
  clock.advance(AUTH.intervalMs);
  expect((await monitor('127.0.0.4', basic('admin', PASSWORD))).status).toBe(200);
  // A success spends nothing.
  for (let i = 0; i < AUTH.burst + 2; i++) expect((await metrics('127.0.0.4', bearer(TOKEN))).status).toBe(200);
});

test('requests without credentials are refused (401) without spending the budget', async () => {
  for (let i = 0; i < AUTH.burst * 3; i++) {
    expect((await metrics('127.0.0.5')).status).toBe(401);
    expect((await monitor('127.0.0.5')).status).toBe(401);
  }
  expect((await metrics('127.0.0.5', bearer(TOKEN))).status).toBe(200);
});

test('loopback is limited too (the exempt addresses are for request volume, not for guessing)', async () => {
  for (let i = 0; i < AUTH.burst; i++) expect((await metrics('127.0.0.1', bearer(`wrong-${i}`))).status).toBe(401);
  expectThrottled(await metrics('127.0.0.1', bearer(TOKEN)));
});
