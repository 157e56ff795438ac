/**
 * The floor of bench:cluster (`--target baseline`): one process of the same deployment as the
 * Djambi server's (Colyseus's Redis presence and driver, `PUBLIC_ADDRESS`, rooms created on the
 * process asked, the same transport settings and staggered heartbeat, production's Node flags, the
 * same nginx in front) serving the bare room of `room.ts`, with no game log, no rules and no
 * limits. It answers `/healthz` as the server does and `/metrics` with nothing, so that the
 * benchmark's probe (`loadgen/probe.ts`) serves the parent its figures. Environment: `PORT`,
 * `HOST`, `REDIS_URL`, `PUBLIC_ADDRESS`. With `BASELINE_LOG`, each accepted turn is first written
 * to `DATABASE_URL` and its patch goes out once it is committed: the floor of a deployment that
 * logs every turn before showing it. `store`: through the Djambi server's own PostgreSQL store
 * (its group commit); `insert`: one plain INSERT per turn from a pool of 10.
 */
import http from 'node:http';
import { matchMaker, Server } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import express from 'express';
import pg from 'pg';
import { redisOptions } from '../../../server/src/cluster/config.js';
import type { MatchEvent } from '../../../server/src/match/match.js';
import type { RoomConfig } from '../../../server/src/match/config.js';
import { DEFAULT_HEARTBEAT, startHeartbeat } from '../../../server/src/http/heartbeat.js';
import { disablePm2Io } from '../../../server/src/obs/pm2.js';
import { socketServerOf } from '../../../server/src/rooms/vendor.js';
import { BaselineRoom } from './room.js';

async function main(): Promise<void> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) throw new Error('REDIS_URL is required');
  disablePm2Io();
  const app = express();
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true, uptime: process.uptime(), rooms: matchMaker.stats.local.roomCount, ccu: matchMaker.stats.local.ccu });
  });
  app.get('/metrics', (_req, res) => {
    res.type('text/plain').send('');
  });
  const httpServer = http.createServer(app);
  const transport = new WebSocketTransport({ server: httpServer, pingInterval: 0 });
  const gameServer = new Server({
    transport,
    greet: false,
    gracefullyShutdown: false,
    presence: new RedisPresence(redisOptions(redisUrl)),
    driver: new RedisDriver(redisOptions(redisUrl)),
    ...(process.env.PUBLIC_ADDRESS ? { publicAddress: process.env.PUBLIC_ADDRESS } : {}),
    selectProcessIdToCreateRoom: async () => matchMaker.processId,
  });
  gameServer.define('baseline', await floorRoom());
  await gameServer.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
  const stopHeartbeat = startHeartbeat(socketServerOf(transport), DEFAULT_HEARTBEAT);
  process.once('SIGTERM', () => {
    stopHeartbeat();
    void gameServer.gracefullyShutdown(false).finally(() => process.exit(0));
  });
}

/** The bare room with each turn inserted into PostgreSQL (one plain INSERT, committed) before its patch. */
async function insertingRoom(): Promise<typeof BaselineRoom> {
  // Every connection opened now and kept (the benchmark counts the CPU of the backends it finds before the rooms play).
  const POOL = 10;
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL, idleTimeoutMillis: 0 });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS floor_events (room text NOT NULL, seq integer NOT NULL, payload text NOT NULL, at bigint NOT NULL, PRIMARY KEY (room, seq))',
  );
  const clients = await Promise.all(Array.from({ length: POOL }, () => pool.connect()));
  for (const c of clients) c.release();
  return class InsertingBaselineRoom extends BaselineRoom {
    static override log = async (room: string, seq: number, turn: string): Promise<void> => {
      await pool.query('INSERT INTO floor_events (room, seq, payload, at) VALUES ($1, $2, $3, $4)', [room, seq, JSON.stringify({ turn }), Date.now()]);
    };
  };
}

/**
 * The bare room with each turn appended to the Djambi server's own PostgreSQL store (its group
 * commit, `server/src/store/pgAppends.ts`) before its patch: a game row per room, an event per turn.
 */
async function storingRoom(): Promise<typeof BaselineRoom> {
  // The store as production loads it (server/dist, which bench:cluster runs), as bench:server's child does.
  const { openStore } = (await import('../../../server/dist/store/open.js')) as typeof import('../../../server/src/store/open.js');
  const store = await openStore({ databaseUrl: process.env.DATABASE_URL });
  const config = { visibility: 'private' } as unknown as RoomConfig;
  return class StoringBaselineRoom extends BaselineRoom {
    static override log = (room: string, seq: number, turn: string): Promise<void> =>
      store.appendMany(room, seq, [{ at: Date.now(), intent: { type: 'turn', colour: null, turn } } as unknown as MatchEvent]);

    override async onCreate(): Promise<void> {
      await store.createGame(this.roomId, config, Date.now());
      super.onCreate();
    }
  };
}

/** The room `BASELINE_LOG` names: none (the bare room), `insert` or `store`. */
async function floorRoom(): Promise<typeof BaselineRoom> {
  const log = process.env.BASELINE_LOG ?? '';
  if (log === '') return BaselineRoom;
  if (log === 'insert') return insertingRoom();
  if (log === 'store') return storingRoom();
  throw new Error(`BASELINE_LOG must be insert or store (got "${log}")`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
