/**
 * The rematch of a game re-opened after a restart repeats the game's bot options: a real server
 * process (`node server/dist/index.js`, SQLite in a temporary directory) is killed with -9 while
 * one person plays a bot with `autostart` on and `stand_in` off, and started again; the player
 * comes back with its key, resigns and asks for the rematch, which the bot accepts at once. The
 * new game starts by itself (`autostart`), and its stored config keeps both options. The
 * finished game's log keeps the link to its rematch: after another kill -9 and start, its archive
 * entry (`GET /api/games/CODE`) names the new game. An offer still open when the process is
 * killed comes back with the finished game's room (its answers and deadline are in the log): the
 * other player's answer after the restart makes the rematch.
 */
import path from 'node:path';
import { DEFAULT_SQLITE_FILE } from '../../server/src/store/open.js';
import { SqliteStore } from '../../server/src/store/sqlite.js';
import { sdkAt } from './durability.js';
import { quietSdkWarnings, type State, TestClient } from './helpers.js';
import { ServerProcess, tempDataDir } from './processes.js';
import { freePort } from '../support/ports.js';

jest.setTimeout(60_000);
beforeAll(() => quietSdkWarnings());

/** Joins the room `code` on `port` with `options` and waits for its state and seat. */
async function joinAt(port: number, code: string, options: Record<string, unknown>): Promise<TestClient> {
  const sdk = sdkAt(port);
  const tc = new TestClient(await sdk.joinById<State>(code, options), sdk);
  await tc.waitState((s) => s.code === code, 'state');
  await tc.waitMessage('seat');
  return tc;
}

/** `GET /api/games/CODE` on `port`. */
async function archived(port: number, code: string): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}/api/games/${code}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

test('a game re-opened after kill -9 rematches with its own autostart and stand_in', async () => {
  const dataDir = tempDataDir();
  const port = await freePort();
  const server = new ServerProcess(port, { DATA_DIR: dataDir });
  let rematch = '';
  await server.start();
  try {
    const sdk = sdkAt(port);
    const creator = new TestClient(
      await sdk.create<State>('djambi', { rules: { players: 2 }, bots: { Y: 'easy' }, autostart: true, stand_in: false, name: 'solo' }),
      sdk,
    );
    await creator.waitMessage('seat');
    await creator.waitState((s) => s.phase === 'playing', 'started by itself');
    const code = creator.state.code as string;
    const { seatKey } = creator.seat!;

    await server.kill('SIGKILL');
    await server.start();
    const back = await joinAt(port, code, { seatKey });
    back.room.send('resign');
    await back.waitState((s) => s.phase === 'over', 'over');
    back.room.send('rematch', { action: 'offer' });
    const seat = await back.waitMessage('rematch_seat', 0, 10_000);
    expect(seat.colour).toBe('Y');
    rematch = seat.code;

    // `autostart`: the bot's seat and the claimed one fill the new game, which starts by itself.
    const next = await joinAt(port, seat.code, { seatKey: seat.seatKey });
    await next.waitState((s) => s.phase === 'playing', 'the rematch started by itself', 10_000);
    await Promise.all([back, next].map((c) => c.room.leave(true).catch(() => undefined)));
    expect(await archived(port, code)).toMatchObject({ status: 'finished', rematch: seat.code });

    await server.kill('SIGKILL');
    await server.start();
    expect(await archived(port, code)).toMatchObject({ status: 'finished', rematch: seat.code });
    expect(await archived(port, seat.code)).toMatchObject({ status: 'open', rematch: null });
  } finally {
    await server.stop();
  }
  // Both options are the new game's, as stored with it.
  const store = SqliteStore.open(path.join(dataDir, DEFAULT_SQLITE_FILE));
  try {
    expect((await store.load(rematch))?.config.bots).toMatchObject({ autostart: true, standIn: false });
  } finally {
    await store.close();
  }
});

test('an open rematch offer survives kill -9 with its answers and deadline; the answer after the restart makes the rematch', async () => {
  const port = await freePort();
  const server = new ServerProcess(port, { DATA_DIR: tempDataDir() });
  await server.start();
  try {
    const sdk = sdkAt(port);
    const red = new TestClient(await sdk.create<State>('djambi', { rules: { players: 2 }, name: 'Ann' }), sdk);
    await red.waitMessage('seat');
    await red.waitState((s) => typeof s.code === 'string' && s.code !== '', 'code');
    const code = red.state.code as string;
    const yellow = await joinAt(port, code, { name: 'Bob' });
    red.room.send('start');
    await Promise.all([red, yellow].map((c) => c.waitState((s) => s.phase === 'playing', 'started')));
    red.room.send('resign');
    await Promise.all([red, yellow].map((c) => c.waitState((s) => s.phase === 'over', 'over')));
    red.room.send('rematch', { action: 'offer' });
    const offered = await yellow.waitMessage('rematch_state');
    expect(offered).toMatchObject({ status: 'open', by: 'R', asked: ['R', 'Y'], accepted: ['R'], declined: [] });
    const keys = [red.seat!.seatKey, yellow.seat!.seatKey];

    await server.kill('SIGKILL');
    await server.start();
    const back = await Promise.all(keys.map((seatKey) => joinAt(port, code, { seatKey })));
    // Each gets the offer as it was, deadline included.
    for (const c of back) expect(await c.waitMessage('rematch_state')).toEqual(offered);
    back[1].room.send('rematch', { action: 'accept' });
    const seats = await Promise.all(back.map((c) => c.waitMessage('rematch_seat', 0, 10_000)));
    expect(seats.map((s) => s.colour)).toEqual(['Y', 'R']);
    expect(new Set(seats.map((s) => s.code))).toEqual(new Set([seats[0].code]));
    await Promise.all(back.map((c) => c.room.leave(true).catch(() => undefined)));
    expect(await archived(port, code)).toMatchObject({ status: 'finished', rematch: seats[0].code });
  } finally {
    await server.stop();
  }
});
