/**
 * The rematch of a finished game: only seated players of a game that is over may offer or
 * answer (`not_finished`, `not_seated`, `no_rematch`, `rematch_closed`, `bad_payload`); once all
 * asked players answered, or 60 s passed with an acceptance, the room creates the new game with
 * the same options, seats every accepter one colour further in turn order with a new key sent
 * to it only (`rematch_seat`), leaves the other seats open, and tells everyone the new code.
 */
import { REMATCH_SECONDS } from '@djambi/shared';
import type { RunningServer } from '../../server/src/app.js';
import { createRoom, fullRoom, holder, join, leaveAll, quietSdkWarnings, roomOf, sdk, startServer, type TestClient, waitClients } from './helpers.js';
import { TestClock } from '../support/clock.js';

quietSdkWarnings();
const clock = TestClock.frozenAt(Date.now());
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: clock.now });
});
afterAll(async () => {
  await server.close();
});

/** A started game of `players` seats (p0 R hosts), one spectator, finished by resignations (the last seat wins). */
async function finished(options: Record<string, unknown>) {
  const room = await fullRoom(server, options, 1);
  room.players[0].room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  return room;
}

async function resignAllBut(room: Awaited<ReturnType<typeof finished>>, winner: string): Promise<void> {
  for (const p of room.players) if (p.seat!.colour !== winner) p.room.send('resign');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'over', 'game over')));
}

/** The latest `rematch_state` a client received. */
function rematchState(c: TestClient): any {
  const all = c.received('rematch_state');
  return all[all.length - 1];
}

test('bad input is refused with a code and opens nothing', async () => {
  const room = await finished({ rules: { players: 2 } });
  const [r, y] = [holder(room.players, 'R'), holder(room.players, 'Y')];
  expect((await r.sendExpectRejected('rematch', { action: 'offer' })).code).toBe('not_finished');
  await resignAllBut(room, 'Y');
  const spec = room.spectators[0];
  expect(await spec.sendExpectRejected('rematch', { action: 'offer' })).toMatchObject({ code: 'not_seated', type: 'rematch' });
  expect((await r.sendExpectRejected('rematch', { action: 'maybe' })).code).toBe('bad_payload');
  expect((await r.sendExpectRejected('rematch', { action: 'offer', extra: 1 })).code).toBe('bad_payload');
  expect((await r.sendExpectRejected('rematch', 'offer')).code).toBe('bad_payload');
  expect((await r.sendExpectRejected('rematch', { action: 'x'.repeat(5000) })).code).toBe('payload_too_large');
  expect((await y.sendExpectRejected('rematch', { action: 'accept' })).code).toBe('no_rematch');
  expect((await y.sendExpectRejected('rematch', { action: 'decline' })).code).toBe('no_rematch');
  expect(room.all.every((c) => c.received('rematch_state').length === 0)).toBe(true);
  await leaveAll(room.all);
});

