/**
 * The bot worker pool: a real `worker_threads` worker (this source through tsx) answers
 * requests in order, a crash or a missed deadline gives the fallback turn and a fresh worker,
 * and the event loop stays free while the worker thinks.
 */
import { playTurn } from '@djambi/shared';
import { BotPool } from '../../server/src/bots/pool.js';
import { fallbackTurn } from '../../server/src/bots/search.js';
import { mazeEntry, reporterAndKill, rulerExtraTurn } from './positions.js';

describe('BotPool', () => {
  let pool: BotPool;
  beforeAll(async () => {
    pool = new BotPool({ testHooks: true, graceMs: 100 });
    await pool.ready();
  }, 30_000);
  afterAll(() => pool.close());

  test('the worker answers with a legal turn', async () => {
    const pos = reporterAndKill();
    const a = await pool.think(pos, { level: 'normal', seed: 1, nodes: 2000, timeMs: 5000 });
    expect(a.source).toBe('worker');
    expect(a.decision?.fallback).toBe(false);
    expect(playTurn(pos, a.turn).ok).toBe(true);
  });

  test('queued requests are all answered, in order, while the event loop stays free', async () => {
    const positions = [rulerExtraTurn(), mazeEntry(), reporterAndKill()];
    const order: number[] = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const answers = await Promise.all(
      positions.map(async (pos, i) => {
        const a = await pool.think(pos, { level: 'hard', seed: i, nodes: 3000, timeMs: 10_000 });
        order.push(i);
        return a;
      }),
    );
    clearInterval(ticker);
    expect(order).toEqual([0, 1, 2]);
    answers.forEach((a, i) => {
      expect(a.source).toBe('worker');
      expect(playTurn(positions[i], a.turn).ok).toBe(true);
    });
    expect(ticks).toBeGreaterThan(0);
  });

  test('a crash gives the fallback, and a new worker serves the next request', async () => {
    const pos = mazeEntry();
    const restarts = pool.stats.restarts;
    const crashed = await pool.think(pos, { level: 'hard', seed: 1, timeMs: 5000 }, 'crash');
    expect(crashed.source).toBe('fallback');
    expect(crashed.turn).toEqual(fallbackTurn(pos));
    expect(playTurn(pos, crashed.turn).ok).toBe(true);
    expect(pool.stats.restarts).toBe(restarts + 1);
    await pool.ready();
    const next = await pool.think(pos, { level: 'easy', seed: 1, timeMs: 5000 });
    expect(next.source).toBe('worker');
    expect(playTurn(pos, next.turn).ok).toBe(true);
  }, 30_000);

  test('a worker that misses the deadline is replaced; its request gets the fallback', async () => {
    const pos = rulerExtraTurn();
    const restarts = pool.stats.restarts;
    const hung = await pool.think(pos, { level: 'normal', seed: 1, timeMs: 400 }, 'hang');
    expect(hung.source).toBe('fallback');
    expect(playTurn(pos, hung.turn).ok).toBe(true);
    expect(pool.stats.restarts).toBe(restarts + 1);
    await pool.ready();
    const next = await pool.think(pos, { level: 'normal', seed: 1, timeMs: 5000 });
    expect(next.source).toBe('worker');
  }, 30_000);

  test('a full queue and a closed pool answer at once with the fallback', async () => {
    const small = new BotPool({ maxQueue: 0 });
    const pos = reporterAndKill();
    const a = await small.think(pos, { level: 'easy', seed: 1 });
    expect(a.source).toBe('fallback');
    await small.close();
    const b = await small.think(pos, { level: 'easy', seed: 1 });
    expect(b.source).toBe('fallback');
    expect(playTurn(pos, b.turn).ok).toBe(true);
  });
});
