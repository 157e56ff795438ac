/**
 * Several real server processes sharing one Redis and one PostgreSQL database, as a deployment
 * runs them: a `redis-server` of its own on a free loopback port (Debian's package), a database
 * of its own (`createTestDatabase`), and N `node server/dist/index.js` processes on free ports
 * with `REDIS_URL` and a `PUBLIC_ADDRESS` each. Without redis-server or PostgreSQL the cluster
 * tests skip locally with a message and fail under CI=true.
 */
import { existsSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from 'colyseus.js';
import { holder, type State, TestClient } from '../server/helpers.js';
import { ServerProcess } from '../server/processes.js';
import { freePort } from '../support/ports.js';

export { playTurns } from '../server/durability.js';
import { createTestDatabase, isPgReachable, PG_ADMIN_URL, type TestDatabase } from '../store/helpers.js';

import { REDIS_CLI, REDIS_SERVER, RedisProcess } from '../support/redis.js';

export { REDIS_CLI, REDIS_SERVER, RedisProcess } from '../support/redis.js';

/** Whether the cluster tests can run here; throws under CI=true when they cannot. */
export function clusterAvailable(file: string): boolean {
  const missing: string[] = [];
  if (!existsSync(REDIS_SERVER) || !existsSync(REDIS_CLI)) missing.push(`redis-server (${REDIS_SERVER}; apt-get install redis-server)`);
  if (!isPgReachable()) missing.push(`PostgreSQL at ${PG_ADMIN_URL}`);
  if (missing.length === 0) return true;
  if (process.env.CI === 'true') throw new Error(`${file}: ${missing.join(' and ')} required under CI=true (.ci/run provides them)`);
  console.warn(`${file}: no ${missing.join(' and no ')}: the cluster tests are skipped (they fail under CI=true)`);
  return false;
}

/** Redis, a database and `n` server processes. */
export class TestCluster {
  /** Each server's `PUBLIC_ADDRESS`. */
  private readonly addresses = new Map<ServerProcess, string>();

  private constructor(
    readonly redis: RedisProcess,
    readonly db: TestDatabase,
    readonly servers: ServerProcess[],
  ) {}

  /**
   * Starts everything; `env` goes to every server process; `address(i, port)` is server i's
   * `PUBLIC_ADDRESS` (default `127.0.0.1:port`, its own port).
   */
  static async start(n: number, env: Record<string, string> = {}, address = (_i: number, port: number) => `127.0.0.1:${port}`): Promise<TestCluster> {
    const redis = await RedisProcess.start();
    const db = await createTestDatabase();
    const servers: ServerProcess[] = [];
    const cluster = new TestCluster(redis, db, servers);
    try {
      for (let i = 0; i < n; i++) {
        const port = await freePort();
        const publicAddress = address(i, port);
        const server = new ServerProcess(port, {
          REDIS_URL: redis.url,
          PUBLIC_ADDRESS: publicAddress,
          DATABASE_URL: db.url,
          NODE_NAME: `node${i}`,
          ...env,
        });
        cluster.addresses.set(server, publicAddress);
        servers.push(server);
      }
      // One at a time: the first one migrates the database.
      for (const s of servers) await s.start();
    } catch (e) {
      await cluster.stop();
      throw e;
    }
    return cluster;
  }

  /** The server process hosting the room of `code` (from its listing's public address). */
  hostOf(code: string): ServerProcess {
    const listing = this.redis.listing(code);
    const host = this.servers.find((s) => listing?.publicAddress === this.addresses.get(s));
    if (!host) throw new Error(`no process hosts ${code} (listing ${JSON.stringify(listing)})`);
    return host;
  }

  /** Kills every process, then drops the database; with CLUSTER_LOGS=dir, writes each process's output there. */
  async stop(): Promise<void> {
    const dir = process.env.CLUSTER_LOGS;
    if (dir) for (const s of this.servers) writeFileSync(path.join(dir, `djambi-${s.port}.log`), s.output);
    await Promise.all(this.servers.map((s) => s.stop()));
    await this.redis.stop();
    await this.db.drop().catch(() => undefined);
  }
}

/** A colyseus.js SDK whose matchmaking goes to whatever listens on `port` (a process, or nginx). */
export function sdkAt(port: number): Client {
  return new Client(`ws://127.0.0.1:${port}`);
}

/** A seated and started table whose players matchmake through the given ports, in turn. */
export interface Table {
  readonly code: string;
  readonly keys: Map<string, string>;
  players: TestClient[];
}

/** Creates a 4-player game through `ports[0]`; player i matchmakes through `ports[i % ports.length]`. */
export async function seatTable(ports: readonly number[]): Promise<Table> {
  const first = sdkAt(ports[0]);
  const creator = new TestClient(
    await first.create<State>('djambi', { rules: { players: 4 }, clock: { initialSeconds: 900, incrementSeconds: 5 }, visibility: 'public', name: 'p0' }),
    first,
  );
  await creator.waitMessage('seat');
  await creator.waitState((s) => s.code !== '', 'code');
  const code = creator.state.code as string;
  const players = [creator];
  for (let i = 1; i < 4; i++) {
    const s = sdkAt(ports[i % ports.length]);
    const p = new TestClient(await s.joinById<State>(code, { name: `p${i}` }), s);
    await p.waitMessage('seat');
    players.push(p);
  }
  const keys = new Map(players.map((p) => [p.seat!.colour as string, p.seat!.seatKey]));
  creator.room.send('start');
  await Promise.all(players.map((p) => p.waitState((s) => s.phase === 'playing', 'started')));
  return { code, keys, players };
}

/**
 * Each seat holder comes back with its key through the given ports (in turn), retrying like the
 * client does while the game is being taken over (the room is gone, or listed on a dead process).
 */
export async function reclaim(ports: readonly number[], code: string, keys: Map<string, string>, timeoutMs = 15_000): Promise<TestClient[]> {
  const deadline = Date.now() + timeoutMs;
  return Promise.all(
    [...keys.values()].map(async (seatKey, i) => {
      for (let attempt = 0; ; attempt++) {
        const s = sdkAt(ports[(i + attempt) % ports.length]);
        try {
          const tc = new TestClient(await s.joinById<State>(code, { seatKey }), s);
          await tc.waitMessage('seat');
          await tc.waitState((st) => st.code === code, 'state');
          return tc;
        } catch (e) {
          if (Date.now() > deadline) throw new Error(`could not reclaim a seat of ${code}: ${(e as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 100 * 2 ** attempt)));
        }
      }
    }),
  );
}

/** What a client sees of a game: position, move list, version, clocks. */
export function view(p: TestClient): unknown {
  const s = p.state;
  const clocks: Record<string, number> = {};
  s.seats.forEach((seat: State, colour: string) => {
    clocks[colour] = seat.clockMs;
  });
  return { fen: s.fen, moves: [...s.moves], version: s.version, phase: s.phase, clocks };
}

/** Resigns the active players one by one until the game is over; every watcher sees each step. */
export async function finish(players: TestClient[], watchers: TestClient[]): Promise<void> {
  while (players[0].state.phase === 'playing') {
    const active = players[0].state.active.toArray() as string[];
    const version = players[0].state.version as number;
    holder(players, active[0]).room.send('resign');
    await Promise.all(watchers.map((p) => p.waitState((st) => st.version > version, 'resignation')));
  }
}

/** Leaves every client (errors ignored). */
export async function leaveAll(clients: TestClient[]): Promise<void> {
  await Promise.all(clients.map((c) => c.room.leave(true).catch(() => undefined)));
}

/**
 * One HTTP request to a process, on a fresh connection (no keep-alive: a pooled socket that the
 * server closes as idle while the box is loaded would fail the request with "other side closed").
 */
export function request(port: number, method: string, route: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      { host: '127.0.0.1', port, method, path: route, agent: false, headers: payload ? { 'content-type': 'application/json' } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** GET a JSON route of one process. */
export function getJson(port: number, route: string): Promise<{ status: number; body: any; text: string }> {
  return request(port, 'GET', route);
}
