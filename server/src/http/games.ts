/**
 * The archive: stored games, live or finished, read from the game log (`GET /api/games/...`).
 * A finished game stays readable forever here after its room is gone.
 *
 * - `GET /api/games/:code` → `{ code, status, createdAt, finishedAt, summary, rules, clock, visibility, phase, moves, rematch, seats }`
 * - `GET /api/games/:code/record` → the record as text (docs/NOTATION.md); `?format=json` → `{ rules, events }`
 * - `GET /api/games/:code/reveal` → the after-game reveal of a finished game (what the room chose to reveal);
 *   `?channel=ID&before=N&limit=L` → `{ page }`, older messages of a revealed channel (the whole press, by pages)
 * - `GET /api/games?codes=A,B,…` → `{ games: [...] }` for "Your games" (at most 50 codes)
 * - `GET /api/games/recent?limit=` → `{ games: [...] }`, the latest finished public games
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { MAX_PAGE_MESSAGES, normaliseCode, PAGE_MESSAGES } from '@djambi/shared';
import { MAX_ID_CHARS } from '../press/text.js';
import type { GameDirectory } from '../games/directory.js';

import type { RateKind } from './limits.js';

/** Codes per "Your games" request, and finished games per recent list, at most. */
export const MAX_CODES = 50;
export const MAX_RECENT = 50;

function notFound(res: Response): void {
  res.status(404).json({ error: { code: 'not_found', message: 'no such game' } });
}

function unavailable(res: Response, e: unknown): void {
  console.error('[djambi] archive read failed:', e);
  res.status(503).json({ error: { code: 'storage_unavailable', message: 'the game store is unavailable; try again' } });
}

/** A page request of `GET /:code/reveal`: none (the reveal itself), or a channel's page. */
type RevealQuery = { ok: true; value: { channel: string; before: number | undefined; limit: number } | null } | { ok: false; message: string };

const QUERY_INTEGER = /^[1-9][0-9]{0,15}$/;

/** Reads `channel`, `before` and `limit` of the reveal route (other keys ignored; each at most once). */
export function revealQuery(q: Request['query']): RevealQuery {
  const { channel, before, limit } = q;
  if (channel === undefined) {
    if (before !== undefined || limit !== undefined) return { ok: false, message: '"before" and "limit" go with "channel"' };
    return { ok: true, value: null };
  }
  if (typeof channel !== 'string' || channel.length === 0 || channel.length > MAX_ID_CHARS) return { ok: false, message: '"channel" must be a channel id' };
  const int = (x: unknown): number | null => (typeof x === 'string' && QUERY_INTEGER.test(x) && Number.isSafeInteger(Number(x)) ? Number(x) : null);
  const b = before === undefined ? undefined : int(before);
  if (b === null) return { ok: false, message: '"before" must be a message id (an integer from 1)' };
  const n = limit === undefined ? PAGE_MESSAGES : int(limit);
  if (n === null || n > MAX_PAGE_MESSAGES) return { ok: false, message: `"limit" must be an integer from 1 to ${MAX_PAGE_MESSAGES}` };
  return { ok: true, value: { channel, before: b, limit: n } };
}

/** The `/api/games` router (`limit`: the HTTP edge's per-address budgets; `baseUrl`: the site's address, for a record's `Site` tag). */
export function gamesRouter(games: GameDirectory, limit: (kind: RateKind) => RequestHandler, baseUrl?: (req: Request) => string): Router {
  const router = express.Router();

  router.get('/recent', limit('lookup'), async (req: Request, res: Response) => {
    const n = Number(req.query.limit ?? 20);
    if (!Number.isInteger(n) || n < 1) {
      res.status(400).json({ error: { code: 'bad_query', message: `limit must be 1..${MAX_RECENT}` } });
      return;
    }
    if (!games.store) return void res.json({ games: [] });
    try {
      res.json({ games: await games.store.recentFinished({ limit: Math.min(MAX_RECENT, n), publicOnly: true }) });
    } catch (e) {
      unavailable(res, e);
    }
  });

  router.get('/', limit('lookup'), async (req: Request, res: Response) => {
    const raw = typeof req.query.codes === 'string' ? req.query.codes.split(',') : [];
    const codes = [...new Set(raw.map((c) => normaliseCode(c)).filter((c): c is string => c !== null))];
    if (codes.length === 0 || codes.length > MAX_CODES || raw.length > MAX_CODES) {
      res.status(400).json({ error: { code: 'bad_query', message: `codes must list 1..${MAX_CODES} game codes` } });
      return;
    }
    if (!games.store) return void res.json({ games: [] });
    try {
      res.json({ games: await games.store.listGames(codes) });
    } catch (e) {
      unavailable(res, e);
    }
  });

  router.get('/:code', limit('lookup'), async (req: Request, res: Response) => {
    const code = normaliseCode(String(req.params.code));
    try {
      const replay = code ? await games.replayed(code) : null;
      if (!replay) return notFound(res);
      const { game, match } = replay;
      const { rules, clock, visibility } = game.config;
      const info = (await games.store?.listGames([game.code]))?.[0];
      res.json({
        code: game.code,
        status: game.status,
        phase: match.phase,
        createdAt: game.createdAt,
        finishedAt: game.finishedAt,
        summary: info?.summary ?? null,
        rules,
        clock: clock ? { initialSeconds: clock.initialMs / 1000, incrementSeconds: clock.incrementMs / 1000 } : null,
        visibility,
        reveal_press_after_game: game.config.press.reveal_press_after_game,
        moves: match.game.length,
        rematch: match.rematch,
        seats: [...match.seats.seats.values()].map((s) => ({ colour: s.colour, name: s.name, taken: s.keyHash !== null })),
      });
    } catch (e) {
      unavailable(res, e);
    }
  });

  router.get('/:code/record', limit('lookup'), async (req: Request, res: Response) => {
    const code = normaliseCode(String(req.params.code));
    try {
      const record = code ? await games.record(code, baseUrl ? `${baseUrl(req)}/g/${code}` : undefined) : null;
      if (!record) return notFound(res);
      if (req.query.format === 'json') {
        res.set('Content-Disposition', `inline; filename="djambi-${code}.json"`).json(record.json);
        return;
      }
      res.type('text/plain; charset=utf-8').set('Content-Disposition', `inline; filename="djambi-${code}.txt"`).send(record.text);
    } catch (e) {
      unavailable(res, e);
    }
  });

  router.get('/:code/reveal', limit('lookup'), async (req: Request, res: Response) => {
    const code = normaliseCode(String(req.params.code));
    const query = revealQuery(req.query);
    if (!query.ok) return void res.status(400).json({ error: { code: 'bad_query', message: query.message } });
    try {
      const replay = code ? await games.replayed(code) : null;
      if (!replay) return notFound(res);
      if (replay.game.status !== 'finished') {
        res.status(409).json({ error: { code: 'game_not_over', message: 'the reveal comes after the game' } });
        return;
      }
      const press = replay.match.press;
      if (query.value === null) return void res.json({ reveal: press.reveal() });
      const { channel, before, limit: size } = query.value;
      const page = press.revealPage(channel, before, size);
      if (!page.ok) return void res.status(400).json({ error: { code: page.error.code, message: page.error.message } });
      res.json({ page: page.page });
    } catch (e) {
      unavailable(res, e);
    }
  });

  return router;
}
