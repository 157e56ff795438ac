/**
 * Bots never block the rooms' event loop: while three rooms of four hard bots think (the real
 * pool and worker, the levels' own wall-clock budgets, no human-like delay, so the worker is
 * always busy), two people in another room play twenty turns, and each turn's patch comes back
 * quickly. A responsiveness check with a generous bound, not a benchmark.
 */
import type { RunningServer } from '../../server/src/app.js';
import { DEFAULT_BOT_SETTINGS } from '../../server/src/table/bots.js';
import { createRoom, join, leaveAll, quietSdkWarnings, randomTurnFor, seeded, startServer, type TestClient, roomOf } from './helpers.js';
import { rawPost } from './httpHelpers.js';

jest.setTimeout(90_000);
beforeAll(() => quietSdkWarnings());

const TURNS = 20;

/** Resolves once `check` holds (polled), rejects after `ms`. */
function until(check: () => boolean, ms: number, label: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + ms;
    const poll = setInterval(() => {
      if (check()) resolve();
      else if (Date.now() > deadline) reject(new Error(label));
      else return;
      clearInterval(poll);
    }, 20);
  });
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

test('while three rooms of hard bots think, another room’s turns are patched back quickly', async () => {
  const server: RunningServer = await startServer({ rooms: { bots: { ...DEFAULT_BOT_SETTINGS, minDelayMs: 0, maxDelayMs: 0 } } });
  const clients: TestClient[] = [];
  try {
    const hard = { R: 'hard', B: 'hard', Y: 'hard', G: 'hard' };
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await rawPost(server, '/api/rooms', { bots: hard, rules: { no_progress_rounds: 0 } });
      expect(res.status).toBe(201);
      codes.push(res.json.code);
    }
    const busy = codes.map(roomOf);
    // The bots are under way (the worker has started and answered).
    await until(() => busy.some((r) => (r.bots?.stats.turns ?? 0) > 0), 30_000, 'the hard bots never played');
    const a = await createRoom(server, { rules: { players: 2 }, name: 'a' });
    const b = await join(server, a.state.code as string, { name: 'b' });
    clients.push(a, b);
    a.room.send('start');
    await a.waitState((s) => s.phase === 'playing', 'started');
    const botTurns = () => busy.reduce((n, r) => n + (r.bots?.stats.turns ?? 0), 0);
    const before = botTurns();
    const random = seeded(21);
    const latencies: number[] = [];
    const bySeat = new Map<string, TestClient>([a, b].map((c) => [c.seat!.colour, c]));
    for (let i = 0; i < TURNS && a.state.phase === 'playing'; i++) {
      const mover = bySeat.get(a.state.toMove)!;
      await mover.waitState((s) => s.version === a.state.version, 'the mover up to date');
      const version = mover.state.version as number;
      const t0 = performance.now();
      mover.room.send('turn', { ...randomTurnFor(mover.state, random), version });
      await mover.waitState((s) => s.version > version, 'the turn patched');
      latencies.push(performance.now() - t0);
      await a.waitState((s) => s.version > version, 'the other side patched');
    }
    expect(a.received('rejected')).toEqual([]);
    expect(b.received('rejected')).toEqual([]);
    // The bots were thinking meanwhile: a decision under way during the turns completes (about one
    // hard decision a second: one worker for the process).
    await until(() => botTurns() > before, 15_000, 'the hard bots stopped');
    const thinking = botTurns() - before;
    const sorted = [...latencies].sort((x, y) => x - y);
    const p95 = quantile(sorted, 0.95);
    const max = sorted[sorted.length - 1];
    console.log(
      `turn→patch over ${latencies.length} turns beside 3 hard-bot rooms: p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms; bot turns meanwhile ${thinking}`,
    );
    expect(latencies.length).toBeGreaterThanOrEqual(10);
    // A hard search on the rooms' thread blocks it for most of its ~750 ms budget, and three rooms
    // of hard bots keep one running all the time: p95 would be near that. Loaded CI machines
    // measured p95 up to 180 ms with the search in the worker.
    expect(p95).toBeLessThan(500);
    expect(max).toBeLessThan(2000);
    for (const r of busy) expect(r.bots?.stats.codes).toEqual([]);
  } finally {
    await leaveAll(clients);
    await server.close();
  }
});
