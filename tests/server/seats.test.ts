/**
 * Seats, seat keys, presence and reconnection: a dropped socket comes back within the grace
 * period; after it, the seat key reclaims the seat; a wrong key gets nothing; seats can be
 * chosen and swapped before the start; only the host (then the next seated player once it has gone for good) starts.
 */
import { DEFAULT_ADMISSION } from '../../server/src/rooms/admission.js';
import type { RunningServer } from '../../server/src/app.js';
import {
  createRoom,
  fenOf,
  fullRoom,
  holder,
  join,
  leaveAll,
  randomTurnFor,
  sdk,
  seeded,
  snapshot,
  startServer,
  quietSdkWarnings,
  TestClient,
  type State,
} from './helpers.js';

quietSdkWarnings();
let server: RunningServer;
beforeAll(async () => {
  // Every test client comes from 127.0.0.1: let one address hold all 100 spectators here.
  server = await startServer({ graceSeconds: 1, rooms: { admission: { ...DEFAULT_ADMISSION, spectatorsPerAddress: 100 } } });
});
afterAll(async () => {
  await server.close();
});

async function startedRoom(players = 2, spectators = 1) {
  const room = await fullRoom(server, { rules: { players } }, spectators);
  room.players[0].room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  return room;
}

async function playOne(players: TestClient[], all: TestClient[], random = seeded(7)): Promise<void> {
  const s = players[0].state;
  const mover = holder(players, s.toMove);
  const v = s.version;
  mover.room.send('turn', randomTurnFor(s, random));
  await Promise.all(all.map((c) => c.waitState((st) => st.version > v, 'turn applied')));
}

async function expectJoinError(promise: Promise<unknown>, code: string): Promise<void> {
  await expect(promise).rejects.toThrow(new RegExp(`^${code}:`));
}

test('seat message: 128-bit key sent only to its holder, never in the state', async () => {
  const room = await fullRoom(server, { rules: { players: 4 } }, 1);
  const keys = room.players.map((p) => p.seat!.seatKey);
  for (const k of keys) expect(k).toMatch(/^[0-9a-f]{32}$/);
  expect(new Set(keys).size).toBe(4);
  expect(room.players.map((p) => p.seat!.colour)).toEqual(['R', 'B', 'Y', 'G']);
  for (const p of room.players) expect(p.received('seat')).toHaveLength(1);
  expect(room.spectators[0].received('seat')).toHaveLength(0);
  const json = JSON.stringify(snapshot(room.spectators[0].state));
  for (const k of keys) expect(json).not.toContain(k);
  expect(room.players[0].state.seats.get('R').creator).toBe(true);
  expect(room.players[0].state.creator).toBe('R');
  await leaveAll(room.all);
});

test('a dropped socket comes back within the grace period', async () => {
  const room = await startedRoom(2, 1);
  const [a, b] = room.players;
  const spec = room.spectators[0];
  const colour = a.seat!.colour;
  const token = a.room.reconnectionToken;
  a.room.connection.close();
  await spec.waitState((s) => s.seats.get(colour).presence === 'reconnecting', 'reconnecting presence');
  const room2 = await a.sdk.reconnect<State>(token);
  const back = new TestClient(room2, a.sdk);
  expect(room2.sessionId).toBe(a.room.sessionId);
  await spec.waitState((s) => s.seats.get(colour).presence === 'connected', 'connected again');
  await back.waitMessage('seat');
  expect(back.seat).toEqual(a.seat);
  // It still plays its seat.
  await back.waitState((s) => s.version === spec.state.version, 'state after reconnect');
  await playOne([back, b], [back, b, spec]);
  await leaveAll([back, b, spec]);
});

