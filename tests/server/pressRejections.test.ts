/**
 * Press rejections through the real server: rate limits (a burst of 5, then one per second, on
 * the server's clock), oversized, empty, malformed and non-member messages, all answered with a
 * code to the sender only and changing nothing; draw offers (passed, declined, lapsed); and a
 * press failure, which never crashes the room nor blocks a turn.
 */
import { matchMaker } from '@colyseus/core';
import type { RunningServer } from '../../server/src/app.js';
import type { DjambiRoom } from '../../server/src/rooms/DjambiRoom.js';
import { holder, leaveAll, quietSdkWarnings, randomTurnFor, seeded, waitClients, type TestClient } from './helpers.js';
import { pressRoom, refusedWith, sendAndWait, startPressServer, type RecordingClient } from './pressHelpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();
const clock = TestClock.following();
let server: RunningServer;
beforeAll(async () => {
  // Dozens of refused messages go out back to back here: a budget roomy enough for them (the
  // connection budget itself is tested in roomLimits.test.ts).
  server = await startPressServer(clock, { rooms: { budget: { burst: 1000, perSecond: 500, strikes: 100, strikesPerSecond: 10 } } });
});
afterAll(async () => {
  await server.close();
});

type Msg = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Waits until `to` has received `n` press messages with `texts` (in any order among others). */
async function received(to: TestClient, texts: string[]): Promise<void> {
  await to.waitState(() => texts.every((t) => to.received('press_message').some((m: Msg) => m.message.text === t)), `messages ${texts.join(', ')}`);
}

/** What each client has received so far (message count, state count). */
function marks(clients: RecordingClient[]): { messages: number; states: number }[] {
  return clients.map((c) => ({ messages: c.messages.length, states: c.states.length }));
}

