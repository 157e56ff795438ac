/**
 * Room limits on the real server: each flood hits its limit, then a legitimate client still
 * plays. (The HTTP limits are in httpLimits.test.ts, the press limits in the press tests.)
 */
import { matchMaker } from '@colyseus/core';
import type { RunningServer } from '../../server/src/app.js';
import { colyseusCap, DEFAULT_ADMISSION } from '../../server/src/rooms/admission.js';
import { TestClock } from '../support/clock.js';
import { eventually } from '../support/wait.js';
import { createRoom, fullRoom, join, leaveAll, quietSdkWarnings, roomOf, sdk, startServer, type TestClient } from './helpers.js';

let server: RunningServer;
const clock = TestClock.frozenAt(Date.now());
const ADMISSION = { ...DEFAULT_ADMISSION, spectators: 6, spectatorsPerAddress: 6, pending: 8, pendingPerAddress: 4 };

beforeAll(async () => {
  quietSdkWarnings();
  server = await startServer({
    now: clock.now,
    rooms: {
      maxRooms: 40,
      // Long enough for the cap test to open its 40 rooms on a loaded machine before the first goes.
      unjoinedSeconds: 4,
      admission: ADMISSION,
      budget: { burst: 10, perSecond: 5, strikes: 30, strikesPerSecond: 5 },
    },
  });
});
afterAll(async () => {
  await server.close();
});

/** Raw bytes of a ROOM_DATA message of `type` with a hand-made msgpack payload. */
function rawMessage(type: string, payload: number[]): Uint8Array {
  const name = Buffer.from(type);
  return new Uint8Array([13, 0xa0 | name.length, ...name, ...payload]);
}

function liveRooms(): number {
  return matchMaker.stats.local.roomCount;
}

test('rule options named like Object.prototype members answer bad_rules and leave nothing behind', async () => {
  const before = liveRooms();
  for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const res = await fetch(`${server.url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"rules":{"${key}":"x"}}`,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('bad_rules');
    await expect(sdk(server).create('djambi', { rules: { [key]: 1 } })).rejects.toThrow(/bad_rules/);
  }
  expect(liveRooms()).toBe(before);
  // A legitimate create still works.
  const ok = await createRoom(server, { name: 'after' });
  expect(ok.state.code).toMatch(/^[A-Z0-9]{6}$/);
  await leaveAll([ok]);
});

test('graceSeconds and idleSeconds are server settings, not create options', async () => {
  for (const key of ['graceSeconds', 'idleSeconds']) {
    await expect(sdk(server).create('djambi', { [key]: 604800 })).rejects.toThrow(/bad_options/);
  }
});

