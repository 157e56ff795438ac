/**
 * deploy/nginx.conf, the compose deployment's public entry, on loopback with its hostnames
 * swapped: `nginx -t` accepts it, and a real nginx in front of two stand-in replicas (plain HTTP
 * servers that say who they are) routes HTTP to any replica, each WebSocket path /gameN/… to its
 * replica only (the whitelist: any other name is 404, nothing reaches a backend), and keeps
 * /metrics and /colyseus off the public entry; and one real game server behind it (both names
 * pointing at it) plays through nginx with colyseus.js, its WebSockets on /game1/, and its client
 * files keep their precompressed encoding and cache headers (nginx gzips only what came bare). The same config
 * in front of several real processes is the cluster tests' (`startNginx` in tests/support/nginx.ts).
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type net from 'node:net';
import { Client } from 'colyseus.js';
import type { RunningServer } from '../../server/src/app.js';
import { DEFAULT_CLUSTER } from '../../server/src/cluster/config.js';
import { quietSdkWarnings, randomTurnFor, seeded, startServer, TestClient, type State } from '../server/helpers.js';
import {
  checkConf,
  nginxDir,
  NGINX_BIN,
  NGINX_CONF,
  renderLoopbackConf,
  replicaNames,
  requireBinary,
  type RunningNginx,
  startNginx,
} from '../support/nginx.js';
import { freePort } from '../support/ports.js';

quietSdkWarnings();

const available = requireBinary(NGINX_BIN, 'nginx config', 'tests/deploy/nginx.test.ts');
const maybe = available ? describe : describe.skip;

/** A stand-in replica: answers every request and WebSocket upgrade with its name and what it got. */
async function standIn(name: string): Promise<{ server: http.Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.setHeader('x-replica', name);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ replica: name, url: req.url, forwardedFor: req.headers['x-forwarded-for'] ?? null }));
  });
  server.on('upgrade', (req, socket: net.Socket) => {
    seen.push(`UPGRADE ${req.url}`);
    socket.end(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Replica: ${name}\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as net.AddressInfo).port, seen };
}

/** nginx's access log once `ready(log)` holds (nginx writes lines as requests end), or after 5 s. */
async function waitForLog(nginx: RunningNginx, ready: (log: string) => boolean): Promise<string> {
  const until = Date.now() + 5000;
  for (;;) {
    const log = nginx.accessLog();
    if (ready(log) || Date.now() > until) return log;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One request through nginx. */
function get(port: number, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<{ status: number; replica: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, replica: res.headers['x-replica'] as string | undefined, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One request through nginx, its body as bytes (no decompression). */
function getRaw(port: number, path: string, headers: http.OutgoingHttpHeaders): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A WebSocket-style upgrade through nginx: the status and the replica that answered. */
function upgrade(port: number, path: string): Promise<{ status: number; replica: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false, headers: { connection: 'Upgrade', upgrade: 'websocket' } });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, replica: res.headers['x-replica'] as string | undefined });
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, replica: undefined });
    });
    req.on('error', reject);
    req.end();
  });
}

test('the rendering changes only hostnames, the listen address and paths', () => {
  const conf = readFileSync(NGINX_CONF, 'utf8');
  expect(replicaNames(conf)).toEqual(['game1', 'game2']);
  const out = renderLoopbackConf({ listenPort: 18080, replicas: { game1: 12567, game2: 12568 }, dir: '/tmp/x' }, conf);
  expect(out).not.toMatch(/game\d:2567/);
  expect(out).toContain('server 127.0.0.1:12567 max_fails=1');
  expect(out).toContain('listen 127.0.0.1:18080;');
  // The routing and the whitelist are the file's own.
  for (const line of conf.split('\n').filter((l) => /map|location|game\d game\d|proxy_pass|return 404/.test(l))) expect(out).toContain(line);
  expect(() => renderLoopbackConf({ listenPort: 1, replicas: { game1: 1 }, dir: '/tmp/x' }, conf)).toThrow(/routes game1, game2/);
});