test('rate limits: a burst of 5, then one per second; refused actions spend nothing and change nothing', async () => {
  const room = await pressRoom(server, { rules: { players: 3 } }, 1);
  const [R, B] = ['R', 'B'].map(room.by);
  const S = room.spectators[0];
  clock.advance(10_000);

  // Six at once: five pass, the sixth is refused with the time to wait.
  for (let i = 1; i <= 6; i++) R.room.send('press_send', { channel: 'table', text: `burst ${i}` });
  const reply = await R.waitMessage('rejected');
  expect(reply).toMatchObject({ type: 'press_send', code: 'rate_limited' });
  expect(reply.retryAfterMs).toBeGreaterThan(0);
  expect(reply.retryAfterMs).toBeLessThanOrEqual(1000);
  await received(S, ['burst 5']);
  // Every other action that spends a token is refused too; read marks and answers are free.
  await refusedWith(R, 'pact_propose', { with: ['B'] }, 'rate_limited');
  await refusedWith(R, 'press_open', { members: ['B'] }, 'rate_limited');
  await refusedWith(R, 'draw_offer', {}, 'rate_limited');
  expect(await sendAndWait(R, 'press_read', { channel: 'table', upTo: 5 }, R, 'press_unread')).toEqual({ channel: 'table', readUpTo: 5, unread: 0 });
  // Other members have their own buckets.
  await sendAndWait(B, 'press_send', { channel: 'table', text: 'B is not limited' }, S, 'press_message');
  await sendAndWait(S, 'press_send', { channel: 'spectators', text: 'nor is the spectator' }, S, 'press_message');

  // One second later (server clock), exactly one more.
  clock.advance(1000);
  R.room.send('press_send', { channel: 'table', text: 'one more' });
  R.room.send('press_send', { channel: 'table', text: 'one too many' });
  await R.waitMessage('rejected', 4);
  expect(R.received('rejected').map((r: Msg) => r.code)).toEqual(['rate_limited', 'rate_limited', 'rate_limited', 'rate_limited', 'rate_limited']);
  await received(S, ['one more']);

  // What everyone saw: the accepted messages only, numbered without gaps.
  await sendAndWait(B, 'press_send', { channel: 'table', text: 'end' }, S, 'press_message');
  for (const c of room.all) {
    const table = c
      .received('press_message')
      .filter((m: Msg) => m.message.channel === 'table')
      .map((m: Msg) => m.message);
    expect(table.map((m: Msg) => m.text)).toEqual(['burst 1', 'burst 2', 'burst 3', 'burst 4', 'burst 5', 'B is not limited', 'one more', 'end']);
    expect(table.map((m: Msg) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    if (c !== R) expect(c.received('rejected')).toEqual([]);
  }
  await leaveAll(room.all);
});

test('oversized, empty, malformed and non-member messages are refused to the sender only and change nothing', async () => {
  const room = await pressRoom(server, { rules: { players: 4 } }, 1);
  const [R, B, Y, G] = ['R', 'B', 'Y', 'G'].map(room.by);
  const S = room.spectators[0];
  await sendAndWait(R, 'press_open', { members: ['B'] }, B, 'press_channel');
  await sendAndWait(R, 'press_send', { channel: 'dm:RB', text: 'first' }, B, 'press_message');
  const pact = (await sendAndWait(R, 'pact_propose', { with: ['B'] }, B, 'pact')).pact.id as string;
  clock.advance(10_000); // R's bucket is full again: 5 tokens

  const others = room.all.filter((c) => c !== R);
  const before = marks(others);
  const dm = (text: unknown) => ({ channel: 'dm:RB', text });
  const cases: [TestClient, string, unknown, string][] = [
    // Empty.
    [R, 'press_send', dm(''), 'empty_message'],
    [R, 'press_send', dm('  \n\n\t  '), 'empty_message'],
    [R, 'press_send', dm('\u200B\u2060\uFEFF'), 'empty_message'],
    // Too long: 501 characters; over 2000 UTF-16 units; a payload over 8 KB (2800 × 3 bytes), refused before it is decoded.
    [R, 'press_send', dm('x'.repeat(501)), 'message_too_long'],
    [R, 'press_send', dm('€'.repeat(501)), 'message_too_long'],
    [R, 'press_send', dm('x'.repeat(2001)), 'message_too_long'],
    [R, 'press_send', dm('x'.repeat(3000)), 'message_too_long'],
    [R, 'press_send', dm('€'.repeat(2800)), 'payload_too_large'],
    [R, 'press_send', dm('x'.repeat(9000)), 'payload_too_large'],
    // Nested: refused at the first unknown field, whatever it holds.
    [R, 'press_send', { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: 1 } } } } } } } } } }, 'bad_payload'],
    // Not plain text.
    [R, 'press_send', dm('ring \u0007'), 'bad_text'],
    [R, 'press_send', dm('\u202Egnirts'), 'bad_text'],
    // Malformed.
    [R, 'press_send', { channel: 'dm:RB' }, 'bad_payload'],
    [R, 'press_send', dm(5), 'bad_payload'],
    [R, 'press_send', dm(['x']), 'bad_payload'],
    [R, 'press_send', { channel: 7, text: 'x' }, 'bad_payload'],
    [R, 'press_send', { channel: 'x'.repeat(41), text: 'x' }, 'bad_payload'],
    [R, 'press_send', { ...dm('x'), extra: true }, 'bad_payload'],
    [R, 'press_send', 'dm:RB hello', 'bad_payload'],
    [R, 'press_send', [1, 2], 'bad_payload'],
    [R, 'press_open', { members: [] }, 'bad_payload'],
    [R, 'press_open', { members: 'B' }, 'bad_payload'],
    [R, 'press_read', { channel: 'dm:RB', upTo: -1 }, 'bad_payload'],
    [R, 'press_read', { channel: 'dm:RB', upTo: 1.5 }, 'bad_payload'],
    [R, 'pact_propose', { with: ['B'], rounds: 0 }, 'bad_payload'],
    [R, 'pact_propose', { with: ['Y'], announce: 'yes' }, 'bad_payload'],
    [R, 'pact_accept', {}, 'bad_payload'],
    [R, 'draw_accept', { offer: 'x' }, 'bad_payload'],
    [R, 'draw_offer', { now: true }, 'bad_payload'],
    [R, 'press_sned', dm('typo'), 'unknown_message'],
    // Wrong channel or members.
    [R, 'press_send', { channel: 'dm:BR', text: 'x' }, 'no_such_channel'],
    [R, 'press_send', { channel: 'dm:RY', text: 'x' }, 'no_such_channel'],
    [R, 'press_send', { channel: 'chat', text: 'x' }, 'no_such_channel'],
    [R, 'press_send', { channel: 'spectators', text: 'x' }, 'not_allowed'],
    [R, 'press_open', { members: ['Z'] }, 'bad_members'],
    [R, 'press_open', { members: ['R'] }, 'bad_members'],
    [R, 'pact_propose', { with: ['B'] }, 'pact_exists'],
    [R, 'pact_accept', { pact }, 'already_answered'],
    [R, 'draw_accept', {}, 'no_draw_offer'],
    // Non-members get the same answer whether the channel or pact exists or not.
    [G, 'press_send', dm('let me in'), 'not_member'],
    [G, 'press_send', { channel: 'group:RBY', text: 'x' }, 'not_member'],
    [G, 'press_read', { channel: 'dm:RB', upTo: 1 }, 'not_member'],
    [G, 'press_read', { channel: 'dm:BY', upTo: 1 }, 'not_member'],
    [G, 'pact_accept', { pact }, 'no_such_pact'],
    [G, 'pact_leave', { pact }, 'no_such_pact'],
    [G, 'pact_accept', { pact: 'nonexistent' }, 'no_such_pact'],
    [Y, 'pact_decline', { pact }, 'no_such_pact'],
    // Spectators read the table and talk among themselves, nothing more.
    [S, 'press_send', { channel: 'table', text: 'x' }, 'not_allowed'],
    [S, 'press_send', dm('x'), 'not_member'],
    [S, 'press_open', { members: ['R'] }, 'not_seated'],
    [S, 'pact_propose', { with: ['R'] }, 'not_seated'],
    [S, 'draw_offer', {}, 'not_seated'],
  ];
  for (const [c, type, payload, code] of cases) await refusedWith(c, type, payload, code);
  // Raw bytes where an object is expected.
  R.room.sendBytes('press_send', new Uint8Array([1, 2, 3]));
  expect((await R.waitMessage('rejected', R.received('rejected').length)).code).toBe('bad_payload');

  // Nothing reached anyone else: no message, no state patch (bar the rejections to G, Y and S themselves).
  const after = marks(others);
  others.forEach((c, i) => {
    const extra = c.messages.slice(before[i].messages).map((m) => m.type);
    expect(extra.every((t) => t === 'rejected')).toBe(true);
    expect(after[i].states).toBe(before[i].states);
  });
  // Nothing changed: the next message is id 2, and R's five tokens are all still there.
  const texts = ['second', 'third', 'fourth', 'fifth', 'sixth'];
  for (const text of texts) R.room.send('press_send', dm(text));
  await received(B, texts);
  expect(B.received('press_message').map((m: Msg) => [m.message.id, m.message.text])).toEqual([[1, 'first'], ...texts.map((t, i) => [i + 2, t])]);
  // The pact is still pending with R's acceptance only.
  const h = (await sendAndWait(B, 'pact_decline', { pact }, R, 'pact')).pact;
  expect(h).toMatchObject({ accepted: ['R'], endReason: 'declined' });
  await leaveAll(room.all);
});