test('a seat key always gets back in, however many spectators and reservations there are', async () => {
  const room = await fullRoom(server, { rules: { players: 2 } }, 0);
  const [a, b] = room.players;
  a.room.send('start');
  await a.waitState((s) => s.phase === 'playing', 'started');
  const key = a.received('seat')[0].seatKey as string;
  const specs: TestClient[] = [];
  for (let i = 0; i < 6; i++) specs.push(await join(server, room.code, { spectate: true }));
  // The seventh spectator is refused before it gets a reservation.
  await expect(sdk(server).joinById(room.code, { spectate: true })).rejects.toThrow(/spectators_full/);
  // Bare reservations (never connected) are capped per address.
  const reservations: Promise<unknown>[] = [];
  for (let i = 0; i < 12; i++) {
    reservations.push(
      fetch(`${server.url}/matchmake/joinById/${room.code}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seatKey: b.received('seat')[0].seatKey }),
      }).then((r) => r.json()),
    );
  }
  const answers = (await Promise.all(reservations)) as { sessionId?: string; code?: number; error?: string }[];
  expect(answers.some((x) => x.error && /too_many_joins/.test(x.error))).toBe(true);
  // The away player still reclaims its seat with its key.
  await a.room.leave(true);
  const back = await join(server, room.code, { seatKey: key });
  expect(back.received('seat')[0].colour).toBe('R');
  await leaveAll([back, b, ...specs]);
});

test("a join saves the room listing for its count and metadata only, with Colyseus's cap unchanged", async () => {
  const host = await createRoom(server, { rules: { players: 2 } });
  const code = host.room.roomId;
  const listing = roomOf(code).listing as { save(): unknown; maxClients: number };
  const saved: number[] = [];
  const save = listing.save.bind(listing);
  listing.save = () => {
    saved.push(listing.maxClients);
    return save();
  };
  const spectator = await join(server, code, { spectate: true });
  // Colyseus's count of the reservation, then the room's metadata (its spectators). The cap was
  // once lifted and put back around each reservation: two more writes of the listing per join
  // (to Redis in a cluster), one of them with no cap at all.
  expect(saved.length).toBeGreaterThan(0);
  expect(saved.length).toBeLessThanOrEqual(2);
  expect(saved.every((max) => max === colyseusCap(ADMISSION))).toBe(true);
  await leaveAll([spectator, host]);
});

test('a message flood is answered rate_limited, then closed with 1008; others keep playing', async () => {
  const room = await fullRoom(server, { rules: { players: 2 } }, 1);
  const [a, b] = room.players;
  const spy = room.spectators[0];
  for (let i = 0; i < 200 && spy.left === null; i++) spy.room.send('press_read', { channel: 'spectators', upTo: 0 });
  await spy.waitLeft();
  expect(spy.left).toBe(1008);
  expect(spy.received('rejected').some((r) => r.code === 'rate_limited' && r.retryAfterMs > 0)).toBe(true);
  // The players are untouched.
  a.room.send('start');
  await b.waitState((s) => s.phase === 'playing', 'started');
  await leaveAll([a, b]);
});

test('msgpack extension types and 64-bit integers are refused before decoding', async () => {
  const room = await fullRoom(server, { rules: { players: 2 } }, 0);
  const [a, b] = room.players;
  const timestamp = [0xd6, 0xff, 0, 0, 0, 1];
  const bigint = [0xc7, 0x08, 0x42, 1, 2, 3, 4, 5, 6, 7, 8];
  const int64 = [0xcf, 0, 0, 0, 0, 0, 0, 0, 1];
  for (const payload of [timestamp, bigint, int64]) {
    const before = a.received('rejected').length;
    a.room.connection.send(rawMessage('name', payload));
    await a.waitMessage('rejected', before);
    expect(a.received('rejected').at(-1)).toMatchObject({ type: 'name', code: 'bad_payload' });
  }
  expect(a.left).toBeNull();
  a.room.send('name', { name: 'still here' });
  await b.waitState((s) => s.seats.get('R').name === 'still here', 'renamed');
  await leaveAll([a, b]);
});

test('names lose bidi controls and invisible characters', async () => {
  const room = await fullRoom(server, { rules: { players: 2 } }, 0);
  const [a, b] = room.players;
  a.room.send('name', { name: 'Ev\u202eil\u200b\u2066 one' });
  await b.waitState((s) => s.seats.get('R').name === 'Evil one', 'cleaned name');
  expect((await a.sendExpectRejected('name', { name: '\u200b\u202e' })).code).toBe('bad_payload');
  await leaveAll([a, b]);
});

test('a room nobody joins goes after the short idle time; no room runs a patch interval, patches follow each change', async () => {
  const res = await fetch(`${server.url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const { code } = await res.json();
  const room = matchMaker.getLocalRoomById(code);
  expect(room).toBeDefined();
  expect(room.patchRate).toBe(0);
  await eventually(
    () => matchMaker.getLocalRoomById(code) === undefined,
    (gone) => gone,
    `unjoined room ${code} gone`,
  );
  expect(matchMaker.getLocalRoomById(code)).toBeUndefined();

  const c = await createRoom(server, {});
  const live = matchMaker.getLocalRoomById(c.state.code);
  expect(live.patchRate).toBe(0);
  c.room.send('name', { name: 'patched at once' });
  await c.waitState((s) => s.seats.get('R').name === 'patched at once', 'renamed');
  await leaveAll([c]);
  expect(live.patchRate).toBe(0);
});

test('the live-room cap answers server_full, and creation works again below it', async () => {
  const made: string[] = [];
  let refused = false;
  for (let i = 0; i < 60 && !refused; i++) {
    const res = await fetch(`${server.url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const body = await res.json();
    if (res.status === 201) made.push(body.code);
    else {
      expect(body.error.code).toBe('server_full');
      refused = true;
    }
  }
  expect(refused).toBe(true);
  // Rooms nobody sat at take at most half of the 40 (`rooms.quota.unseatedShare`); others may be
  // left by earlier tests.
  expect(made.length).toBeLessThanOrEqual(20);
  const live = liveRooms();
  expect(live).toBeLessThanOrEqual(40);
  // The unjoined rooms go after their short idle time; then a create succeeds again.
  await eventually(liveRooms, (n) => n <= live - made.length, 'the unjoined rooms gone');
  const again = await createRoom(server, {});
  await leaveAll([again]);
});
