/**
 * Games survive the death of their process: a real server process (`node server/dist/index.js`)
 * is killed mid-game, with -9 or SIGTERM, and started again on the same store. Four colyseus.js
 * players reclaim their seats with their keys and find the same position, move list, clocks and
 * press history, then play the game to its end. On SQLite (a file in a temporary directory) and
 * on PostgreSQL (a database of its own; skipped locally without PostgreSQL, required under CI).
 */
import { Client } from 'colyseus.js';
import { fenOf, holder, quietSdkWarnings, seeded, type State, TestClient } from './helpers.js';
import { createTestDatabase, isPgReachable, PG_ADMIN_URL } from '../store/helpers.js';
import { playTurns, sendUntilAnswered } from './durability.js';
import { ServerProcess, tempDataDir } from './processes.js';
import { freePort } from '../support/ports.js';

const PG = isPgReachable();
if (!PG) {
  if (process.env.CI === 'true') throw new Error('PostgreSQL is required under CI=true (.ci/run provides one)');
  console.warn(`restart.test.ts: no PostgreSQL at ${PG_ADMIN_URL}, the PostgreSQL variants are skipped (they fail under CI=true)`);
}

jest.setTimeout(120_000);
beforeAll(() => quietSdkWarnings());

interface Table {
  code: string;
  keys: Map<string, string>;
  players: TestClient[];
}

async function rejoin(port: number, code: string, keys: Map<string, string>): Promise<TestClient[]> {
  const out: TestClient[] = [];
  for (const key of keys.values()) {
    const sdk = new Client(`ws://127.0.0.1:${port}`);
    const tc = new TestClient(await sdk.joinById<State>(code, { seatKey: key }), sdk);
    await tc.waitMessage('seat');
    await tc.waitMessage('press_history');
    await tc.waitState((s) => s.code === code, 'state');
    out.push(tc);
  }
  return out;
}

async function seatFour(port: number): Promise<Table> {
  const sdk = new Client(`ws://127.0.0.1:${port}`);
  const creator = new TestClient(
    await sdk.create<State>('djambi', { rules: { players: 4 }, clock: { initialSeconds: 900, incrementSeconds: 5 }, name: 'p0' }),
    sdk,
  );
  await creator.waitMessage('seat');
  await creator.waitState((s) => s.code !== '', 'code');
  const code = creator.state.code as string;
  const players = [creator];
  for (let i = 1; i < 4; i++) {
    const s2 = new Client(`ws://127.0.0.1:${port}`);
    const p = new TestClient(await s2.joinById<State>(code, { name: `p${i}` }), s2);
    await p.waitMessage('seat');
    players.push(p);
  }
  const keys = new Map(players.map((p) => [p.received('seat')[0].colour as string, p.received('seat')[0].seatKey as string]));
  creator.room.send('start');
  await Promise.all(players.map((p) => p.waitState((s) => s.phase === 'playing', 'started')));
  return { code, keys, players };
}

/** What a player can see: the position, the move list, the clocks, its press history. */
function view(p: TestClient): unknown {
  const s = p.state;
  const history = p.received('press_history').at(-1);
  const clocks: Record<string, number> = {};
  s.seats.forEach((seat: State, colour: string) => {
    clocks[colour] = seat.clockMs;
  });
  return { fen: fenOf(s), moves: [...s.moves], version: s.version, clocks, running: s.clock.running, history };
}

async function leave(players: TestClient[]): Promise<void> {
  await Promise.all(players.map((p) => p.room.leave(true).catch(() => undefined)));
}

async function crashAndRestart(signal: NodeJS.Signals, env: Record<string, string>): Promise<void> {
  const port = await freePort();
  const server = new ServerProcess(port, env);
  await server.start();
  try {
    const random = seeded(signal === 'SIGKILL' ? 11 : 12);
    const table = await seatFour(port);
    const [r] = table.players;
    r.room.send('press_send', { channel: 'table', text: 'A fair game, everyone.' });
    r.room.send('press_open', { members: ['B'] });
    await playTurns(table.players, table.players, random, 9);
    const channel = (await r.waitMessage('press_channel')).channel.id as string;
    r.room.send('press_send', { channel, text: 'Just between us, Blue.' });
    await table.players[1].waitMessage('press_message');
    // Each player's view, with a fresh press history (a reclaim sends one).
    await leave(table.players);
    const before = await rejoin(port, table.code, table.keys);
    const seen = before.map(view);

    if (signal === 'SIGTERM') {
      const exit = server.kill('SIGTERM');
      await Promise.all(before.map((p) => p.waitLeft(15_000)));
      for (const p of before) {
        expect(p.received('server_restart')).toHaveLength(1);
        expect(p.left).toBe(4100); // not 4000, which looks like a voluntary leave
      }
      expect((await exit).code).toBe(0);
    } else {
      await server.kill('SIGKILL');
    }
    await server.start();
    const after = await rejoin(port, table.code, table.keys);
    expect(after.map(view)).toEqual(seen);
    // The game goes on to its end.
    await playTurns(after, after, random, 400);
    while (after[0].state.phase === 'playing') {
      const active = after[0].state.active.toArray() as string[];
      const version = after[0].state.version as number;
      // Like a turn, a resignation may find the player's message budget spent by the turns
      // before it: it is refused `rate_limited` and sent again after `retryAfterMs`.
      const answer = await sendUntilAnswered(holder(after, active[0]), 'resign', undefined, (st) => st.version > version);
      if (!answer.accepted) throw new Error(`resign refused: ${answer.code} ${answer.message}`);
      await Promise.all(after.map((p) => p.waitState((st) => st.version > version, 'resignation')));
    }
    expect(after[0].state.phase).toBe('over');
    await leave(after);
  } finally {
    await server.stop();
  }
}

describe('SQLite store', () => {
  test('kill -9 mid-game: restart, seats reclaimed, the same game, played to the end', async () => {
    await crashAndRestart('SIGKILL', { DATA_DIR: tempDataDir() });
  });
  test('SIGTERM mid-game: clients told server_restart (4100), restart, the same game, played to the end', async () => {
    await crashAndRestart('SIGTERM', { DATA_DIR: tempDataDir() });
  });
});

(PG ? describe : describe.skip)('PostgreSQL store', () => {
  test('kill -9 mid-game: restart, seats reclaimed, the same game, played to the end', async () => {
    const db = await createTestDatabase();
    try {
      await crashAndRestart('SIGKILL', { DATABASE_URL: db.url });
    } finally {
      await db.drop();
    }
  });
  test('SIGTERM mid-game: clients told server_restart (4100), restart, the same game, played to the end', async () => {
    const db = await createTestDatabase();
    try {
      await crashAndRestart('SIGTERM', { DATABASE_URL: db.url });
    } finally {
      await db.drop();
    }
  });
});