test("legal messages of 500 characters pass the room's payload bound, whatever their encoding", async () => {
  const room = await pressRoom(server, { rules: { players: 2 } }, 1);
  const [R] = room.players;
  const S = room.spectators[0];
  clock.advance(10_000);
  const texts = ['x'.repeat(500), '€'.repeat(500), '😀'.repeat(500), `  ${'é'.repeat(500)}  \n\n\n`];
  for (const text of texts) R.room.send('press_send', { channel: 'table', text });
  await S.waitState(() => S.received('press_message').length === texts.length, 'four long messages');
  expect(S.received('press_message').map((m: Msg) => [...m.message.text].length)).toEqual([500, 500, 500, 500]);
  expect(R.received('rejected')).toEqual([]);
  await leaveAll(room.all);
});

test('draw offers: public, one refusal or a turn cancels them, acceptance by all ends the game', async () => {
  const room = await pressRoom(server, { rules: { players: 3 } }, 1);
  const [R, B, Y] = ['R', 'B', 'Y'].map(room.by);
  const S = room.spectators[0];
  const events = (c: TestClient) => c.received('draw').map((d: Msg) => `${d.event}${d.by ? ` ${d.by}` : ''} #${d.offer.id}`);

  // Refused: lapses for everyone.
  const offered = await sendAndWait(R, 'draw_offer', {}, S, 'draw');
  expect(offered).toEqual({ event: 'offered', by: 'R', offer: { id: 1, by: 'R', accepted: ['R'], ply: 0 } });
  await S.waitState((s) => s.drawOffer.id === 1 && s.drawOffer.by === 'R' && s.drawOffer.accepted === 'R', 'offer in the state');
  await refusedWith(B, 'draw_offer', {}, 'draw_offer_open');
  await refusedWith(R, 'draw_accept', {}, 'already_accepted');
  await sendAndWait(B, 'draw_accept', { offer: 1 }, S, 'draw');
  await S.waitState((s) => s.drawOffer.accepted === 'RB', 'B accepted');
  await sendAndWait(Y, 'draw_decline', {}, S, 'draw');
  await S.waitState((s) => s.drawOffer.by === '' && s.drawOffer.id === 0, 'declined');
  await refusedWith(Y, 'draw_decline', {}, 'no_draw_offer');

  // A turn played: lapses.
  await sendAndWait(B, 'draw_offer', {}, S, 'draw');
  await S.waitState((s) => s.drawOffer.id === 2, 'second offer');
  const lapsed = S.received('draw').length;
  R.room.send('turn', randomTurnFor(R.state, seeded(4)));
  await S.waitState((s) => s.version === 1 && s.drawOffer.by === '' && S.received('draw').length > lapsed, 'lapsed with the turn');
  await refusedWith(Y, 'draw_accept', { offer: 2 }, 'no_draw_offer');

  // Accepted by all: the game ends as a draw, and the reveal follows.
  await sendAndWait(Y, 'draw_offer', {}, S, 'draw');
  await refusedWith(R, 'draw_accept', { offer: 2 }, 'stale');
  await sendAndWait(R, 'draw_accept', { offer: 3 }, S, 'draw');
  B.room.send('draw_accept', { offer: 3 });
  await waitClients(room.all, () => room.all.every((c) => c.state.phase === 'over' && c.received('press_reveal').length === 1), 'drawn');
  expect(S.state.result.toJSON()).toMatchObject({ kind: 'draw', reason: 'agreement' });
  expect(S.state.moves.toArray().slice(-1)).toEqual(['draw']);
  expect(S.state.drawOffer.toJSON()).toEqual({ id: 0, by: '', accepted: '' });
  const expected = [
    'offered R #1',
    'accepted B #1',
    'declined Y #1',
    'offered B #2',
    'lapsed #2',
    'offered Y #3',
    'accepted R #3',
    'accepted B #3',
    'passed #3',
  ];
  for (const c of room.all) expect(events(c)).toEqual(expected);
  const timeline = S.received('press_reveal')[0]
    .timeline.filter((i: Msg) => i.kind === 'draw')
    .map((i: Msg) => `${i.event}${i.by ? ` ${i.by}` : ''} #${i.offer}`);
  expect(timeline).toEqual(expected);
  await refusedWith(R, 'draw_offer', {}, 'game_over');
  await leaveAll(room.all);
});

