/**
 * The Djambi server: Express (static client, HTTP API) plus Colyseus on one HTTP server.
 * `createServer` starts it and returns a handle to close it (tests call it with port 0).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { matchMaker, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Cluster } from './cluster/cluster.js';
import { type ClusterConfig, DEFAULT_CLUSTER } from './cluster/config.js';
import { DEFAULT_HEARTBEAT, type HeartbeatOptions, startHeartbeat } from './http/heartbeat.js';
import { GameDirectory, ROOM_NAME } from './games/directory.js';
import { apiRouter } from './http/api.js';
import { RoomListings } from './http/listing.js';
import { HttpGuard } from './http/guard.js';
import { clientFiles, REVALIDATE, sendNegotiated } from './http/static.js';
import { rateKey } from './http/address.js';
import { resolveLimits, type HttpLimitsInput } from './http/limits.js';
import { DEFAULT_ALLOWED_HOSTS, OriginPolicy } from './http/origins.js';
import { type ObservabilityOptions, observe } from './obs/index.js';
import { disablePm2Io } from './obs/pm2.js';
import { BotPool } from './bots/pool.js';
import { DEFAULT_ROOM_SETTINGS, DjambiRoom, type DjambiRoomSettings } from './rooms/DjambiRoom.js';
import { roomCensus } from './obs/census.js';
import { DEFAULT_QUOTA, RoomQuota } from './games/quota.js';
import { keepClientsFast, socketServerOf } from './rooms/vendor.js';
import type { GameStore } from './store/types.js';

/**
 * The listen socket's queue of connections not yet accepted (Node's default is 511; the kernel
 * caps it at `net.core.somaxconn`, 4,096 on current Linux). When a process dies, its players'
 * clients all come back through the survivors at once; a short queue drops their SYNs, and a
 * proxy whose connect times out meanwhile marks the survivor down (docs/DEPLOYMENT.md).
 */
export const LISTEN_BACKLOG = 4096;
export interface ServerConfig {
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  /** Interface to bind; default all interfaces. */
  readonly host?: string;
  /** Directory of the built client; default `client/dist` under the working directory. */
  readonly clientDir?: string;
  /** Default reconnection grace period in seconds (rooms may override); default 20. */
  readonly graceSeconds?: number;
  /** Default seconds an empty room is kept; default 600. */
  readonly idleSeconds?: number;
  /**
   * Base URL for invite links, e.g. `https://djambi.example` (default: the request's own, when its
   * host is in `allowedHosts`, else `http://localhost:PORT`). Its origin is an allowed origin.
   */
  readonly publicUrl?: string;
  /**
   * Reverse proxies whose `X-Forwarded-For` / `X-Real-IP` / `X-Forwarded-Host` / `-Proto` are
   * believed: addresses, CIDR blocks, or `loopback` / `linklocal` / `uniquelocal`. Default none:
   * the client address is the socket's peer, and those headers are removed before anything reads them.
   */
  readonly trustProxy?: readonly string[];
  /** Hosts written into invite links without `publicUrl` (`name` = any port, or `name:port`); default `localhost`, `127.0.0.1`, `[::1]`. */
  readonly allowedHosts?: readonly string[];
  /**
   * Browser origins allowed to use the matchmaker, the WebSocket and the API's writing routes;
   * `'*'` = any. Default: any, unless `publicUrl` is set, then its origin (plus the page's own
   * origin on an allowed host).
   */
  readonly allowedOrigins?: readonly string[] | '*';
  /** The HTTP limits (docs/PROTOCOL.md "Limits"); each field has a default. */
  readonly limits?: HttpLimitsInput;
  /**
   * The rooms' clock, epoch ms (default `Date.now`): game clocks, presence times and the press's
   * rate limits and the HTTP edge's rate limits read it. Tests move it forward instead of sleeping;
   * it must never go back.
   */
  readonly now?: () => number;
  /** The WebSocket heartbeat (staggered pings; dead connections dropped), see `http/heartbeat.ts`. */
  readonly heartbeat?: Partial<HeartbeatOptions>;
  /** Room limits: live rooms, unjoined-room lifetime, admission caps, message budget (defaults in DEFAULT_ROOM_SETTINGS). */
  readonly rooms?: Partial<Pick<DjambiRoomSettings, 'maxRooms' | 'unjoinedSeconds' | 'admission' | 'budget' | 'bots'>> & {
    /** The shares of `maxRooms` (defaults in `DEFAULT_QUOTA`, `games/quota.ts`). */
    readonly quota?: Partial<typeof DEFAULT_QUOTA>;
  };
  /** The game log (see `store/open.ts`); without one, games live in this process's memory only. The caller closes it. */
  readonly store?: GameStore;
  /** Re-open unfinished games of the store at boot (default true alone, false in a cluster: its sweep takes over). */
  readonly restoreOnBoot?: boolean;
  /**
   * The boot's working set: at most this many unfinished games people sat at are re-opened at
   * boot, newest activity first (default 1000); the others re-open on their first join or lookup.
   */
  readonly bootRestoreLimit?: number;
  /** Redis presence and driver, public address, takeover (`cluster/`); default: this process alone. */
  readonly cluster?: ClusterConfig;
  /** Logs, metrics (`/metrics`) and the monitor (`/colyseus`), see `obs/index.ts`; default: silent logs, fresh metrics, no monitor. */
  readonly observability?: ObservabilityOptions;
}