test('an accepted rematch: same options, seats rotated, new keys to the accepters only, the offerer hosts', async () => {
  const room = await finished({ rules: { players: 2 }, clock: { initialSeconds: 300, incrementSeconds: 2 }, visibility: 'public' });
  const [r, y] = [holder(room.players, 'R'), holder(room.players, 'Y')];
  const spec = room.spectators[0];
  await resignAllBut(room, 'R');
  y.room.send('rematch', { action: 'offer' });
  await waitClients(room.all, () => room.all.every((c) => rematchState(c)?.status === 'open'), 'the offer seen by all');
  expect(rematchState(spec)).toMatchObject({ by: 'Y', asked: ['R', 'Y'], accepted: ['Y'], declined: [], code: null });
  expect(rematchState(spec).deadline).toBe(clock.now() + REMATCH_SECONDS * 1000);
  // A newcomer learns where the offer stands.
  const late = await join(server, room.code, { spectate: true });
  await late.waitMessage('rematch_state');
  expect(rematchState(late).accepted).toEqual(['Y']);

  r.room.send('rematch', { action: 'accept' });
  await waitClients([...room.all, late], () => [...room.all, late].every((c) => rematchState(c)?.status === 'created'), 'created, seen by all');
  const code = rematchState(spec).code as string;
  expect(code).toMatch(/^[0-9A-Z]+$/);
  expect(code).not.toBe(room.code);
  expect(rematchState(spec)).toMatchObject({ accepted: ['Y', 'R'], open: [] });
  const rSeat = await r.waitMessage('rematch_seat');
  const ySeat = await y.waitMessage('rematch_seat');
  expect(rSeat).toMatchObject({ code, colour: 'Y' });
  expect(ySeat).toMatchObject({ code, colour: 'R' });
  expect(spec.received('rematch_seat')).toEqual([]);
  expect(late.received('rematch_seat')).toEqual([]);
  // Answers after the creation are refused.
  expect((await r.sendExpectRejected('rematch', { action: 'decline' })).code).toBe('rematch_closed');

  const nextR = await join(server, code, { seatKey: rSeat.seatKey });
  expect(nextR.seat!.colour).toBe('Y');
  const nextY = await join(server, code, { seatKey: ySeat.seatKey });
  expect(nextY.seat!.colour).toBe('R');
  const s = nextY.state;
  expect(s.seats.get('Y').name).toBe('p0');
  expect(s.seats.get('R').name).toBe('p1');
  expect(s.host).toBe('R'); // the offerer (Y before) hosts
  expect(s.visibility).toBe('public');
  expect(s.clock.toJSON()).toMatchObject({ enabled: true, initialMs: 300_000, incrementMs: 2000 });
  expect(s.rules.players).toBe(2);
  expect(s.phase).toBe('waiting');
  // A wrong key is still refused, and the new game starts as any other.
  await expect(sdk(server).joinById(code, { seatKey: 'x'.repeat(32) })).rejects.toThrow(/bad_seat_key/);
  nextY.room.send('start');
  await nextR.waitState((st) => st.phase === 'playing', 'the rematch is played');
  await leaveAll([...room.all, late, nextR, nextY]);
});

test('a decline and a silence leave their seats open; the accepter plays on, the others join by the invite', async () => {
  const room = await finished({ rules: { players: 3 } });
  const [r, b, y] = ['R', 'B', 'Y'].map((c) => holder(room.players, c));
  await resignAllBut(room, 'Y');
  r.room.send('rematch', { action: 'offer' });
  await r.waitMessage('rematch_state');
  b.room.send('rematch', { action: 'decline' });
  await waitClients(room.all, () => rematchState(r)?.declined.length === 1, 'the decline seen');
  expect(rematchState(y)).toMatchObject({ status: 'open', accepted: ['R'], declined: ['B'] });
  // Changing one's answer is allowed while the offer is open.
  b.room.send('rematch', { action: 'accept' });
  await waitClients(room.all, () => rematchState(r)?.accepted.length === 2, 'the change seen');
  b.room.send('rematch', { action: 'decline' });
  await waitClients(room.all, () => rematchState(r)?.declined.length === 1, 'declined again');
  // Y never answers: after 60 s the game is made for R alone.
  clock.advance(REMATCH_SECONDS * 1000 - 1000);
  clock.advance(1000);
  await waitClients(room.all, () => rematchState(y)?.status === 'created', 'created after the deadline', 8000);
  const state = rematchState(y);
  expect(state).toMatchObject({ accepted: ['R'], declined: ['B'], open: ['Y', 'R'] });
  expect(b.received('rematch_seat')).toEqual([]);
  expect(y.received('rematch_seat')).toEqual([]);
  const seat = await r.waitMessage('rematch_seat');
  expect(seat.colour).toBe('B');
  const host = await join(server, state.code, { seatKey: seat.seatKey });
  expect(host.state.host).toBe('B');
  const other = await join(server, state.code, { name: 'newcomer' });
  expect(['R', 'Y']).toContain(other.seat!.colour);
  await leaveAll([...room.all, host, other]);
});

/** A two-player game of `solo` (R) against a bot (Y), lost by resignation; the rematch it offers, and its new seat (Y). */
async function soloRematch(bot: unknown) {
  const creator = await createRoom(server, { rules: { players: 2 }, bots: { Y: bot }, name: 'solo' });
  await creator.waitState((s) => s.seats.get('Y').taken, 'bot seated');
  creator.room.send('start');
  await creator.waitState((s) => s.phase === 'playing', 'start');
  creator.room.send('resign');
  await creator.waitState((s) => s.phase === 'over', 'over', 10_000);
  creator.room.send('rematch', { action: 'offer' });
  const seat = await creator.waitMessage('rematch_seat');
  expect(seat.colour).toBe('Y');
  return { creator, seat };
}