test('after the grace period the seat is away and its key reclaims it; a wrong key gets nothing', async () => {
  const room = await startedRoom(2, 1);
  const [a, b] = room.players;
  const spec = room.spectators[0];
  const { colour, seatKey } = a.seat!;
  const token = a.room.reconnectionToken;
  await playOne(room.players, room.all);
  a.room.connection.close();
  await spec.waitState((s) => s.seats.get(colour).presence === 'away', 'away after grace', 5000);
  const since = spec.state.seats.get(colour).since;
  expect(since).toBeGreaterThan(0);

  // The reconnection token is no longer valid.
  await expect(a.sdk.reconnect(token)).rejects.toBeDefined();
  const before = JSON.stringify(snapshot(spec.state));

  // A wrong key gets nothing, and changes nothing.
  await expectJoinError(sdk(server).joinById(room.code, { seatKey: '0'.repeat(32) }), 'bad_seat_key');
  await expectJoinError(sdk(server).joinById(room.code, { seatKey: seatKey.slice(0, 31) + (seatKey[31] === 'a' ? 'b' : 'a') }), 'bad_seat_key');
  // Without a key nobody can join as a player once the game has started.
  await expectJoinError(sdk(server).joinById(room.code, { name: 'intruder' }), 'game_started');
  expect(JSON.stringify(snapshot(spec.state))).toBe(before);

  // The right key, from a new device, gets the seat back with the same position.
  const c = await join(server, room.code, { seatKey, name: 'back again' });
  expect(c.seat).toEqual({ colour, seatKey });
  await spec.waitState((s) => s.seats.get(colour).presence === 'connected' && s.seats.get(colour).name === 'back again', 'reclaimed');
  expect(fenOf(c.state)).toBe(fenOf(spec.state));
  await playOne([c, b], [c, b, spec]);
  await leaveAll([c, b, spec]);
});

test('a seat key reclaims a seat from another device while the first is still connected', async () => {
  const room = await startedRoom(2, 0);
  const [a, b] = room.players;
  const { colour, seatKey } = a.seat!;
  const c = await join(server, room.code, { seatKey });
  const lost = await a.waitMessage('seat_lost');
  expect(lost).toEqual({ colour, reason: 'reclaimed' });
  await a.waitLeft();
  await b.waitState((s) => s.seats.get(colour).presence === 'connected');
  // The old connection is gone; the new one plays.
  await playOne([c, b], [c, b]);
  await leaveAll([c, b]);
});

test('colour requests, full rooms and spectators', async () => {
  const a = await createRoom(server, { rules: { players: 3 }, colour: 'Y', name: 'ann' });
  expect(a.seat!.colour).toBe('Y');
  const code = a.state.code;
  await expectJoinError(sdk(server).joinById(code, { colour: 'Y' }), 'seat_taken');
  await expectJoinError(sdk(server).joinById(code, { colour: 'G' }), 'seat_taken'); // no G seat with 3 players
  await expectJoinError(sdk(server).joinById(code, { colour: 'Q' }), 'bad_options');
  await expectJoinError(sdk(server).joinById(code, { spectate: true, colour: 'R' }), 'bad_options');
  await expectJoinError(sdk(server).joinById(code, { name: 'x'.repeat(200) }), 'bad_options');
  await expectJoinError(sdk(server).joinById(code, { bogus: 1 }), 'bad_options');
  const b = await join(server, code, {});
  const c = await join(server, code, { colour: 'B' });
  expect(b.seat!.colour).toBe('R');
  expect(c.seat!.colour).toBe('B');
  await expectJoinError(sdk(server).joinById(code, {}), 'no_free_seat');
  const spec = await join(server, code, { spectate: true });
  await spec.waitState((s) => s.spectators === 1);
  // A spectator never takes a seat.
  expect((await spec.sendExpectRejected('swap', { colour: 'R' })).code).toBe('not_seated');
  expect((await spec.sendExpectRejected('start')).code).toBe('not_seated');
  expect(spec.received('seat')).toHaveLength(0);
  await leaveAll([a, b, c, spec]);
});

test('seats can be swapped before the start', async () => {
  const a = await createRoom(server, { rules: { players: 3 } }); // R
  const code = a.state.code;
  const b = await join(server, code, {}); // B
  const keyA = a.seat!.seatKey;
  const keyB = b.seat!.seatKey;
  // To a free seat at once.
  a.room.send('swap', { colour: 'Y' });
  await a.waitMessage('seat', 1);
  expect(a.seat).toEqual({ colour: 'Y', seatKey: keyA });
  await b.waitState((s) => s.seats.get('Y').taken && !s.seats.get('R').taken, 'moved to Y');
  // Two holders swap once both asked.
  a.room.send('swap', { colour: 'B' });
  await b.waitState((s) => s.seats.get('Y').swapWith === 'B', 'swap request visible');
  b.room.send('swap', { colour: 'Y' });
  await b.waitMessage('seat', 1);
  await a.waitMessage('seat', 2);
  expect(a.seat).toEqual({ colour: 'B', seatKey: keyA });
  expect(b.seat).toEqual({ colour: 'Y', seatKey: keyB });
  await a.waitState((s) => s.seats.get('B').swapWith === '' && s.creator === 'B', 'swapped, creator follows');
  expect((await a.sendExpectRejected('swap', { colour: 'Z' })).code).toBe('bad_payload');
  await leaveAll([a, b]);
});

