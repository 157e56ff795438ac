/**
 * The `time` round trip (docs/PROTOCOL.md): any participant, seated or watching, sends `time`
 * and gets `time { now }` back, `now` being the room's clock (`ServerConfig.now`, the clock of
 * the game clocks and presence times); a payload is refused with `bad_payload`.
 */
import { check, TimeMessage } from '@djambi/shared';
import type { RunningServer } from '../../server/src/app.js';
import { TestClock } from '../support/clock.js';
import { createRoom, join, leaveAll, quietSdkWarnings, startServer } from './helpers.js';

quietSdkWarnings();

const clock = TestClock.frozenAt(Date.UTC(2026, 5, 1, 8));
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: clock.now });
});
afterAll(async () => {
  await server.close();
});

test('time { now } answers a seat holder and a spectator with the server clock', async () => {
  const player = await createRoom(server, { name: 'ann' });
  const watcher = await join(server, player.state.code, { spectate: true });
  player.room.send('time');
  const first = await player.waitMessage('time', 0);
  expect(first).toEqual({ now: clock.now() });
  expect(check(TimeMessage, first).ok).toBe(true);
  clock.advance(90_000);
  watcher.room.send('time', {});
  expect(await watcher.waitMessage('time', 0)).toEqual({ now: clock.now() });
  expect(player.received('rejected')).toEqual([]);
  await leaveAll([player, watcher]);
});

test('time with a payload is refused: bad_payload, and no answer', async () => {
  const player = await createRoom(server, { name: 'bo' });
  const refused = await player.sendExpectRejected('time', { at: 1 });
  expect(refused).toMatchObject({ type: 'time', code: 'bad_payload' });
  expect(player.received('time')).toEqual([]);
  await leaveAll([player]);
});