test('a throw in the press answers internal_error and never blocks a turn', async () => {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const room = await pressRoom(server, { rules: { players: 2 } }, 1);
  const [R, Y] = room.players;
  const S = room.spectators[0];
  const live = matchMaker.getLocalRoomById(room.code) as DjambiRoom;
  const broken = live.match.press;
  broken.handle = () => {
    throw new Error('press bug (test)');
  };
  await refusedWith(R, 'press_send', { channel: 'table', text: 'boom' }, 'internal_error');
  // A throw means a broken invariant: the room rebuilt its match from the log, without the intent.
  expect(live.match.press).not.toBe(broken);
  const press = live.match.press;
  await sendAndWait(R, 'press_send', { channel: 'table', text: 'still talking' }, S, 'press_message');

  const afterEntries = press.afterEntries.bind(press);
  press.afterEntries = () => {
    throw new Error('press bug after a turn (test)');
  };
  R.room.send('turn', randomTurnFor(R.state, seeded(1)));
  await Promise.all(room.all.map((c) => c.waitState((s) => s.version === 1, 'turn applied despite the press')));
  press.afterEntries = afterEntries;
  expect(R.received('rejected').map((r: Msg) => r.code)).toEqual(['internal_error']);
  expect(press.roster.ply).toBe(1); // brought back in line with the game
  expect(errors).toHaveBeenCalled();

  // The room goes on: turns, talk, and the end of the game with its reveal.
  const v = Y.state.version;
  const mover = holder(room.players, Y.state.toMove);
  mover.room.send('turn', randomTurnFor(mover.state, seeded(2)));
  await S.waitState((s) => s.version > v, 'next turn');
  await sendAndWait(Y, 'press_send', { channel: 'table', text: 'fine' }, S, 'press_message');
  R.room.send('resign');
  await waitClients(room.all, () => room.all.every((c) => c.received('press_reveal').length === 1), 'reveal');
  errors.mockRestore();
  await leaveAll(room.all);
});
