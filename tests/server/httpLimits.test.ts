/**
 * The HTTP edge's limits on a real server (docs/PROTOCOL.md "Limits"): for each one a flood from one
 * address hits it, and a legitimate client (another address, or the same after the window)
 * still works. Other clients are other loopback addresses (127.0.0.2, ...); the limits are set
 * low and the clock is a manual one, so no test waits for a bucket to refill.
 */
import type { Socket } from 'node:net';
import http from 'node:http';
import { matchMaker, Room } from '@colyseus/core';
import type { RunningServer } from '../../server/src/app.js';
import { normaliseAddress, rateKey } from '../../server/src/http/address.js';
import { DEFAULT_HTTP_LIMITS, parseRate, RateLimiter, resolveLimits } from '../../server/src/http/limits.js';
import { Client } from 'colyseus.js';
import { createRoom, join, leaveAll, quietSdkWarnings, startServer } from './helpers.js';
import { openSocket, raw, rawPost, upgrade } from './httpHelpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();

describe('token buckets (time passed in)', () => {
  test('a burst, then one token per interval; a refused request spends nothing', () => {
    const rl = new RateLimiter({ burst: 3, intervalMs: 1000 }, 100);
    expect([rl.take('a', 0), rl.take('a', 0), rl.take('a', 0)]).toEqual([0, 0, 0]);
    expect(rl.take('a', 0)).toBe(1000);
    expect(rl.take('a', 400)).toBe(600);
    expect(rl.take('a', 1000)).toBe(0);
    expect(rl.take('a', 1000)).toBe(1000);
    expect(rl.take('b', 1000)).toBe(0); // another key has its own bucket
  });

  test('a clock going back earns nothing', () => {
    const rl = new RateLimiter({ burst: 1, intervalMs: 1000 }, 100);
    expect(rl.take('a', 5000)).toBe(0);
    expect(rl.take('a', 0)).toBe(1000);
    expect(rl.take('a', 5999)).toBe(1);
  });

  test('memory stays bounded under many addresses; refilled buckets are dropped', () => {
    const rl = new RateLimiter({ burst: 2, intervalMs: 1000 }, 1000);
    for (let i = 0; i < 50_000; i++) rl.take(`10.0.${i >> 8}.${i & 255}`, i);
    expect(rl.size).toBeLessThanOrEqual(1000);
    // Much later every bucket has refilled: each new request sweeps old ones away.
    for (let i = 0; i < 1200; i++) rl.take(`192.168.${i >> 8}.${i & 255}`, 10_000_000 + i * 5000);
    expect(rl.size).toBeLessThan(10);
  });

  test('settings: defaults, overrides, refusals; BURST:INTERVAL_MS', () => {
    expect(resolveLimits()).toEqual(DEFAULT_HTTP_LIMITS);
    const l = resolveLimits({ bodyBytes: 100, rates: { create: null } });
    expect(l.rates.create).toBeNull();
    expect(l.rates.reserve).toEqual(DEFAULT_HTTP_LIMITS.rates.reserve);
    expect(() => resolveLimits({ bodyBytes: 0 })).toThrow(/bodyBytes/);
    expect(() => resolveLimits({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).toThrow(/headersTimeoutMs/);
    expect(parseRate('5:6000')).toEqual({ burst: 5, intervalMs: 6000 });
    expect(parseRate('off')).toBe('off');
    expect(parseRate('5/min')).toBeNull();
  });

  test('addresses: IPv4-mapped IPv6 is IPv4; IPv6 clients share a /64', () => {
    expect(normaliseAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normaliseAddress('[2001:DB8::1]')).toBe('2001:db8::1');
    expect(normaliseAddress('203.0.113.9:4711')).toBe('203.0.113.9');
    expect(normaliseAddress('nope')).toBeNull();
    expect(rateKey('2001:db8:1:2::1')).toBe(rateKey('2001:db8:1:2:ffff:1:2:3'));
    expect(rateKey('2001:db8:1:2::1')).not.toBe(rateKey('2001:db8:1:3::1'));
    expect(rateKey('203.0.113.9')).toBe('203.0.113.9');
  });
});

describe('on a real server', () => {
  const clock = TestClock.frozenAt();
  let server: RunningServer;
  /** Every socket the server accepted, to check how much of a body it read. */
  const sockets: Socket[] = [];
  const BODY = 8 * 1024;

  beforeAll(async () => {
    server = await startServer({
      now: clock.now,
      limits: {
        exempt: [], // 127.0.0.1 is limited too: the legitimate clients below come from it
        bodyBytes: BODY,
        rates: {
          create: { burst: 3, intervalMs: 60_000 },
          reserve: { burst: 4, intervalMs: 1000 },
          lookup: { burst: 5, intervalMs: 500 },
          api: { burst: 40, intervalMs: 100 },
        },
        headersTimeoutMs: 300,
        requestTimeoutMs: 600,
        keepAliveTimeoutMs: 200,
      },
    });
    server.httpServer.on('connection', (s: Socket) => sockets.push(s));
  });
  afterAll(async () => {
    await server.close();
  });
  // Every bucket full again at the start of each test.
  beforeEach(() => clock.advance(3_600_000));

  test('room creation: 20 creates from one address → 429 after the burst, on both routes; others still create', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await rawPost(server, '/api/rooms', {}, { from: '127.0.0.2' })).status);
    expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
    expect(new Set(statuses.slice(3))).toEqual(new Set([429]));

    const refused = await rawPost(server, '/api/rooms', {}, { from: '127.0.0.2' });
    expect(refused.json.error).toMatchObject({ code: 'rate_limited' });
    expect(refused.json.error.retryAfterMs).toBeGreaterThan(0);
    expect(refused.json.error.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(Number(refused.headers['retry-after'])).toBe(Math.ceil(refused.json.error.retryAfterMs / 1000));
    // The matchmaker's create and joinOrCreate spend the same budget.
    for (const route of ['/matchmake/create/djambi', '/matchmake/joinOrCreate/djambi']) {
      const mm = await rawPost(server, route, {}, { from: '127.0.0.2' });
      expect(mm.status).toBe(429);
      expect(mm.json.error.code).toBe('rate_limited');
    }

    // Another address still creates, through the SDK too.
    expect((await rawPost(server, '/api/rooms', {}, { from: '127.0.0.3' })).status).toBe(201);
    const creator = await createRoom(server, { rules: { players: 2 } });
    // The first address, after the window.
    clock.advance(refused.json.error.retryAfterMs);
    expect((await rawPost(server, '/api/rooms', {}, { from: '127.0.0.2' })).status).toBe(201);
    expect((await rawPost(server, '/api/rooms', {}, { from: '127.0.0.2' })).status).toBe(429);
    await leaveAll([creator]);
  });

  test('seat reservations: a joinById flood → 429 after the burst (join and reconnect too); others still join', async () => {
    const creator = await createRoom(server, { rules: { players: 2 } });
    const code = creator.state.code as string;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await rawPost(server, `/matchmake/joinById/${code}`, { spectate: true }, { from: '127.0.0.4' })).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(new Set(statuses.slice(4))).toEqual(new Set([429]));
    for (const route of [`/matchmake/join/djambi`, `/matchmake/reconnect/${code}`]) {
      expect((await rawPost(server, route, {}, { from: '127.0.0.4' })).status).toBe(429);
    }
    // A real client from another address joins and plays its seat.
    const joiner = await join(server, code, { name: 'legit' });
    expect(joiner.seat?.colour).toBe('Y');
    // And the flooder gets one more reservation a second later.
    clock.advance(1000);
    expect((await rawPost(server, `/matchmake/joinById/${code}`, { spectate: true }, { from: '127.0.0.4' })).status).toBe(200);
    await leaveAll([creator, joiner]);
  });

  test('lookups: guessing codes → 429 after the burst, GET /record shares it; others still look up', async () => {
    const creator = await createRoom(server, {});
    const code = creator.state.code as string;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await raw(server, `/api/rooms/ZZZZZ${'23456789ABCD'[i]}`, { from: '127.0.0.5' })).status);
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    const record = await raw(server, `/api/rooms/${code}/record`, { from: '127.0.0.5' });
    expect(record.status).toBe(429);
    expect(record.json.error.code).toBe('rate_limited');
    expect(record.json.error.retryAfterMs).toBeLessThanOrEqual(500);
    // The listing is not a lookup.
    expect((await raw(server, '/api/rooms', { from: '127.0.0.5' })).status).toBe(200);
    // Another address finds the private room; the first one may look again half a second later.
    expect((await raw(server, `/api/rooms/${code}`, { from: '127.0.0.6' })).status).toBe(200);
    clock.advance(500);
    expect((await raw(server, `/api/rooms/${code}`, { from: '127.0.0.5' })).status).toBe(200);
    await leaveAll([creator]);
  });

  test('the general budget covers the API, the matchmaker and WebSocket upgrades; not /healthz', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await raw(server, i % 2 ? '/api/rooms' : '/api/nothing', { from: '127.0.0.7' })).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect((await raw(server, '/matchmake/joinById/ZZZZZZ', { method: 'OPTIONS', from: '127.0.0.7' })).status).toBe(429);
    // An accepted upgrade without a reservation is closed by Colyseus, which logs it.
    jest.spyOn(console, 'error').mockImplementationOnce(() => undefined);
    const ws = await upgrade(server, '/x/ZZZZZZ?sessionId=1', { from: '127.0.0.7' });
    expect(ws.status).toBe(429);
    expect(Number(ws.headers['retry-after'])).toBeGreaterThan(0);
    expect((await raw(server, '/healthz', { from: '127.0.0.7' })).status).toBe(200);
    expect((await raw(server, '/api/rooms', { from: '127.0.0.8' })).status).toBe(200);
    expect((await upgrade(server, '/x/ZZZZZZ?sessionId=1', { from: '127.0.0.8' })).status).toBe(101);
  });

  test('a 200 KB body to /matchmake → 413 up front; a streamed one is cut off at the limit; memory does not grow', async () => {
    const big = { spectate: true, pad: 'x'.repeat(200_000) };
    const res = await rawPost(server, '/matchmake/joinOrCreate/djambi', big);
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: { code: 'payload_too_large', message: expect.any(String) } });
    const api = await rawPost(server, '/api/rooms', big);
    expect(api.status).toBe(413);
    expect(api.json.error.code).toBe('payload_too_large');

    // Chunked uploads that would send 20 MB each: the server stops reading past the limit.
    const heapBefore = process.memoryUsage().heapUsed;
    const before = sockets.length;
    for (let i = 0; i < 5; i++) {
      clock.advance(60_000); // the budgets are not what this test is about
      const outcome = await streamUpload(server.port, '/matchmake/joinOrCreate/djambi', 20 * 1024 * 1024);
      expect(outcome.status === 413 || outcome.error === 'ECONNRESET' || outcome.error === 'EPIPE' ? 'cut off' : outcome).toBe('cut off');
    }
    const read = sockets.slice(before).map((s) => s.bytesRead);
    expect(read).toHaveLength(5);
    for (const n of read) expect(n).toBeLessThan(BODY + 256 * 1024); // the limit plus what was in flight
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);

    // A body at the limit is still read, and a normal join works.
    const creator = await createRoom(server, {});
    const ok = await rawPost(server, `/matchmake/joinById/${creator.state.code}`, { spectate: true, name: 'x'.repeat(20) });
    expect(ok.status).toBe(200);
    await leaveAll([creator]);
  });

  test('methods other than GET, POST, OPTIONS on /matchmake → 405', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'HEAD']) {
      const res = await raw(server, '/matchmake/create/djambi', { method });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, POST, OPTIONS');
      if (method !== 'HEAD') expect(res.json.error.code).toBe('method_not_allowed');
    }
    expect((await raw(server, '/matchmake/create/djambi', { method: 'OPTIONS' })).status).toBe(204);
    expect((await raw(server, '/matchmake/create/djambi')).status).toBe(404); // Colyseus's answer to GET
  });

  test('socket timeouts: slow headers, an idle connection and a slow body are closed; a normal request still works', async () => {
    // Headers a byte at a time, never finished (slowloris): closed after the headers timeout.
    const slow = await openSocket(server, 'GET / HTTP/1.1\r\nHost: localhost\r\n', { trickle: 'X', everyMs: 50, timeoutMs: 5000 });
    expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
    // A connection that never sends anything.
    const idle = await openSocket(server, '', { timeoutMs: 5000 });
    expect(idle.closedAfterMs).toBeLessThan(5000);
    // Complete headers, then a body that never arrives in full: closed after the request timeout.
    const body = await openSocket(server, 'POST /matchmake/create/djambi HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{', {
      trickle: ' ',
      everyMs: 50,
      timeoutMs: 5000,
    });
    expect(body.received).toMatch(/^HTTP\/1\.1 408/);
    // A kept-alive connection idle after its response is closed too.
    const kept = await openSocket(server, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n', { timeoutMs: 5000 });
    expect(kept.received).toMatch(/^HTTP\/1\.1 200/);
    expect((await raw(server, '/healthz')).status).toBe(200);
  });

  test('the address rooms see is the socket peer, not a spoofed X-Forwarded-For / X-Real-IP', async () => {
    const creator = await createRoom(server, {});
    const code = creator.state.code as string;
    const invoke = jest.spyOn(matchMaker.controller, 'invokeMethod');
    const onJoin = jest.spyOn(Room.prototype as unknown as { _onJoin: (...a: unknown[]) => Promise<void> }, '_onJoin');
    const warnings = jest.mocked(console.warn).mock.calls.length;
    // colyseus.js sends these headers on the matchmaker request and on the WebSocket.
    const client = new Client(`ws://127.0.0.1:${server.port}`, { headers: { 'x-forwarded-for': '198.51.100.1', 'x-real-ip': '198.51.100.2' } });
    const room = await client.joinById(code, { spectate: true });
    try {
      // The matchmaker request (onAuth of the room class) and the WebSocket (the room's onAuth).
      expect((invoke.mock.calls[0][3] as { ip: string }).ip).toBe('127.0.0.1');
      const ctx = onJoin.mock.calls[0][1] as { ip: string; headers: Record<string, unknown> };
      expect(ctx.ip).toBe('127.0.0.1');
      expect(ctx.headers['x-forwarded-for']).toBeUndefined();
      // The operator is told once that a proxy may need TRUST_PROXY.
      const told = jest
        .mocked(console.warn)
        .mock.calls.slice(warnings)
        .filter((c) => /TRUST_PROXY/.test(String(c[0])));
      expect(told).toHaveLength(1);
    } finally {
      invoke.mockRestore();
      onJoin.mockRestore();
    }
    await room.leave(true);
    await leaveAll([creator]);
  });
});

/** POSTs a chunked body of up to `total` bytes, as fast as the socket takes it. */
function streamUpload(port: number, path: string, total: number): Promise<{ status?: number; error?: string; written: number }> {
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    let written = 0;
    let done = false;
    const finish = (r: { status?: number; error?: string }) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ ...r, written });
    };
    const pump = () => {
      while (!done && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!done) req.end();
    };
    req.on('response', (res) => {
      res.resume();
      finish({ status: res.statusCode });
    });
    req.on('error', (e: NodeJS.ErrnoException) => finish({ error: e.code }));
    req.write('{"pad":"');
    pump();
  });
}
