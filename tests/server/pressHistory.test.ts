/**
 * Press history and unread counts follow the seat: through a reconnection (Colyseus
 * reconnection token), a seat reclaim from a second device while the first is connected, and a
 * seat reclaim after the grace period.
 */
import type { RunningServer } from '../../server/src/app.js';
import { join, leaveAll, quietSdkWarnings, TestClient, type State } from './helpers.js';
import { pressRoom, sendAndWait, startPressServer } from './pressHelpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();
const clock = TestClock.following();
let server: RunningServer;
beforeAll(async () => {
  server = await startPressServer(clock); // grace period: 1 s
});
afterAll(async () => {
  await server.close();
});

type Msg = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The channel `id` of a `press_history`, reduced to what the test compares. */
function channel(history: Msg, id: string): { texts: string[]; readUpTo: number; unread: number } | undefined {
  const c = history.channels.find((x: Msg) => x.id === id);
  return c && { texts: c.messages.map((m: Msg) => m.text), readUpTo: c.readUpTo, unread: c.unread };
}

test('history and unread counts survive a reconnection and seat reclaims', async () => {
  const room = await pressRoom(server, { rules: { players: 3 } }, 1);
  const [R, B, Y] = ['R', 'B', 'Y'].map(room.by);
  const S = room.spectators[0];
  const { colour, seatKey } = B.seat!;
  expect(colour).toBe('B');

  await sendAndWait(R, 'press_open', { members: ['B'] }, B, 'press_channel');
  for (const text of ['one', 'two', 'three']) await sendAndWait(R, 'press_send', { channel: 'dm:RB', text }, B, 'press_message');
  await sendAndWait(R, 'press_open', { members: ['B', 'Y'] }, Y, 'press_channel');
  await sendAndWait(Y, 'press_send', { channel: 'group:RBY', text: 'group hello' }, B, 'press_message');
  clock.advance(10_000);
  const pact = await sendAndWait(R, 'pact_propose', { with: ['B'] }, B, 'pact');
  expect(await sendAndWait(B, 'press_read', { channel: 'dm:RB', upTo: 1 }, B, 'press_unread')).toEqual({ channel: 'dm:RB', readUpTo: 1, unread: 2 });

  // 1. The socket drops; a message arrives meanwhile; the client comes back with its token.
  const token = B.room.reconnectionToken;
  B.room.connection.close();
  await S.waitState((s) => s.seats.get('B').presence === 'reconnecting', 'B reconnecting');
  await sendAndWait(R, 'press_send', { channel: 'dm:RB', text: 'four' }, R, 'press_message');
  const back = new TestClient(await B.sdk.reconnect<State>(token), B.sdk);
  const h1 = await back.waitMessage('press_history');
  expect(back.received('seat')).toEqual([{ colour, seatKey }]);
  expect(h1).toMatchObject({ you: 'B', role: 'player', phase: 'playing', visibility: 'hidden' });
  expect(channel(h1, 'dm:RB')).toEqual({ texts: ['one', 'two', 'three', 'four'], readUpTo: 1, unread: 3 });
  expect(channel(h1, 'group:RBY')).toEqual({ texts: ['group hello'], readUpTo: 0, unread: 1 });
  expect(h1.pacts).toEqual([expect.objectContaining({ id: pact.pact.id, status: 'proposed', accepted: ['R'] })]);
  // It can act on it again at once.
  await sendAndWait(back, 'pact_accept', { pact: pact.pact.id }, R, 'pact');

  // 2. The same seat reclaimed with its key from a second device, while the first is connected.
  const second = await join(server, room.code, { seatKey });
  await back.waitMessage('seat_lost');
  const h2 = await second.waitMessage('press_history');
  expect(channel(h2, 'dm:RB')).toEqual({ texts: ['one', 'two', 'three', 'four'], readUpTo: 1, unread: 3 });
  expect(h2.pacts).toEqual([expect.objectContaining({ id: pact.pact.id, status: 'in_force' })]);
  expect(await sendAndWait(second, 'press_read', { channel: 'dm:RB', upTo: 4 }, second, 'press_unread')).toEqual({ channel: 'dm:RB', readUpTo: 4, unread: 0 });
  // The replaced connection gets nothing more.
  await back.waitLeft();

  // 3. The second device goes away past the grace period; its key brings the seat back later.
  second.room.connection.close();
  await S.waitState((s) => s.seats.get('B').presence === 'away', 'B away', 5000);
  clock.advance(10_000);
  await sendAndWait(R, 'press_send', { channel: 'dm:RB', text: 'five' }, R, 'press_message');
  await sendAndWait(Y, 'press_send', { channel: 'group:RBY', text: 'group again' }, Y, 'press_message');
  const third = await join(server, room.code, { seatKey, name: 'B again' });
  const h3 = await third.waitMessage('press_history');
  expect(channel(h3, 'dm:RB')).toEqual({ texts: ['one', 'two', 'three', 'four', 'five'], readUpTo: 4, unread: 1 });
  expect(channel(h3, 'group:RBY')).toEqual({ texts: ['group hello', 'group again'], readUpTo: 0, unread: 2 });
  // The seat's own messages are never unread.
  await sendAndWait(third, 'press_send', { channel: 'dm:RB', text: 'I am back' }, R, 'press_message');
  expect(await sendAndWait(third, 'press_read', { channel: 'dm:RB', upTo: 0 }, third, 'press_unread')).toEqual({ channel: 'dm:RB', readUpTo: 4, unread: 1 });

  // Nobody else ever got B's history.
  for (const c of [R, Y, S]) expect(c.received('press_history').every((h: Msg) => h.you !== 'B')).toBe(true);
  await leaveAll([R, Y, S, third]);
});

test('a seat taken before the start, and a swapped seat, get their history after their seat message', async () => {
  const room = await pressRoom(server, { rules: { players: 2 } }, 1, false);
  const [R, Y] = ['R', 'Y'].map(room.by);
  for (const c of [R, Y]) {
    const types = c.messages.map((m) => m.type);
    expect(types.indexOf('seat')).toBeLessThan(types.indexOf('press_history'));
    expect(c.received('press_history')[0]).toMatchObject({ you: c.seat!.colour, role: 'player', phase: 'waiting', channels: [{ id: 'table' }] });
  }
  expect(room.spectators[0].received('press_history')[0]).toMatchObject({ role: 'spectator', phase: 'waiting' });
  // A swap before the start: each holder changes colour, so its press member changes too, and
  // it gets the history of its new seat after its new seat message.
  R.room.send('swap', { colour: 'Y' });
  await R.waitState((s) => s.seats.get('R').swapWith === 'Y', 'swap asked');
  await sendAndWait(Y, 'swap', { colour: 'R' }, R, 'seat');
  for (const [c, now] of [
    [R, 'Y'],
    [Y, 'R'],
  ] as const) {
    await c.waitState(() => c.received('press_history').length === 2, 'second history');
    expect(c.seat!.colour).toBe(now);
    expect(c.received('press_history')[1].you).toBe(now);
    const types = c.messages.map((m) => m.type);
    expect(types.lastIndexOf('seat')).toBeLessThan(types.lastIndexOf('press_history'));
  }
  await leaveAll(room.all);
});