maybe('nginx', () => {
  test('nginx -t accepts the config with the hostnames swapped for loopback', async () => {
    const dir = nginxDir();
    try {
      const r = await checkConf(renderLoopbackConf({ listenPort: 18080, replicas: { game1: 12567, game2: 12568 }, dir }), dir);
      expect({ ok: r.ok, output: r.output }).toEqual({ ok: true, output: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('routing through a real nginx', () => {
    let nginx: RunningNginx;
    let replicas: Awaited<ReturnType<typeof standIn>>[];
    beforeAll(async () => {
      replicas = [await standIn('game1'), await standIn('game2')];
      nginx = await startNginx({ game1: replicas[0].port, game2: replicas[1].port });
    });
    afterAll(async () => {
      await nginx?.stop();
      for (const r of replicas ?? []) r.server.close();
    });

    test('HTTP (matchmaking, API, client routes, /healthz) goes to any replica, with X-Forwarded-For', async () => {
      const served = new Set<string | undefined>();
      for (const path of ['/healthz', '/api/rooms', '/api/rooms/ABCDEF', '/g/ABCDEF/replay', '/matchmake/joinById/ABCDEF', '/']) {
        for (let i = 0; i < 2; i++) {
          const r = await get(nginx.port, path);
          expect({ path, status: r.status }).toEqual({ path, status: 200 });
          expect(JSON.parse(r.body)).toMatchObject({ url: path, forwardedFor: '127.0.0.1' });
          served.add(r.replica);
        }
      }
      expect([...served].sort()).toEqual(['game1', 'game2']);
    });

    test('each WebSocket path reaches its own replica, unchanged', async () => {
      for (let i = 0; i < 3; i++) {
        expect(await upgrade(nginx.port, '/game1/procA/ABCDEF?sessionId=s1')).toEqual({ status: 101, replica: 'game1' });
        expect(await upgrade(nginx.port, '/game2/procB/GHIJKL?sessionId=s2')).toEqual({ status: 101, replica: 'game2' });
      }
      expect(replicas[0].seen).toContain('UPGRADE /game1/procA/ABCDEF?sessionId=s1');
      expect(replicas[0].seen.filter((s) => s.includes('/game2/'))).toEqual([]);
      expect(replicas[1].seen.filter((s) => s.includes('/game1/'))).toEqual([]);
    });

    test('names outside the whitelist, /metrics and /colyseus get 404 from nginx and reach no replica', async () => {
      const before = replicas.map((r) => r.seen.length);
      for (const path of [
        '/game3/procC/ROOM?sessionId=x',
        '/game0/p/r',
        '/game12/p/r',
        '/metrics',
        '/metrics/',
        '/colyseus',
        '/colyseus/api/room/call?roomId=A&method=disconnect',
      ]) {
        expect({ path, status: (await get(nginx.port, path)).status }).toEqual({ path, status: 404 });
      }
      expect((await upgrade(nginx.port, '/game3/procC/ROOM?sessionId=x')).status).toBe(404);
      expect(replicas.map((r) => r.seen.length)).toEqual(before);
      expect(nginx.accessLog()).toMatch(/"GET \/metrics HTTP\/1\.1" 404/);
    });
  });
});

/** A built client in miniature: a hashed script with its build variants, and one without. */
const SCRIPT = Buffer.from(Array.from({ length: 300 }, (_, i) => `export const v${i} = ${i};\n`).join(''));
const HASHED = '/assets/app-Qw3_x9Zk.js';
const BARE = '/assets/bare-Lm8-p2Rt.js';

maybe('a real game server behind nginx', () => {
  let nginx: RunningNginx;
  let server: RunningServer;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'djambi-nginx-client-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>djambi</title>');
    writeFileSync(path.join(clientDir, HASHED), SCRIPT);
    writeFileSync(path.join(clientDir, `${HASHED}.br`), brotliCompressSync(SCRIPT));
    writeFileSync(path.join(clientDir, `${HASHED}.gz`), gzipSync(SCRIPT));
    writeFileSync(path.join(clientDir, BARE), SCRIPT);
    const nginxPort = await freePort();
    server = await startServer({
      clientDir,
      trustProxy: ['loopback'],
      cluster: { ...DEFAULT_CLUSTER, publicAddress: `127.0.0.1:${nginxPort}/game1` },
    });
    nginx = await startNginx({ game1: server.port, game2: server.port }, nginxPort);
  });
  afterAll(async () => {
    await nginx?.stop();
    await server?.close();
    if (clientDir) rmSync(clientDir, { recursive: true, force: true });
  });

  test("a hashed asset arrives in the replica's precompressed encoding with the immutable cache; nginx gzips what came bare", async () => {
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const r = await getRaw(nginx.port, HASHED, accept ? { 'accept-encoding': accept } : {});
      expect({ accept, status: r.status, coding: r.headers['content-encoding'] }).toEqual({ accept, status: 200, coding });
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.headers.vary).toMatch(/Accept-Encoding/i);
      // Not compressed twice: one decoding gives the file.
      const body = coding === 'br' ? brotliDecompressSync(r.body) : coding === 'gzip' ? gunzipSync(r.body) : r.body;
      expect(body.equals(SCRIPT)).toBe(true);
    }
    const bare = await getRaw(nginx.port, BARE, { 'accept-encoding': 'gzip, br' });
    expect(bare.headers['content-encoding']).toBe('gzip');
    expect(bare.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(bare.body).equals(SCRIPT)).toBe(true);
    const page = await getRaw(nginx.port, '/g/ABCDEF', { 'accept-encoding': 'gzip' });
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  test('colyseus.js creates, joins and plays through nginx; every WebSocket goes through /game1/', async () => {
    const endpoint = `ws://127.0.0.1:${nginx.port}`;
    const a = new TestClient(await new Client(endpoint).create<State>('djambi', { name: 'a', rules: { players: 2 } }), new Client(endpoint));
    await a.waitMessage('seat');
    await a.waitState((s) => typeof s.code === 'string' && s.code !== '', 'created');
    const code = a.state.code as string;
    const b = new TestClient(await new Client(endpoint).joinById<State>(code, { name: 'b' }), new Client(endpoint));
    await b.waitMessage('seat');
    a.room.send('start');
    await Promise.all([a, b].map((c) => c.waitState((s) => s.phase === 'playing', 'playing')));
    const mover = a.seat?.colour === a.state.toMove ? a : b;
    mover.room.send('turn', { ...randomTurnFor(mover.state, seeded(5)), version: mover.state.version });
    await Promise.all([a, b].map((c) => c.waitState((s) => s.moves.length === 1, 'one move')));
    expect(b.state.toJSON()).toEqual(a.state.toJSON());
    await Promise.all([a, b].map((c) => c.room.leave(true)));
    // nginx writes a WebSocket's line when it closes.
    const wsLine = new RegExp(`"GET /game1/[^/ ]+/${code}\\?sessionId=[^ ]+ HTTP/1\\.1" 101`, 'g');
    const log = await waitForLog(nginx, (text) => (text.match(wsLine) ?? []).length >= 2);
    expect(log.match(wsLine)).toHaveLength(2);
    expect(log).toMatch(/"POST \/matchmake\/create\/djambi HTTP\/1\.1" 200/);
  });
});