test('players say they are ready before the start; a seat that changes hands is not ready', async () => {
  const a = await createRoom(server, { rules: { players: 2 } }); // R
  const b = await join(server, a.state.code, {}); // Y
  const spec = await join(server, a.state.code, { spectate: true });
  a.room.send('ready', { ready: true });
  await spec.waitState((s) => s.seats.get('R').ready === true && s.seats.get('Y').ready === false, 'R ready');
  b.room.send('ready', { ready: true });
  await a.waitState((s) => s.seats.get('Y').ready === true, 'Y ready');
  b.room.send('ready', { ready: false });
  await a.waitState((s) => s.seats.get('Y').ready === false, 'Y no longer ready');
  expect((await b.sendExpectRejected('ready', { ready: 'yes' })).code).toBe('bad_payload');
  expect((await b.sendExpectRejected('ready')).code).toBe('bad_payload');
  expect((await spec.sendExpectRejected('ready', { ready: true })).code).toBe('not_seated');
  // Swapping seats resets readiness; after the start it is refused.
  a.room.send('swap', { colour: 'Y' });
  b.room.send('swap', { colour: 'R' });
  await spec.waitState((s) => s.seats.get('Y').creator && !s.seats.get('Y').ready && !s.seats.get('R').ready, 'swapped, not ready');
  a.room.send('start');
  await spec.waitState((s) => s.phase === 'playing', 'started without everyone ready');
  expect((await a.sendExpectRejected('ready', { ready: true })).code).toBe('already_started');
  await leaveAll([a, b, spec]);
});

test('who may start, and leaving before the start frees the seat', async () => {
  const a = await createRoom(server, { rules: { players: 2 } });
  const code = a.state.code;
  expect((await a.sendExpectRejected('start')).code).toBe('not_ready');
  const b = await join(server, code, {});
  expect((await b.sendExpectRejected('start')).code).toBe('not_host');
  // A player that leaves on purpose before the start frees its seat; its key stops working.
  const keyB = b.seat!.seatKey;
  await b.room.leave(true);
  await a.waitState((s) => !s.seats.get('Y').taken, 'Y freed');
  await expectJoinError(sdk(server).joinById(code, { seatKey: keyB }), 'bad_seat_key');
  const c = await join(server, code, { name: 'carl' });
  // Once the host has gone for good (its grace period over), the next seated player hosts and starts.
  a.room.connection.close();
  await c.waitState((s) => s.seats.get('R').presence === 'away' && s.host === 'Y', 'host gone, Y hosts');
  c.room.send('start');
  await c.waitState((s) => s.phase === 'playing', 'started by another player');
  expect((await c.sendExpectRejected('start')).code).toBe('already_started');
  expect((await c.sendExpectRejected('swap', { colour: 'R' })).code).toBe('already_started');
  await leaveAll([c]);
});

test('a consented leave after the start keeps the seat reserved (away)', async () => {
  const room = await startedRoom(2, 1);
  const [a] = room.players;
  const { colour, seatKey } = a.seat!;
  await a.room.leave(true);
  await room.spectators[0].waitState((s) => s.seats.get(colour).presence === 'away', 'away');
  const back = await join(server, room.code, { seatKey });
  expect(back.seat!.colour).toBe(colour);
  await leaveAll([back, room.players[1], room.spectators[0]]);
});

test('a room holds its seats and 100 spectators, who all get the patches', async () => {
  const room = await startedRoom(2, 0);
  const specs: TestClient[] = [];
  for (let i = 0; i < 100; i++) specs.push(await join(server, room.code, { spectate: true }));
  await room.players[0].waitState((s) => s.spectators === 100, '100 spectators');
  await playOne(room.players, [...room.players, ...specs]);
  const fen = fenOf(room.players[0].state);
  for (const s of specs) expect(fenOf(s.state)).toBe(fen);
  for (const s of specs) expect(s.received('seat')).toHaveLength(0);
  await leaveAll([...room.players, ...specs]);
});