test('bots accept at once; with one person asked, the offer is the rematch', async () => {
  const { creator, seat } = await soloRematch('easy');
  await creator.waitState(() => rematchState(creator)?.status === 'created', 'created');
  expect(rematchState(creator)).toMatchObject({ asked: ['R'], accepted: ['R'] });
  const next = await join(server, seat.code, { seatKey: seat.seatKey });
  const s = next.state;
  expect(s.seats.get('R').name).toMatch(/bot/i);
  expect(s.seats.get('Y').name).toBe('solo');
  expect(s.host).toBe('Y');
  await leaveAll([creator, next]);
});

test('a bot keeps its level and personality on its rotated seat', async () => {
  // Each personality in turn: a rematch that drew one anew would match all three by chance once in 27.
  for (const personality of ['loyal', 'cautious', 'treacherous'] as const) {
    const { creator, seat } = await soloRematch({ level: 'hard', personality });
    const next = roomOf(seat.code);
    expect(next.match.seats.get('R')?.bot).toBe('hard');
    expect(next.match.config.bots?.personalities.R).toBe(personality);
    const host = await join(server, seat.code, { seatKey: seat.seatKey });
    await leaveAll([creator, host]);
  }
});

test('when nobody accepts, the offer is cancelled and may be made again', async () => {
  const room = await finished({ rules: { players: 2 } });
  const [r, y] = [holder(room.players, 'R'), holder(room.players, 'Y')];
  await resignAllBut(room, 'R');
  r.room.send('rematch', { action: 'offer' });
  await r.waitMessage('rematch_state');
  r.room.send('rematch', { action: 'decline' });
  await waitClients(room.all, () => rematchState(y)?.declined.length === 1, 'the offerer withdraws');
  y.room.send('rematch', { action: 'decline' });
  await waitClients(room.all, () => room.all.every((c) => rematchState(c)?.status === 'cancelled'), 'cancelled');
  expect((await y.sendExpectRejected('rematch', { action: 'accept' })).code).toBe('no_rematch');
  y.room.send('rematch', { action: 'offer' });
  await waitClients(room.all, () => rematchState(r)?.status === 'open' && rematchState(r)?.by === 'Y', 'offered again');
  r.room.send('rematch', { action: 'accept' });
  await waitClients(room.all, () => rematchState(r)?.status === 'created', 'created');
  await leaveAll(room.all);
});

test('a client cannot create a room with pre-claimed seats or a rematch option', async () => {
  await expect(sdk(server).create('djambi', { rules: { players: 2 }, rematch: { seats: ['R'] } })).rejects.toThrow(/bad_options/);
});

test('a hex5 rematch: the same board and options, five accepters each one seat further in turn order (White the hostage)', async () => {
  const room = await finished({ rules: { board: 'hex5', vertex_step: 'either_flank_blocks' } });
  expect(room.players.map((p) => p.seat!.colour)).toEqual(['R', 'B', 'Y', 'G', 'P']);
  await resignAllBut(room, 'G');
  const [first, ...rest] = room.players;
  first.room.send('rematch', { action: 'offer' });
  await first.waitMessage('rematch_state');
  for (const p of rest) p.room.send('rematch', { action: 'accept' });
  await waitClients(room.all, () => room.all.every((c) => rematchState(c)?.status === 'created'), 'created, seen by all');
  const code = rematchState(room.spectators[0]).code as string;
  const seats = await Promise.all(room.players.map((p) => p.waitMessage('rematch_seat')));
  // Each accepter moves one seat on among the game's five seats: P wraps round to R.
  expect(seats.map((s) => s.colour)).toEqual(['B', 'Y', 'G', 'P', 'R']);
  const next = await join(server, code, { seatKey: seats[0].seatKey });
  const s = next.state;
  expect(s.rules.toJSON()).toMatchObject({ board: 'hex5', players: 5, vertex_step: 'either_flank_blocks', hostage_seat: 6 });
  expect([...s.seats.keys()].sort()).toEqual(['B', 'G', 'P', 'R', 'Y']);
  await leaveAll([...room.all, next]);
});
