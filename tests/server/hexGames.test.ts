/**
 * The hex games on a real server process (issue 39): colyseus.js players and the server's bots
 * play a `hex6` and a `hex5` game to the end, with a kill -9 and a restart in the middle. The
 * record the server keeps (`GET /api/rooms/CODE/record`) before the crash is the start of the
 * one after it, the players find the same position when they reclaim their seats, and at the
 * end the record replays with the engine to the position every player sees. SQLite store.
 */
import { Client } from 'colyseus.js';
import { type GameRecord, makeFen, parseRecord, replayRecord, type Rules } from '@djambi/shared';
import { fenOf, quietSdkWarnings, randomTurnFor, seeded, type State, TestClient } from './helpers.js';
import { sendUntilAnswered } from './durability.js';
import { ServerProcess, tempDataDir } from './processes.js';
import { freePort } from '../support/ports.js';

jest.setTimeout(240_000);
beforeAll(() => quietSdkWarnings());

interface Table {
  code: string;
  keys: Map<string, string>;
  players: TestClient[];
}

/** A room with `rules`, two people (the creator first) and bots in the other seats; started. */
async function seat(port: number, rules: Partial<Rules>, bots: Record<string, string>): Promise<Table> {
  const sdk = new Client(`ws://127.0.0.1:${port}`);
  const creator = new TestClient(await sdk.create<State>('djambi', { rules, bots, autostart: true, name: 'p0' }), sdk);
  await creator.waitMessage('seat');
  await creator.waitState((s) => s.code !== '', 'code');
  const code = creator.state.code as string;
  const s2 = new Client(`ws://127.0.0.1:${port}`);
  const second = new TestClient(await s2.joinById<State>(code, { name: 'p1' }), s2);
  await second.waitMessage('seat');
  const players = [creator, second];
  await Promise.all(players.map((p) => p.waitState((s) => s.phase === 'playing', 'started', 15_000)));
  const keys = new Map(players.map((p) => [p.received('seat')[0].colour as string, p.received('seat')[0].seatKey as string]));
  return { code, keys, players };
}

async function rejoin(port: number, code: string, keys: Map<string, string>): Promise<TestClient[]> {
  const out: TestClient[] = [];
  for (const key of keys.values()) {
    const sdk = new Client(`ws://127.0.0.1:${port}`);
    const tc = new TestClient(await sdk.joinById<State>(code, { seatKey: key }), sdk);
    await tc.waitMessage('seat');
    await tc.waitState((s) => s.code === code, 'state');
    out.push(tc);
  }
  return out;
}

/**
 * Plays until the game is over or `plies` more turns were seen: our players play random legal
 * turns (resigning once the game is long enough, so that it ends), the bots their own.
 */
async function play(players: TestClient[], random: () => number, plies: number, resignAfter = Number.POSITIVE_INFINITY): Promise<void> {
  const first = players[0];
  const start = first.state.version as number;
  while (first.state.phase === 'playing' && (first.state.version as number) < start + plies) {
    const s = first.state;
    const version = s.version as number;
    const mover = players.find((p) => p.received('seat').at(-1)?.colour === s.toMove);
    if (mover) {
      await mover.waitState((st) => st.version >= version, 'the mover sees the position');
      const resign = (s.ply as number) >= resignAfter;
      const answer = resign
        ? await sendUntilAnswered(mover, 'resign', undefined, (st) => st.version > version)
        : await sendUntilAnswered(mover, 'turn', { ...randomTurnFor(mover.state, random), version }, (st) => st.version > version);
      if (!answer.accepted) throw new Error(`${resign ? 'resign' : 'turn'} refused: ${answer.code} ${answer.message}`);
    }
    // A bot's turn (or ours, now sent): wait for the next version.
    await first.waitState((st) => st.version > version || st.phase !== 'playing', `version ${version + 1}`, 30_000);
  }
  const v = first.state.version as number;
  await Promise.all(players.map((p) => p.waitState((st) => st.version >= v, `version ${v}`, 10_000)));
}

/** The game record the server serves (`GET /api/rooms/CODE/record`, the notation of docs/NOTATION.md). */
async function record(server: ServerProcess, code: string): Promise<GameRecord> {
  const res = await fetch(`${server.url}/api/rooms/${code}/record`);
  expect(res.status).toBe(200);
  const parsed = parseRecord(await res.text());
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

async function leave(players: TestClient[]): Promise<void> {
  await Promise.all(players.map((p) => p.room.leave(true).catch(() => undefined)));
}

async function crashMidGame(rules: Partial<Rules>, bots: Record<string, string>, seats: number, seed: number): Promise<void> {
  const port = await freePort();
  const server = new ServerProcess(port, { DATA_DIR: tempDataDir(), BOT_DELAY_MS: '0' });
  await server.start();
  try {
    const random = seeded(seed);
    const table = await seat(port, rules, bots);
    expect(table.players[0].state.seats.size).toBe(seats);
    expect(table.players[0].state.rules.board).toBe(rules.board);
    // One round and a bit: early enough that our two players are still in the game, so that a
    // turn of theirs holds the bots (once both are out, the bots play on without a pause).
    await play(table.players, random, seats + 2);
    // The bots play on by themselves: wait until one of our players is to move, so the game
    // stands still while the record and the position are read.
    const ours = new Set(table.keys.keys());
    await table.players[0].waitState((st) => st.phase !== 'playing' || ours.has(st.toMove), 'one of our players to move', 30_000);
    expect(table.players[0].state.phase).toBe('playing');
    const before = await record(server, table.code);
    const fen = fenOf(table.players[0].state);
    expect(before.events.length).toBeGreaterThanOrEqual(seats + 2);

    await server.kill('SIGKILL');
    await server.start();
    const after = await rejoin(port, table.code, table.keys);
    for (const p of after) expect(fenOf(p.state)).toBe(fen);
    const restored = await record(server, table.code);
    expect(restored.events.slice(0, before.events.length)).toEqual(before.events);
    expect(restored.rules).toEqual(before.rules);

    // On to the end: our players resign after ply 60 (the bots play on until one is left).
    await play(after, random, 100_000, 60);
    expect(after[0].state.phase).toBe('over');
    const final = await record(server, table.code);
    expect(final.events.slice(0, before.events.length)).toEqual(before.events);
    const replayed = replayRecord(final);
    if (!replayed.ok) throw new Error(replayed.error.message);
    expect(makeFen(replayed.value)).toBe(fenOf(after[0].state));
    expect(replayed.value.result).not.toBeNull();
    // Its tags name the board and say how it ended (issue 40, bug 9).
    expect(final.tags).toMatchObject({ Variant: rules.board, Termination: expect.not.stringMatching(/^unterminated$/) });
    expect(final.tags?.Result).toBe(replayed.value.result?.kind === 'win' ? replayed.value.result.winner : 'draw');
    await leave(after);
  } finally {
    await server.stop();
  }
}

describe('hex games on a real server, kill -9 in the middle', () => {
  test('hex6: two players and four bots, to the end', async () => {
    await crashMidGame({ board: 'hex6', players: 6 }, { Y: 'easy', G: 'easy', P: 'easy', W: 'easy' }, 6, 61);
  });
  test('hex5 (the hostage army in seat 6, corner steps blocked by both flanks): two players and three bots, to the end', async () => {
    await crashMidGame({ board: 'hex5', players: 5, hostage_seat: 6, vertex_step: 'both_flanks_block' }, { Y: 'easy', G: 'easy', P: 'easy' }, 5, 62);
  });
});
