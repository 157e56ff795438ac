/**
 * HTTP API: `GET /healthz`, `GET /api/rooms`, `POST /api/rooms`, `GET /api/rooms/:code`,
 * `GET /api/rooms/:code/record`.
 * Rooms are found through the Colyseus matchmaker, so this works with a shared driver too.
 */
import express, { type Request, type Response, type Router } from 'express';
import { matchMaker, ServerError } from '@colyseus/core';
import { normaliseCode } from '../rooms/codes.js';
import type { RoomListing } from '../rooms/DjambiRoom.js';

/** Room name of the game rooms. */
export const ROOM_NAME = 'djambi';

/** Base URL for invite links: the configured one, else from the request's Host header. */
export function baseUrl(req: Request, publicUrl: string | null): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const host = req.get('host') ?? 'localhost';
  return `${req.protocol}://${host}`;
}

function describe(room: { roomId: string; clients: number; metadata?: unknown }): RoomListing & { clients: number } {
  return { ...(room.metadata as RoomListing), code: room.roomId, clients: room.clients };
}

/** The `/api` router. */
export function apiRouter(publicUrl: string | null): Router {
  const router = express.Router();
  router.use(express.json({ limit: '8kb' }));

  router.get('/rooms', async (_req: Request, res: Response) => {
    const rooms = await matchMaker.query({ name: ROOM_NAME, private: false });
    const list = rooms
      .filter((r) => r.metadata && (r.metadata as RoomListing).phase !== 'over')
      .map((r) => describe(r));
    res.json({ rooms: list });
  });

  router.post('/rooms', async (req: Request, res: Response) => {
    const options = req.body ?? {};
    if (typeof options !== 'object' || Array.isArray(options)) {
      res.status(400).json({ error: { code: 'bad_options', message: 'body must be a JSON object' } });
      return;
    }
    for (const key of ['name', 'colour', 'spectate', 'seatKey']) {
      if (key in options) {
        res.status(400).json({ error: { code: 'bad_options', message: `"${key}" is a join option; join the room to take a seat` } });
        return;
      }
    }
    try {
      const room = await matchMaker.createRoom(ROOM_NAME, options);
      const code = room.roomId;
      res.status(201).json({ code, invite: `${baseUrl(req, publicUrl)}/g/${code}`, room: describe(room) });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const code = /^([a-z_]+):/.exec(message)?.[1] ?? 'bad_options';
      const status = e instanceof ServerError && e.code >= 4400 && e.code < 4500 ? 400 : 500;
      res.status(status).json({ error: { code: status === 400 ? code : 'internal_error', message } });
    }
  });

  router.get('/rooms/:code', async (req: Request, res: Response) => {
    const code = normaliseCode(String(req.params.code));
    if (!code) {
      res.status(404).json({ error: { code: 'not_found', message: 'no such room' } });
      return;
    }
    const [room] = await matchMaker.query({ name: ROOM_NAME, roomId: code });
    if (!room) {
      res.status(404).json({ error: { code: 'not_found', message: 'no such room' } });
      return;
    }
    res.json({ ...describe(room), invite: `${baseUrl(req, publicUrl)}/g/${code}` });
  });

  router.get('/rooms/:code/record', async (req: Request, res: Response) => {
    const code = normaliseCode(String(req.params.code));
    const [room] = code ? await matchMaker.query({ name: ROOM_NAME, roomId: code }) : [];
    if (!code || !room) {
      res.status(404).json({ error: { code: 'not_found', message: 'no such room' } });
      return;
    }
    try {
      const text = await matchMaker.remoteRoomCall<string>(code, 'recordText');
      res.type('text/plain; charset=utf-8').set('Content-Disposition', `inline; filename="djambi-${code}.txt"`).send(text);
    } catch (e) {
      res.status(500).json({ error: { code: 'internal_error', message: e instanceof Error ? e.message : String(e) } });
    }
  });

  router.use((_req: Request, res: Response) => {
    res.status(404).json({ error: { code: 'not_found', message: 'no such API route' } });
  });
  return router;
}
