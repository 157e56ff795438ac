/**
 * Budgets and determinism: a search cut by its deadline returns the precomputed fallback (or the
 * best it found), always legal; node-budget mode never reads the clock, so the same seed gives
 * the same turn and the same game. A counting clock stands in for time: nothing here is timed.
 */
import { DEFAULT_RULES, initialPosition, playTurn, type Position } from '@djambi/shared';
import { BOT_LEVELS, chooseTurn, fallbackTurn } from '../../server/src/bots/search.js';
import { playBotGame } from '../../server/src/bots/selfplay.js';
import { mazeEntry } from './positions.js';

/** A position some way into a seeded easy-bot game, with plenty of choices. */
function midgame(): Position {
  return playBotGame({ R: 'easy', B: 'easy', Y: 'easy', G: 'easy' }, { seed: 5, maxPlies: 24, nodes: { easy: 300 } }).final;
}

/** A fake clock: every reading advances it by `step` ms. */
function counter(step: number): () => number {
  let t = 0;
  return () => (t += step);
}

describe('bot deadlines', () => {
  test.each(BOT_LEVELS)('%s: a spent budget returns the fallback', (level) => {
    const pos = midgame();
    const d = chooseTurn(pos, { level, seed: 1, timeMs: 0 });
    expect(d.fallback).toBe(true);
    expect(d.turn).toEqual(fallbackTurn(pos));
    expect(playTurn(pos, d.turn).ok).toBe(true);
  });

  test.each(BOT_LEVELS)('%s: the search stops when the clock passes the budget', (level) => {
    const pos = midgame();
    // Each clock reading costs 1 ms: a 40 ms budget allows a few dozen evaluations at most.
    const now = counter(1);
    const d = chooseTurn(pos, { level, seed: 1, timeMs: 40, now });
    expect(d.nodes).toBeLessThanOrEqual(40);
    expect(playTurn(pos, d.turn).ok).toBe(true);
  });

  test('hard deepens only while the budget lasts', () => {
    const pos = midgame();
    const small = chooseTurn(pos, { level: 'hard', seed: 2, nodes: 200 });
    const large = chooseTurn(pos, { level: 'hard', seed: 2, nodes: 20_000 });
    expect(small.nodes).toBeLessThanOrEqual(200);
    expect(large.depth).toBeGreaterThanOrEqual(small.depth);
    expect(large.depth).toBeGreaterThanOrEqual(1);
  });
});

describe('bot determinism (node-budget mode)', () => {
  test.each(BOT_LEVELS)('%s: same seed, same turn', (level) => {
    for (const pos of [midgame(), mazeEntry(), initialPosition(DEFAULT_RULES)]) {
      const a = chooseTurn(pos, { level, seed: 9, nodes: 1500 });
      const b = chooseTurn(pos, { level, seed: 9, nodes: 1500 });
      expect(b.turn).toEqual(a.turn);
      expect(b.nodes).toBe(a.nodes);
    }
  });

  test('same seed, same game; every level plays a short game to the end', () => {
    const seats = { R: 'hard', B: 'easy', Y: 'normal', G: 'easy' } as const;
    const opts = { seed: 77, maxPlies: 400, nodes: { easy: 300, normal: 500, hard: 700 } };
    const a = playBotGame(seats, opts);
    const b = playBotGame(seats, opts);
    expect(a.illegal).toBe(0);
    expect(a.result).not.toBeNull();
    expect(b.turns).toEqual(a.turns);
    expect(b.result).toEqual(a.result);
  });
});
