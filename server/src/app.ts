/**
 * The Djambi server: Express (static client, HTTP API) plus Colyseus on one HTTP server.
 * `createServer` starts it and returns a handle to close it (tests call it with port 0).
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { matchMaker, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { apiRouter, ROOM_NAME } from './http/api.js';
import { DjambiRoom, type DjambiRoomSettings } from './rooms/DjambiRoom.js';

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
  /** Base URL for invite links (default: from the request's Host header). */
  readonly publicUrl?: string;
  /**
   * The rooms' clock, epoch ms (default `Date.now`): game clocks, presence times and the press's
   * rate limits read it. Tests move it forward instead of sleeping; it must never go back.
   */
  readonly now?: () => number;
}

export interface RunningServer {
  /** The port actually bound. */
  readonly port: number;
  /** `http://host:port` for clients on this machine. */
  readonly url: string;
  readonly httpServer: http.Server;
  readonly gameServer: Server;
  /** Disposes every room, closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Largest WebSocket frame accepted; bigger frames close the connection (code 1009). */
export const MAX_FRAME_BYTES = 16 * 1024;

const PLACEHOLDER = `<!doctype html><html><head><meta charset="utf-8"><title>Djambi</title></head>
<body><h1>Djambi server</h1><p>The web client is not built (run <code>npm run build</code>).
The game server runs: see docs/PROTOCOL.md.</p></body></html>`;

/** Starts the server. */
export async function createServer(config: ServerConfig): Promise<RunningServer> {
  const clientDir = path.resolve(config.clientDir ?? path.join(process.cwd(), 'client', 'dist'));
  const settings: DjambiRoomSettings = {
    graceSeconds: config.graceSeconds ?? 20,
    idleSeconds: config.idleSeconds ?? 600,
    publicUrl: config.publicUrl ?? null,
    now: config.now ?? Date.now,
  };

  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true, uptime: process.uptime(), rooms: matchMaker.stats.local.roomCount, ccu: matchMaker.stats.local.ccu });
  });
  app.use('/api', apiRouter(settings.publicUrl));

  const indexFile = path.join(clientDir, 'index.html');
  const sendIndex = (_req: Request, res: Response) => {
    if (existsSync(indexFile)) res.sendFile(indexFile);
    else res.type('html').send(PLACEHOLDER);
  };
  if (existsSync(clientDir)) app.use(express.static(clientDir, { index: false }));
  // SPA fallback: every other GET is a client route (`/`, `/g/CODE`, `/rules`, ...) and gets the
  // client's index.html, except the API (its own 404), `/healthz` (above), and paths that name a
  // file (a dot in the last segment, e.g. a missing `/assets/x.js`), which get a plain 404 rather
  // than HTML a browser would try to run as a script.
  app.get('*', (req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/api' || req.path.startsWith('/api/') || req.path === '/healthz') return next();
    const last = req.path.slice(req.path.lastIndexOf('/') + 1);
    if (last.includes('.')) return next();
    sendIndex(req, res);
  });
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain').send('not found');
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (err as { status?: number }).status ?? 500;
    res.status(status).json({ error: { code: status === 500 ? 'internal_error' : 'bad_request', message: String((err as Error).message ?? err) } });
  });

  const httpServer = http.createServer(app);
  const gameServer = new Server({
    transport: new WebSocketTransport({ server: httpServer, maxPayload: MAX_FRAME_BYTES }),
    greet: false,
    gracefullyShutdown: false,
  });
  class ConfiguredDjambiRoom extends DjambiRoom {
    static override settings = settings;
  }
  gameServer.define(ROOM_NAME, ConfiguredDjambiRoom);
  await gameServer.listen(config.port, config.host);
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
      await gameServer.gracefullyShutdown(false);
      httpServer.closeAllConnections();
      await closed;
    })();
    return closing;
  };
  return { port: address.port, url, httpServer, gameServer, close };
}