export interface RunningServer {
  /** The port actually bound. */
  readonly port: number;
  /** `http://host:port` for clients on this machine. */
  readonly url: string;
  readonly httpServer: http.Server;
  readonly gameServer: Server;
  /** Live and stored games (re-opening, the archive). */
  readonly games: GameDirectory;
  /** What the boot restore did (`swept`: games nobody sat at, deleted from the log). */
  readonly restored: { readonly restored: number; readonly failed: number; readonly swept: number; readonly ms: number };
  /** Tells every client the server restarts, disposes every room, closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Unfinished games re-opened at boot at most, by default (`bootRestoreLimit`). */
export const DEFAULT_BOOT_RESTORE = 1000;

/** Largest WebSocket frame accepted; bigger frames close the connection (code 1009). */
export const MAX_FRAME_BYTES = 16 * 1024;

const PLACEHOLDER = `<!doctype html><html><head><meta charset="utf-8"><title>Djambi</title></head>
<body><h1>Djambi server</h1><p>The web client is not built (run <code>npm run build</code>).
The game server runs: see docs/PROTOCOL.md.</p></body></html>`;

/** Starts the server. */
export async function createServer(config: ServerConfig): Promise<RunningServer> {
  disablePm2Io(); // before Colyseus's matchmaker imports it (see obs/pm2.ts)
  keepClientsFast(); // before any client connects (see rooms/vendor.ts)
  const app = express();
  const now = config.now ?? Date.now;
  const limits = resolveLimits(config.limits);
  const guard = new HttpGuard({
    limits,
    trustProxy: config.trustProxy ?? [],
    origins: new OriginPolicy({
      publicUrl: config.publicUrl ?? null,
      allowedHosts: config.allowedHosts ?? DEFAULT_ALLOWED_HOSTS,
      allowedOrigins: config.allowedOrigins ?? null,
    }),
    now,
    // Called on a join, once the server listens (`games` exists by then).
    beforeJoin: (roomId) => games.reopen(roomId),
  });
  const obs = await observe(app, guard, config.observability);
  const clientDir = path.resolve(config.clientDir ?? path.join(process.cwd(), 'client', 'dist'));
  // The process's bot worker (started on the first bot turn), unless the caller brings one.
  const ownBotPool = config.rooms?.bots?.pool ? null : new BotPool();
  const settings: DjambiRoomSettings = {
    ...DEFAULT_ROOM_SETTINGS,
    ...config.rooms,
    quota: new RoomQuota(
      { ...DEFAULT_QUOTA, ...config.rooms?.quota, maxRooms: config.rooms?.maxRooms ?? DEFAULT_ROOM_SETTINGS.maxRooms },
      new Set(limits.exempt.map((a) => rateKey(a))),
    ),
    bots: { ...(config.rooms?.bots ?? DEFAULT_ROOM_SETTINGS.bots), pool: config.rooms?.bots?.pool ?? ownBotPool },
    graceSeconds: config.graceSeconds ?? 20,
    idleSeconds: config.idleSeconds ?? 600,
    publicUrl: config.publicUrl ?? null,
    now,
    store: obs.store(config.store ?? null),
    restoreToken: randomBytes(18).toString('base64url'),
    metrics: obs.metrics,
  };
  const cluster = new Cluster(config.cluster ?? DEFAULT_CLUSTER);
  const games = new GameDirectory(settings.store, settings.restoreToken, cluster.peers() ?? undefined, settings.now);
  obs.metrics.watchReopens(() => games.reopens);
  obs.metrics.watchQuota(() => settings.quota.counts);
  const botPool = settings.bots.pool;
  if (botPool) obs.metrics.watchBots(() => botPool.stats);

  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    // `roomObjects`: every room object Colyseus built and did not close; above `rooms`, a leak.
    res.json({ ok: true, uptime: process.uptime(), rooms: matchMaker.stats.local.roomCount, roomObjects: roomCensus.held, ccu: matchMaker.stats.local.ccu });
  });
  const listings = new RoomListings({ now: settings.now });
  app.use('/api', apiRouter(guard, games, listings));

  const indexFile = path.join(clientDir, 'index.html');
  // The page names its hashed scripts: it is revalidated on every load (http/static.ts).
  const sendIndex = (req: Request, res: Response, next: NextFunction) => {
    if (existsSync(indexFile)) void sendNegotiated(req, res, next, indexFile, REVALIDATE).catch(next);
    else res.setHeader('Cache-Control', REVALIDATE).type('html').send(PLACEHOLDER);
  };
  if (existsSync(clientDir)) app.use(clientFiles(clientDir));
  // SPA fallback: every other GET is a client route (`/`, `/g/CODE`, `/rules`, ...) and gets the
  // client's index.html, except the API (its own 404), `/healthz` (above), and paths that name a
  // file (a dot in the last segment, e.g. a missing `/assets/x.js`), which get a plain 404 rather
  // than HTML a browser would try to run as a script.
  app.get('*', (req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/api' || req.path.startsWith('/api/') || req.path === '/healthz') return next();
    const last = req.path.slice(req.path.lastIndexOf('/') + 1);
    if (last.includes('.')) return next();
    sendIndex(req, res, next);
  });
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain').send('not found');
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (err as { status?: number }).status ?? 500;
    const code = status === 500 ? 'internal_error' : status === 413 ? 'payload_too_large' : 'bad_request';
    res.status(status).json({ error: { code, message: String((err as Error).message ?? err) } });
  });

  // Node checks the header and request timeouts every `connectionsCheckingInterval` (default 30 s).
  const checkEvery = Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4)));
  const httpServer = http.createServer({ connectionsCheckingInterval: checkEvery }, app);
  // pingInterval 0: the transport's all-at-once ping loop is off; `startHeartbeat` staggers it.
  const transport = new WebSocketTransport({ server: httpServer, maxPayload: MAX_FRAME_BYTES, verifyClient: guard.verifyClient, pingInterval: 0 });
  const gameServer = new Server({
    transport,
    greet: false,
    gracefullyShutdown: false,
    ...cluster.serverOptions(),
    logger: obs.colyseusLogger,
  });
  class ConfiguredDjambiRoom extends DjambiRoom {
    static override settings = settings;
  }
  listings.watch(gameServer.define(ROOM_NAME, obs.room(ConfiguredDjambiRoom)));
  await gameServer.listen(config.port, config.host, LISTEN_BACKLOG);
  const stopHeartbeat = startHeartbeat(socketServerOf(transport), { ...DEFAULT_HEARTBEAT, ...config.heartbeat });
  guard.install(httpServer); // around Colyseus's matchmaker router, which it installed at construction
  // Rooms nobody sat at live `unjoinedSeconds`, or `idleSeconds` while spectators watch: older
  // ones with no event since are what a crash left behind.
  const unseatedBefore = settings.now() - 1000 * Math.max(settings.unjoinedSeconds, settings.idleSeconds);
  const restored =
    (config.restoreOnBoot ?? !cluster.shared)
      ? await games.restoreAll({ limit: config.bootRestoreLimit ?? DEFAULT_BOOT_RESTORE, unseatedBefore })
      : { restored: 0, failed: 0, swept: 0, ms: 0 };
  cluster.start(games);
  const address = httpServer.address() as AddressInfo;
  const shownHost = !config.host || config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`;

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => {
        if (!httpServer.listening) resolve();
        else httpServer.once('close', () => resolve());
      });
      stopHeartbeat();
      await cluster.stop();
      await gameServer.gracefullyShutdown(false);
      await ownBotPool?.close();
      httpServer.closeAllConnections();
      await closed;
    })();
    return closing;
  };
  return { port: address.port, url, httpServer, gameServer, games, restored, close };
}
