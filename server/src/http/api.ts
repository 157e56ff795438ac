/**
 * HTTP API: `GET /api/rooms`, `POST /api/rooms`, `GET /api/rooms/:code`,
 * `GET /api/rooms/:code/record` (`GET /healthz` is in app.ts).
 * Rooms are found through the Colyseus matchmaker, so this works with a shared driver too.
 * The limits (body size, per-address budgets, origins) come from the edge, see `guard.ts`.
 */
import type { IncomingMessage } from 'node:http';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { matchMaker, ServerError } from '@colyseus/core';
import { normaliseCode, parseJoinError } from '@djambi/shared';
import type { GameDirectory } from '../games/directory.js';
import { creatorOption } from '../games/quota.js';
import { hashSeatKey, newSeatKey } from '../match/seats.js';
import { hostOption, parseCreateBody } from '../match/config.js';
import { gamesRouter } from './games.js';
import { type Cursor, describe, parseCursor, type RoomListings } from './listing.js';
import type { RateKind } from './limits.js';

import { ROOM_NAME } from '../games/directory.js';

export { ROOM_NAME };

/** Rooms per page of `GET /api/rooms` by default, and at most. */
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 100;

/** What the API needs from the HTTP edge (an `HttpGuard`). */
export interface ApiEdge {
  /** Largest JSON body, bytes. */
  readonly limits: { readonly bodyBytes: number };
  /** The client's address key for a request (an IPv6 client: its /64), as the rate limits see it. */
  addressOf(req: IncomingMessage): string;
  /** Base URL of invite links for a request (never an untrusted `Host`). */
  baseUrl(req: IncomingMessage): string;
  /** Middleware spending a token of `kind` for the client address (429 `rate_limited`). */
  limit(kind: RateKind): RequestHandler;
  /** Middleware refusing writing requests from a foreign `Origin` (403 `forbidden_origin`). */
  readonly sameOrigin: RequestHandler;
}

/** `?limit=` and `?cursor=` of the listing; null for a malformed one. */
function parsePage(query: Request['query']): { limit: number; after: Cursor | null } | null {
  const { limit, cursor } = query;
  if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,6}$/.test(limit) || Number(limit) < 1)) return null;
  if (cursor !== undefined && (typeof cursor !== 'string' || !parseCursor(cursor))) return null;
  return {
    limit: limit === undefined ? PAGE_DEFAULT : Math.min(PAGE_MAX, Number(limit)),
    after: typeof cursor === 'string' ? parseCursor(cursor) : null,
  };
}

/** The listing of the game room `code`, if any. */
async function listed(code: string): Promise<{ roomId: string; clients: number; metadata?: unknown } | undefined> {
  const room = await matchMaker.getRoomById(code);
  return room && room.name === ROOM_NAME ? room : undefined;
}

