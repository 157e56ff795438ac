/**
 * A player away from the room while the rematch is decided gets it again on the way back: a
 * connection that drops during the vote and comes back with `client.reconnect` (within the grace)
 * gets the offer where it stands, and after the creation its new seat too; a seat reclaimed with
 * its key from another device gets the same.
 */
import type { RunningServer } from '../../server/src/app.js';
import { fullRoom, holder, join, leaveAll, quietSdkWarnings, type State, startServer, TestClient, waitClients } from './helpers.js';

quietSdkWarnings();
/** Reconnection grace, s: ample for a reconnect on a loaded machine. */
const GRACE_SECONDS = 10;
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ graceSeconds: GRACE_SECONDS });
});
afterAll(async () => {
  await server.close();
});

/** A finished two-player game (Y resigned), with one spectator. */
async function finishedGame() {
  const room = await fullRoom(server, { rules: { players: 2 } }, 1);
  const [r, y] = [holder(room.players, 'R'), holder(room.players, 'Y')];
  r.room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  y.room.send('resign');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'over', 'game over')));
  return { ...room, r, y, spectator: room.spectators[0] };
}

/** The latest `rematch_state` a client received. */
function rematchState(c: TestClient): State {
  return c.received('rematch_state').at(-1);
}

/** Drops `c`'s socket (no leave message) and waits until `watcher` sees its seat reconnecting. */
async function drop(c: TestClient, colour: string, watcher: TestClient): Promise<string> {
  const token = c.room.reconnectionToken;
  c.room.connection.close();
  await watcher.waitState((s) => s.seats.get(colour).presence === 'reconnecting', `${colour} reconnecting`);
  return token;
}

test('a player that drops during the vote and reconnects gets the offer, then its new seat after the creation', async () => {
  const game = await finishedGame();
  const token = await drop(game.y, 'Y', game.spectator);
  game.r.room.send('rematch', { action: 'offer' });
  await game.spectator.waitMessage('rematch_state');

  // Back within the grace: the offer it missed, as it stands.
  const back = new TestClient(await game.y.sdk.reconnect<State>(token), game.y.sdk);
  await back.waitMessage('rematch_state');
  expect(rematchState(back)).toEqual(rematchState(game.spectator));
  expect(rematchState(back)).toMatchObject({ status: 'open', by: 'R', asked: ['R', 'Y'], accepted: ['R'] });

  // It answers from the new connection; the rematch is made; it drops again and comes back.
  back.room.send('rematch', { action: 'accept' });
  const seat = await back.waitMessage('rematch_seat');
  await waitClients([back, game.spectator], () => rematchState(back)?.status === 'created', 'created');
  const again = await drop(back, 'Y', game.spectator);
  const returned = new TestClient(await back.sdk.reconnect<State>(again), back.sdk);
  await returned.waitMessage('rematch_seat');
  expect(returned.received('rematch_seat')).toEqual([seat]);
  expect(rematchState(returned)).toMatchObject({ status: 'created', code: seat.code });
  await leaveAll([game.r, returned, game.spectator]);
});

test('a seat reclaimed with its key from another device during the vote gets the offer', async () => {
  const game = await finishedGame();
  game.r.room.send('rematch', { action: 'offer' });
  await game.y.waitMessage('rematch_state');
  const device = await join(server, game.code, { seatKey: game.y.seat!.seatKey });
  await device.waitMessage('rematch_state');
  expect(device.seat!.colour).toBe('Y');
  expect(rematchState(device)).toMatchObject({ status: 'open', by: 'R', accepted: ['R'] });
  await game.y.waitMessage('seat_lost');
  await leaveAll([game.r, game.y, device, game.spectator]);
});
