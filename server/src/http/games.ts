/**
 * The archive: stored games, live or finished, read from the game log (`GET /api/games/...`).
 * A finished game stays readable forever here after its room is gone.
 *
 * - `GET /api/games/:code` → `{ code, status, createdAt, finishedAt, summary, rules, clock, visibility, phase, moves }`
 * - `GET /api/games/:code/record` → the record as text (docs/NOTATION.md); `?format=json` → `{ rules, events }`
 * - `GET /api/games/:code/reveal` → the after-game reveal of a finished game (what the room chose to reveal)
 * - `GET /api/games?codes=A,B,…` → `{ games: [...] }` for "Your games" (at most 50 codes)
 * - `GET /api/games/recent?limit=` → `{ games: [...] }`, the latest finished public games
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { normaliseCode } from '@djambi/shared';
import type { GameDirectory } from '../games/directory.js';
import { Match } from '../match/match.js';
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

/** The `/api/games` router (`limit`: the HTTP edge's per-address budgets). */
export function gamesRouter(games: GameDirectory, limit: (kind: RateKind) => RequestHandler): Router {
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
      const game = code ? await games.stored(code) : null;
      if (!game) return notFound(res);
      const match = Match.restore(game.config, game.events);
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
        seats: [...match.seats.seats.values()].map((s) => ({ colour: s.colour, name: s.name, taken: s.keyHash !== null })),
      });
    } catch (e) {
      unavailable(res, e);
    }
  });

  router.get('/:code/record', limit('lookup'), async (req: Request, res: Response) => {
    const code = normaliseCode(String(req.params.code));
    try {
      const record = code ? await games.record(code) : null;
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
    try {
      const game = code ? await games.stored(code) : null;
      if (!game) return notFound(res);
      if (game.status !== 'finished') {
        res.status(409).json({ error: { code: 'game_not_over', message: 'the reveal comes after the game' } });
        return;
      }
      res.json({ reveal: Match.restore(game.config, game.events).press.reveal() });
    } catch (e) {
      unavailable(res, e);
    }
  });

  return router;
}
