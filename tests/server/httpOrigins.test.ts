/**
 * Who may use the server and what it writes back: security headers on every response, invite
 * links that never echo an untrusted `Host`, origins allowed for the matchmaker, the WebSocket
 * and the API, and client addresses behind a trusted proxy. Three servers, one after the other
 * (Colyseus's matchmaker is process-wide): the default (development) settings, restricted
 * origins, and a public URL behind a trusted proxy.
 */
import { matchMaker } from '@colyseus/core';
import type { RunningServer } from '../../server/src/app.js';
import { createRoom, leaveAll, quietSdkWarnings, startServer } from './helpers.js';
import { raw, rawPost, upgrade, type RawResponse } from './httpHelpers.js';

quietSdkWarnings();

const HEADERS = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy'];

function expectSecurityHeaders(res: RawResponse, label: string): void {
  for (const h of HEADERS) expect([label, h, typeof res.headers[h]]).toEqual([label, h, 'string']);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
}

describe('default settings (development)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test('security headers on the client, the API, the matchmaker and the edge refusals', async () => {
    const creator = await createRoom(server, {});
    const code = creator.state.code as string;
    const responses: [string, RawResponse][] = [
      ['/', await raw(server, '/')],
      ['/healthz', await raw(server, '/healthz')],
      ['GET /api/rooms', await raw(server, '/api/rooms')],
      ['GET /api/rooms/:code', await raw(server, `/api/rooms/${code}`)],
      ['404 /api', await raw(server, '/api/nothing')],
      ['OPTIONS /matchmake', await raw(server, `/matchmake/joinById/${code}`, { method: 'OPTIONS' })],
      ['POST /matchmake', await rawPost(server, `/matchmake/joinById/${code}`, { spectate: true })],
      ['GET /matchmake', await raw(server, '/matchmake/')],
      ['405 /matchmake', await raw(server, '/matchmake/create/djambi', { method: 'PUT' })],
      ['413 /matchmake', await rawPost(server, '/matchmake/create/djambi', { pad: 'x'.repeat(20_000) })],
    ];
    expect(responses.map(([l, r]) => [l, r.status])).toEqual([
      ['/', 200],
      ['/healthz', 200],
      ['GET /api/rooms', 200],
      ['GET /api/rooms/:code', 200],
      ['404 /api', 404],
      ['OPTIONS /matchmake', 204],
      ['POST /matchmake', 200],
      ['GET /matchmake', 404],
      ['405 /matchmake', 405],
      ['413 /matchmake', 413],
    ]);
    for (const [label, res] of responses) expectSecurityHeaders(res, label);
    const csp = responses[0][1].headers['content-security-policy'] as string;
    expect(csp).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:\d+ wss:\/\/127\.0\.0\.1:\d+/);
    expect(csp).toContain("object-src 'none'");
    expect(responses[0][1].headers['strict-transport-security']).toBeUndefined(); // plain http
    await leaveAll([creator]);
  });

  test('invite links: an untrusted Host is never reflected; allowed hosts are, on any port', async () => {
    const port = server.port;
    const fallback = `http://localhost:${port}`;
    const cases: [string, string][] = [
      ['evil.example', fallback],
      [`evil.example:${port}`, fallback],
      ['localhost.evil.example', fallback],
      ['evil.example/@localhost', fallback],
      [`localhost:${port}`, `http://localhost:${port}`],
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
      ['[::1]:8080', 'http://[::1]:8080'],
      ['LOCALHOST', 'http://localhost'],
    ];
    for (const [host, base] of cases) {
      const created = await rawPost(server, '/api/rooms', {}, { headers: { host } });
      expect([host, created.status]).toEqual([host, 201]);
      expect([host, created.json.invite]).toEqual([host, `${base}/g/${created.json.code}`]);
      const desc = await raw(server, `/api/rooms/${created.json.code}`, { headers: { host } });
      expect([host, desc.json.invite]).toEqual([host, `${base}/g/${created.json.code}`]);
      expect(desc.headers['content-security-policy']).not.toContain('evil');
    }
    // X-Forwarded-Host / -Proto from a peer that is not a trusted proxy are ignored.
    const forwarded = await rawPost(
      server,
      '/api/rooms',
      {},
      { headers: { host: `localhost:${port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } },
    );
    expect(forwarded.json.invite).toBe(`http://localhost:${port}/g/${forwarded.json.code}`);
  });

  test('without configured origins every origin may use the matchmaker and the WebSocket', async () => {
    const creator = await createRoom(server, {});
    const origin = 'https://elsewhere.example';
    const res = await rawPost(server, `/matchmake/joinById/${creator.state.code}`, { spectate: true }, { headers: { origin } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    jest.spyOn(console, 'error').mockImplementationOnce(() => undefined); // Colyseus logs the missing reservation
    expect((await upgrade(server, '/x/ZZZZZZ?sessionId=1', { origin })).status).toBe(101);
    await leaveAll([creator]);
  });

  test('loopback is exempt from the rate limits by default, other addresses are not, nor loopback through an untrusted proxy', async () => {
    const creates = async (n: number, options: Parameters<typeof rawPost>[3]) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await rawPost(server, '/api/rooms', {}, options)).status);
      return out;
    };
    expect(new Set(await creates(8, {}))).toEqual(new Set([201]));
    expect(await creates(7, { from: '127.0.0.2' })).toEqual([201, 201, 201, 201, 201, 429, 429]);
    // (The X-Forwarded-Host request of the invite test above already spent one of these.)
    const proxied = await creates(7, { headers: { 'x-forwarded-for': '203.0.113.1' } });
    expect(proxied.slice(5)).toEqual([429, 429]);
    expect(proxied.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
  });
});

describe('restricted origins', () => {
  let server: RunningServer;
  const ALLOWED = 'https://djambi.example';
  const FOREIGN = 'https://evil.example';
  beforeAll(async () => {
    server = await startServer({ allowedOrigins: [ALLOWED], allowedHosts: ['djambi.test', 'localhost'] });
  });
  afterAll(async () => {
    await server.close();
  });

  test('the matchmaker: a foreign origin gets no CORS headers and 403 for POST; the allowed one works', async () => {
    const creator = await createRoom(server, {});
    const path = `/matchmake/joinById/${creator.state.code}`;
    const preflight = await raw(server, path, { method: 'OPTIONS', headers: { origin: FOREIGN, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const post = await rawPost(server, path, { spectate: true }, { headers: { origin: FOREIGN } });
    expect(post.status).toBe(403);
    expect(post.json.error.code).toBe('forbidden_origin');
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
    expect((await raw(server, path, { headers: { origin: FOREIGN } })).status).toBe(403);

    const okPreflight = await raw(server, path, { method: 'OPTIONS', headers: { origin: ALLOWED } });
    expect(okPreflight.headers['access-control-allow-origin']).toBe(ALLOWED);
    const ok = await rawPost(server, path, { spectate: true }, { headers: { origin: ALLOWED } });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(ok.json.sessionId).toEqual(expect.any(String));
    // Non-browser clients (no Origin) still play.
    const other = await createRoom(server, {});
    await leaveAll([creator, other]);
  });

  test('the WebSocket: an upgrade from a foreign origin is refused', async () => {
    expect((await upgrade(server, '/x/ZZZZZZ?sessionId=1', { origin: FOREIGN })).status).toBe(403);
    expect((await upgrade(server, '/x/ZZZZZZ?sessionId=1', { origin: 'null' })).status).toBe(403);
    const err = jest.spyOn(console, 'error').mockImplementation(() => undefined); // Colyseus logs the missing reservations
    try {
      expect((await upgrade(server, '/x/ZZZZZZ?sessionId=1', { origin: ALLOWED })).status).toBe(101);
      expect((await upgrade(server, '/x/ZZZZZZ?sessionId=1')).status).toBe(101);
    } finally {
      err.mockRestore();
    }
  });

  test('the API: writes from a foreign origin are refused; reads, the allowed origin and the page itself are not', async () => {
    const port = server.port;
    const foreign = await rawPost(server, '/api/rooms', {}, { headers: { origin: FOREIGN } });
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.code).toBe('forbidden_origin');
    // A "simple" text/plain POST (no preflight) is refused the same way.
    const simple = await raw(server, '/api/rooms', { method: 'POST', body: 'x', headers: { origin: FOREIGN, 'content-type': 'text/plain' } });
    expect(simple.status).toBe(403);
    expect((await raw(server, '/api/rooms', { headers: { origin: FOREIGN } })).status).toBe(200);
    expect((await rawPost(server, '/api/rooms', {}, { headers: { origin: ALLOWED } })).status).toBe(201);
    // The page's own origin, on an allowed host.
    expect((await rawPost(server, '/api/rooms', {}, { headers: { origin: `http://localhost:${port}`, host: `localhost:${port}` } })).status).toBe(201);
    // A rebound DNS name: Origin and Host agree, but the host is not allowed.
    expect((await rawPost(server, '/api/rooms', {}, { headers: { origin: `http://evil.example:${port}`, host: `evil.example:${port}` } })).status).toBe(403);
    // Configured hosts appear in invite links.
    const invite = await rawPost(server, '/api/rooms', {}, { headers: { host: 'djambi.test:8080' } });
    expect(invite.json.invite).toBe(`http://djambi.test:8080/g/${invite.json.code}`);
  });
});

describe('a public URL behind a trusted proxy', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      publicUrl: 'https://djambi.example/',
      trustProxy: ['127.0.0.1'],
      limits: { exempt: [], rates: { create: { burst: 2, intervalMs: 60_000 } } },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  test('invites use the public URL; its origin is the allowed one; HSTS is sent', async () => {
    const res = await rawPost(server, '/api/rooms', {}, { headers: { host: 'evil.example', 'x-forwarded-for': '203.0.113.50' } });
    expect(res.json.invite).toBe(`https://djambi.example/g/${res.json.code}`);
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+$/);
    const headers = { origin: 'https://djambi.example', 'x-forwarded-for': '203.0.113.51' };
    expect((await rawPost(server, `/matchmake/joinById/${res.json.code}`, { spectate: true }, { headers })).status).toBe(200);
    expect(
      (await rawPost(server, `/matchmake/joinById/${res.json.code}`, { spectate: true }, { headers: { ...headers, origin: 'http://localhost:2567' } })).status,
    ).toBe(403);
  });

  test('rate limits key on the address the proxy forwards (IPv6 by /64); an untrusted peer cannot choose its key', async () => {
    const create = async (xff: string, from?: string) => (await rawPost(server, '/api/rooms', {}, { from, headers: { 'x-forwarded-for': xff } })).status;
    expect([await create('203.0.113.7'), await create('203.0.113.7'), await create('203.0.113.7')]).toEqual([201, 201, 429]);
    expect(await create('203.0.113.8')).toBe(201);
    // A chain: the client is the right-most address that is not a trusted proxy.
    expect(await create('198.51.100.9, 203.0.113.7, 127.0.0.1')).toBe(429);
    // IPv6: one /64 is one client.
    expect([await create('2001:db8:1:2::1'), await create('2001:db8:1:2::2'), await create('2001:db8:1:2:ffff::3')]).toEqual([201, 201, 429]);
    expect(await create('2001:db8:1:3::1')).toBe(201);
    // 127.0.0.2 is not a trusted proxy: whatever it forwards, it is 127.0.0.2.
    expect([await create('192.0.2.1', '127.0.0.2'), await create('192.0.2.2', '127.0.0.2'), await create('192.0.2.3', '127.0.0.2')]).toEqual([201, 201, 429]);
  });

  test('rooms see the forwarded address from the trusted proxy, the peer otherwise', async () => {
    const res = await rawPost(server, '/api/rooms', {}, { headers: { 'x-forwarded-for': '203.0.113.60' } });
    const invoke = jest.spyOn(matchMaker.controller, 'invokeMethod');
    try {
      const path = `/matchmake/joinById/${res.json.code}`;
      await rawPost(server, path, { spectate: true }, { headers: { 'x-forwarded-for': '203.0.113.61', 'x-real-ip': '10.9.9.9' } });
      await rawPost(server, path, { spectate: true }, { from: '127.0.0.3', headers: { 'x-forwarded-for': '203.0.113.62', 'x-real-ip': '10.9.9.9' } });
      expect(invoke.mock.calls.map((c) => (c[3] as { ip: string }).ip)).toEqual(['203.0.113.61', '127.0.0.3']);
    } finally {
      invoke.mockRestore();
    }
  });
});