/** The `/api` router; `listings` serves `GET /api/rooms`. */
export function apiRouter(edge: ApiEdge, games: GameDirectory, listings: RoomListings): Router {
  const router = express.Router();
  router.use(edge.limit('api'), edge.sameOrigin, express.json({ limit: edge.limits.bodyBytes }));

  router.get('/rooms', async (req: Request, res: Response) => {
    const page = parsePage(req.query);
    if (!page) {
      res.status(400).json({ error: { code: 'bad_query', message: `limit must be 1..${PAGE_MAX}; cursor must be a "next" value of this listing` } });
      return;
    }
    try {
      res.json(await listings.page(page.limit, page.after));
    } catch (e) {
      res.status(500).json({ error: { code: 'internal_error', message: e instanceof Error ? e.message : String(e) } });
    }
  });

  router.post('/rooms', edge.limit('create'), async (req: Request, res: Response) => {
    const options: unknown = req.body ?? {};
    // Checked here, before the matchmaker builds a room: it merges the body into a new room
    // before `onCreate` runs, and a body it cannot merge would leave that room behind.
    const parsed = parseCreateBody(options);
    if (!parsed.ok) {
      const { code, message, path } = parsed.error;
      res.status(400).json({ error: path === undefined ? { code, message } : { code, message, path } });
      return;
    }
    // The creator is the host: it gets a token (128 random bits) to join with; the room keeps its
    // hash only, given as a grant no client can send (a `hostHash` of the body is replaced).
    const hostToken = newSeatKey();
    try {
      const room = await matchMaker.createRoom(ROOM_NAME, {
        ...(options as object),
        ...hostOption(hashSeatKey(hostToken)),
        ...creatorOption(edge.addressOf(req)),
      });
      const code = room.roomId;
      res.status(201).json({ code, invite: `${edge.baseUrl(req)}/g/${code}`, hostToken, room: describe(room) });
    } catch (e) {
      // Join error codes 44xx are the caller's fault; 4503 (`server_full`) and 4504
      // (`storage_unavailable`) are temporary refusals: 503, try again.
      const { code, message } = parseJoinError(e);
      const known = e instanceof ServerError && e.code >= 4400 && e.code < 4600 && e.code !== 4500;
      const status = !known ? 500 : e.code === 4503 || e.code === 4504 ? 503 : e.code === 4429 ? 429 : 400;
      res.status(status).json({ error: { code: known ? code : 'internal_error', message } });
    }
  });

  router.get('/rooms/:code', edge.limit('lookup'), async (req: Request, res: Response) => {
    const code = normaliseCode(String(req.params.code));
    if (!code) {
      res.status(404).json({ error: { code: 'not_found', message: 'no such room' } });
      return;
    }
    // A game in the log but not live (a restart, an idle room) is re-opened by its first lookup.
    const found = await games.reopen(code).catch(() => 'unknown' as const);
    // One listing by id (HGET), not the whole listing (HGETALL with a shared driver).
    const room = found === 'finished' ? undefined : await listed(code);
    if (!room) {
      const finished = found === 'finished';
      res.status(finished ? 410 : 404).json({
        error: finished ? { code: 'game_over', message: `this game is finished: see /api/games/${code}` } : { code: 'not_found', message: 'no such room' },
      });
      return;
    }
    res.json({ ...describe(room), invite: `${edge.baseUrl(req)}/g/${code}` });
  });

  router.get('/rooms/:code/record', edge.limit('lookup'), async (req: Request, res: Response) => {
    const code = normaliseCode(String(req.params.code));
    const room = code ? await listed(code) : undefined;
    const site = `${edge.baseUrl(req)}/g/${code}`;
    if (!code || !room) {
      // After its room is gone, a game's record comes from the log.
      const record = code ? await games.record(code, site).catch(() => null) : null;
      if (!record) {
        res.status(404).json({ error: { code: 'not_found', message: 'no such room' } });
        return;
      }
      res.type('text/plain; charset=utf-8').set('Content-Disposition', `inline; filename="djambi-${code}.txt"`).send(record.text);
      return;
    }
    try {
      const text = await matchMaker.remoteRoomCall<string>(code, 'recordText', [site]);
      res.type('text/plain; charset=utf-8').set('Content-Disposition', `inline; filename="djambi-${code}.txt"`).send(text);
    } catch (e) {
      // The room's process did not answer (it may have died): the log has the same record.
      const record = await games.record(code, site).catch(() => null);
      if (record) {
        res.type('text/plain; charset=utf-8').set('Content-Disposition', `inline; filename="djambi-${code}.txt"`).send(record.text);
        return;
      }
      res.status(500).json({ error: { code: 'internal_error', message: e instanceof Error ? e.message : String(e) } });
    }
  });

  router.use(
    '/games',
    gamesRouter(
      games,
      (kind) => edge.limit(kind),
      (req) => edge.baseUrl(req),
    ),
  );

  router.use((_req: Request, res: Response) => {
    res.status(404).json({ error: { code: 'not_found', message: 'no such API route' } });
  });
  return router;
}
