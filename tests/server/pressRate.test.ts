/**
 * The press rate limit per sender on the real server, before the start as after it: a seat's
 * bucket is its colour's, on every channel it writes in (table, private, group), and it goes with
 * its holder when the holder moves seat before the start (a swap to a free seat, or two holders
 * swapping), so moving does not buy a new burst; a spectator's is its address's, in `spectators`.
 */
import { RATE_BURST } from '../../server/src/press/index.js';
import type { RunningServer } from '../../server/src/app.js';
import { leaveAll, quietSdkWarnings, type TestClient } from './helpers.js';
import { pressRoom, sendAndWait, startPressServer } from './pressHelpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();
const clock = TestClock.frozenAt();
let server: RunningServer;
beforeAll(async () => {
  server = await startPressServer(clock);
});
afterAll(async () => {
  await server.close();
});

type Msg = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Sends `n` messages to `channel` at once; waits for an answer to each; returns how many passed and the refusals. */
async function flood(c: TestClient, channel: string, n: number, from: string): Promise<{ accepted: number; refused: Msg[] }> {
  const own = () => c.received('press_message').filter((m: Msg) => m.message.from === from && m.message.channel === channel).length;
  const rejections = () => c.received('rejected').filter((r: Msg) => r.type === 'press_send');
  const [o, r] = [own(), rejections().length];
  for (let i = 0; i < n; i++) c.room.send('press_send', { channel, text: `flood ${i}` });
  await c.waitState(() => own() - o + rejections().length - r >= n, `answers to ${n} messages`);
  return { accepted: own() - o, refused: rejections().slice(r) };
}

test('8 table messages at once before the start: 5 pass, 3 are rate_limited with retryAfterMs; a swap to a free seat buys no new burst', async () => {
  const room = await pressRoom(server, { rules: { players: 4 } }, 1, false);
  const [R, B] = [room.by('R'), room.by('B')];
  // Free the Y seat so that R can move there.
  await leaveAll([room.by('Y')]);
  await R.waitState((s) => !s.seats.get('Y').taken, 'Y free');

  const first = await flood(R, 'table', 8, 'R');
  expect(first.accepted).toBe(RATE_BURST);
  expect(first.refused.map((x: Msg) => x.code)).toEqual(['rate_limited', 'rate_limited', 'rate_limited']);
  for (const x of first.refused) expect(x.retryAfterMs).toBe(1000);

  // R moves to the free Y seat: it is the same sender, with the same empty bucket.
  R.room.send('swap', { colour: 'Y' });
  await R.waitState((s) => s.seats.get('Y').taken && !s.seats.get('R').taken, 'R moved to Y');
  const moved = await flood(R, 'table', 3, 'Y');
  expect(moved.accepted).toBe(0);
  expect(moved.refused.map((x: Msg) => x.code)).toEqual(['rate_limited', 'rate_limited', 'rate_limited']);

  // Two holders swap (B asks Y, Y asks B): each keeps its own bucket; B still has its burst.
  B.room.send('swap', { colour: 'Y' });
  await B.waitState((s) => s.seats.get('B').swapWith === 'Y', 'B asks');
  R.room.send('swap', { colour: 'B' });
  await B.waitState((s) => s.seats.get('Y').name === 'p1', 'B and Y swapped');
  await R.waitState((s) => s.seats.get('B').name === 'p0', 'R holds B');
  expect((await flood(R, 'table', 1, 'B')).accepted).toBe(0);
  expect((await flood(B, 'table', RATE_BURST + 1, 'Y')).accepted).toBe(RATE_BURST);

  // The spectators' channel: a spectator's own bucket.
  const S = room.spectators[0];
  const watcher = await flood(S, 'spectators', 8, S.sessionId);
  expect(watcher.accepted).toBe(RATE_BURST);
  expect(watcher.refused).toHaveLength(3);

  // A second later each sender has one more message, and only one.
  clock.advance(1000);
  await sendAndWait(R, 'press_send', { channel: 'table', text: 'one more' }, S, 'press_message');
  expect((await flood(R, 'table', 1, 'B')).refused[0]).toMatchObject({ code: 'rate_limited', retryAfterMs: 1000 });
  await leaveAll(room.all.filter((c) => c !== room.by('Y')));
});

test('during the game the one bucket covers the table, private and group channels', async () => {
  const room = await pressRoom(server, { rules: { players: 4 } }, 0, true);
  const R = room.by('R');
  clock.advance(10_000);
  await sendAndWait(R, 'press_open', { members: ['B'] }, room.by('B'), 'press_channel');
  await sendAndWait(R, 'press_open', { members: ['B', 'Y'] }, room.by('Y'), 'press_channel');
  clock.advance(10_000);
  expect((await flood(R, 'dm:RB', 2, 'R')).accepted).toBe(2);
  expect((await flood(R, 'group:RBY', 2, 'R')).accepted).toBe(2);
  const table = await flood(R, 'table', 4, 'R');
  expect(table.accepted).toBe(1);
  expect(table.refused.map((x: Msg) => x.code)).toEqual(['rate_limited', 'rate_limited', 'rate_limited']);
  await leaveAll(room.all);
});
