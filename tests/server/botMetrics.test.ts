/**
 * The bot pool at `/metrics`: `djambi_bot_queue` (requests waiting for the worker) and
 * `djambi_bot_fallbacks_total{reason}` (turns played with the greedy fallback because the pool
 * was busy, late, failed or closing), read from the server's own pool.
 */
import { BotPool } from '../../server/src/bots/pool.js';
import type { RunningServer } from '../../server/src/app.js';
import { eventually } from '../support/wait.js';
import { mazeEntry, reporterAndKill } from '../bots/positions.js';
import { FAST_BOTS, join, leaveAll, quietSdkWarnings, startServer } from './helpers.js';
import { raw, rawPost } from './httpHelpers.js';

quietSdkWarnings();

/** The value of one series (`name{labels}` exactly as exposed), or undefined. */
function series(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

const fallbacks = (text: string, reason: string) => series(text, `djambi_bot_fallbacks_total{reason="${reason}"}`);

async function scrape(server: RunningServer): Promise<string> {
  const res = await raw(server, '/metrics');
  expect(res.status).toBe(200);
  return res.text;
}

describe('a pool with a queue of 2', () => {
  const pool = new BotPool({ testHooks: true, maxQueue: 2, graceMs: 50 });
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ rooms: { bots: { ...FAST_BOTS, pool } } });
    await pool.ready();
  });
  afterAll(async () => {
    await server.close();
    await pool.close();
  });

  test('the queue length is a gauge; a full queue and a missed deadline are counted by reason', async () => {
    const idle = await scrape(server);
    expect(idle).toContain('# TYPE djambi_bot_queue gauge');
    expect(idle).toContain('# TYPE djambi_bot_fallbacks_total counter');
    expect(series(idle, 'djambi_bot_queue')).toBe(0);
    for (const reason of ['busy', 'late', 'failed', 'closed']) expect(fallbacks(idle, reason)).toBe(0);

    // The worker hangs on the first request (its deadline: 300 ms plus the grace); two more wait.
    const hung = pool.think(mazeEntry(), { level: 'normal', seed: 1, timeMs: 300 }, 'hang');
    const waiting = [1, 2].map((seed) => pool.think(reporterAndKill(), { level: 'easy', seed, timeMs: 5000 }));
    expect(series(await scrape(server), 'djambi_bot_queue')).toBe(2);
    // A third finds the queue full: the fallback at once.
    const refused = await pool.think(reporterAndKill(), { level: 'easy', seed: 3, timeMs: 5000 });
    expect(refused.source).toBe('fallback');
    expect(fallbacks(await scrape(server), 'busy')).toBe(1);

    expect((await hung).source).toBe('fallback');
    await Promise.all(waiting);
    const after = await scrape(server);
    expect(fallbacks(after, 'late')).toBeGreaterThanOrEqual(1);
    expect(series(after, 'djambi_bot_queue')).toBe(0);
  }, 30_000);
});

describe('a pool that is always busy', () => {
  const pool = new BotPool({ maxQueue: 0 });
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ rooms: { bots: { ...FAST_BOTS, pool } } });
  });
  afterAll(async () => {
    await server.close();
    await pool.close();
  });

  test("the bots' turns are played with the fallback, each one counted busy", async () => {
    const res = await rawPost(server, '/api/rooms', { rules: { players: 2 }, bots: { R: 'easy', Y: 'easy' } });
    expect(res.status).toBe(201);
    const watcher = await join(server, res.json.code, { spectate: true });
    await watcher.waitState((s) => s.phase === 'playing' && s.moves.length >= 4, 'four bot turns');
    const text = await eventually(
      () => scrape(server),
      (t) => (fallbacks(t, 'busy') ?? 0) >= 4,
      'four busy fallbacks',
    );
    expect(fallbacks(text, 'late')).toBe(0);
    await leaveAll([watcher]);
  }, 30_000);
});
