/**
 * The host: whoever created the game through `POST /api/rooms` (its host token), not whoever sits
 * first (nobody hosts until the token's holder sits). Only the host starts (`not_host` for the
 * others) and removes players before the start (`remove_seat` → `seat_lost { reason: 'removed' }`);
 * a host that leaves for good hands over to the next seated player; a restored game keeps its
 * host. Spectators have names ("Spectator 3" by default, `name` to change it) listed in
 * `spectatorNames`.
 */
import { CLOCK_PRESETS } from '@djambi/shared';
import type { RunningServer } from '../../server/src/app.js';
import { Match } from '../../server/src/match/match.js';
import { hashSeatKey } from '../../server/src/match/seats.js';
import { MemoryStore } from '../../server/src/store/memory.js';
import { createRoom, join, leaveAll, quietSdkWarnings, sdk, startServer } from './helpers.js';

quietSdkWarnings();
const store = new MemoryStore();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ graceSeconds: 1, store });
});
afterAll(async () => {
  await server.close();
});

async function created(body: Record<string, unknown> = { rules: { players: 2 } }): Promise<{ code: string; hostToken: string }> {
  const res = await fetch(`${server.url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(201);
  return (await res.json()) as { code: string; hostToken: string };
}

test('POST /api/rooms returns a host token; its holder hosts even when another player sat first', async () => {
  const { code, hostToken } = await created({ rules: { players: 3 } });
  expect(hostToken).toMatch(/^[0-9a-f]{32}$/);
  // Until the token's holder sits, nobody hosts: sitting first does not make one the host.
  const first = await join(server, code, { name: 'first' });
  expect(first.state.host).toBe('');
  const host = await join(server, code, { name: 'host', hostToken });
  await first.waitState((s) => s.host === host.seat!.colour, 'host marked for everyone');
  const third = await join(server, code, { name: 'third' });
  expect(third.state.host).toBe('B');
  // Only the host starts, and the token stays with its holder: it is not in the state.
  expect(JSON.stringify(third.state.toJSON())).not.toContain(hostToken);
  expect((await first.sendExpectRejected('start')).code).toBe('not_host');
  expect((await third.sendExpectRejected('start')).code).toBe('not_host');
  host.room.send('start');
  await first.waitState((s) => s.phase === 'playing', 'started by the host');
  await leaveAll([first, host, third]);
});

test('a wrong host token is a seat like any other; a bad one is refused at the door', async () => {
  const { code } = await created();
  const a = await join(server, code, { name: 'a', hostToken: 'f'.repeat(32) });
  const b = await join(server, code, { name: 'b', hostToken: '0'.repeat(32) });
  expect(b.state.host).toBe('');
  expect((await a.sendExpectRejected('start')).code).toBe('not_host');
  await expect(sdk(server).joinById(code, { hostToken: 5 })).rejects.toThrow(/^bad_options:/);
  await expect(
    fetch(`${server.url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hostToken":"x"}' }).then((r) => r.status),
  ).resolves.toBe(400);
  await leaveAll([a, b]);
});

test('a room created through the SDK is hosted by its creator', async () => {
  const a = await createRoom(server, { rules: { players: 2 } });
  expect(a.state.host).toBe('R');
  const b = await join(server, a.state.code, {});
  expect((await b.sendExpectRejected('start')).code).toBe('not_host');
  await leaveAll([a, b]);
});

test('remove_seat: the host frees a seat before the start; others get not_host', async () => {
  const { code, hostToken } = await created({ rules: { players: 3 } });
  const host = await join(server, code, { hostToken });
  const b = await join(server, code, { name: 'bob' });
  const c = await join(server, code, { name: 'cy' });
  expect((await b.sendExpectRejected('remove_seat', { colour: 'Y' })).code).toBe('not_host');
  expect((await b.sendExpectRejected('remove_seat', { colour: 'R' })).code).toBe('not_host');
  expect((await host.sendExpectRejected('remove_seat', { colour: 'Q' })).code).toBe('bad_payload');
  expect((await host.sendExpectRejected('remove_seat', { colour: 'R' })).code).toBe('bad_payload');
  await b.waitState((s) => s.seats.get('Y').taken, 'nothing changed');
  const keyB = b.seat!.seatKey;
  host.room.send('remove_seat', { colour: 'B' });
  const lost = await b.waitMessage('seat_lost');
  expect(lost).toEqual({ colour: 'B', reason: 'removed' });
  await c.waitState((s) => !s.seats.get('B').taken, 'B freed');
  await expect(sdk(server).joinById(code, { seatKey: keyB })).rejects.toThrow(/^removed:/);
  expect((await host.sendExpectRejected('remove_seat', { colour: 'B' })).code).toBe('not_seated');
  const d = await join(server, code, { name: 'dee' });
  host.room.send('start');
  await c.waitState((s) => s.phase === 'playing', 'started');
  expect((await host.sendExpectRejected('remove_seat', { colour: 'Y' })).code).toBe('already_started');
  await leaveAll([host, c, d]);
});

test('a removed player may not sit again in that game (their device, their old seat key), even after a restart; they may watch', async () => {
  const { code, hostToken } = await created({ rules: { players: 3 } });
  const device = 'dev-removed-0123456789';
  const host = await join(server, code, { hostToken, device: 'dev-host-0123456789ab' });
  const b = await join(server, code, { name: 'bob', device });
  const keyB = b.seat!.seatKey;
  host.room.send('remove_seat', { colour: 'B' });
  expect(await b.waitMessage('seat_lost')).toEqual({ colour: 'B', reason: 'removed' });
  await host.waitState((s) => !s.seats.get('B').taken, 'B freed');
  // The same browser, asking for a seat again (any colour, or none): refused with `removed`, 4403.
  const again = sdk(server).joinById(code, { name: 'bob', device });
  await expect(again).rejects.toThrow(/^removed:/);
  await expect(again).rejects.toMatchObject({ code: 4403 });
  await expect(sdk(server).joinById(code, { colour: 'B', device })).rejects.toThrow(/^removed:/);
  await expect(sdk(server).joinById(code, { seatKey: keyB, device })).rejects.toThrow(/^removed:/);
  // They may watch.
  const watching = await join(server, code, { spectate: true, name: 'bob', device });
  expect(watching.seat).toBeUndefined();
  // A bad device token is bad options; another browser sits.
  await expect(sdk(server).joinById(code, { device: 'short' })).rejects.toThrow(/^bad_options:/);
  await expect(sdk(server).joinById(code, { device: 'x'.repeat(65) })).rejects.toThrow(/^bad_options:/);
  await expect(sdk(server).joinById(code, { device: 'not a token at all!' })).rejects.toThrow(/^bad_options:/);
  const other = await join(server, code, { name: 'other', device: 'dev-other-0123456789' });
  expect(other.seat?.colour).toBe('B');
  // The bar is in the log: the remove_seat event carries the barred hashes, and a restored match still refuses.
  const logged = await store.load(code);
  const removal = logged!.events.find((e) => e.intent.type === 'remove_seat');
  expect(removal?.barred).toHaveLength(2);
  expect(JSON.stringify(logged!.events)).not.toContain(device);
  const restored = Match.restore(logged!.config, logged!.events);
  const leave = restored.apply({ type: 'leave_seat', colour: 'B' }, Date.now());
  expect(leave.ok).toBe(true);
  const retake = restored.apply({ type: 'take_seat', name: 'bob', deviceHash: hashSeatKey(device) }, Date.now());
  expect(retake).toMatchObject({ ok: false, rejection: { code: 'removed' } });
  expect(restored.isBarred(hashSeatKey(keyB))).toBe(true);
  expect(Match.restoreValid(logged!.config, logged!.events).broken).toBeNull();
  await leaveAll([host, watching, other]);
});

test('a host that leaves its seat, or whose grace period runs out, hands over to the next seated player', async () => {
  const { code, hostToken } = await created({ rules: { players: 4 } });
  const a = await join(server, code, { name: 'a' });
  const b = await join(server, code, { name: 'b' });
  const host = await join(server, code, { hostToken });
  const d = await join(server, code, { name: 'd' });
  expect(d.state.host).toBe('Y');
  // leave_seat: the next seated player in seat order (after Y comes G).
  await host.room.leave(true);
  await a.waitState((s) => s.host === 'G', 'host passed to G');
  // A dropped host keeps the place through its grace period, then hands over (G → R).
  d.room.connection.close();
  await a.waitState((s) => s.seats.get('G').presence === 'reconnecting', 'host dropped');
  expect(a.state.host).toBe('G');
  await a.waitState((s) => s.host === 'R', 'host passed to R after the grace period', 5000);
  expect((await b.sendExpectRejected('start')).code).toBe('not_ready');
  // The restored game keeps its host (the store's log, replayed).
  const logged = await store.load(code);
  expect(logged).not.toBeNull();
  expect(Match.restore(logged!.config, logged!.events).seats.hostColour()).toBe('R');
  await leaveAll([a, b]);
});

test('spectators have names: "Spectator N" by default, chosen at join or with name', async () => {
  const { code, hostToken } = await created();
  const host = await join(server, code, { hostToken });
  const s1 = await join(server, code, { spectate: true });
  const s2 = await join(server, code, { spectate: true, name: '  Zoé  ' });
  await host.waitState((s) => s.spectatorNames.length === 2, 'two spectators');
  expect(host.state.spectatorNames.toArray()).toEqual(['Spectator 1', 'Zoé']);
  s1.room.send('name', { name: 'Ana' });
  await host.waitState((s) => s.spectatorNames[0] === 'Ana', 'renamed');
  expect((await s1.sendExpectRejected('name', { name: '\u200b' })).code).toBe('bad_payload');
  expect((await s1.sendExpectRejected('name', { name: 'x'.repeat(25) })).code).toBe('bad_payload');
  await s2.room.leave(true);
  await host.waitState((s) => s.spectatorNames.length === 1, 'one left');
  const s3 = await join(server, code, { spectate: true });
  await host.waitState((s) => s.spectatorNames.length === 2, 'a third came');
  expect(host.state.spectatorNames[1]).toBe('Spectator 3');
  await leaveAll([host, s1, s3]);
});

test('every clock preset, including one day per move, is accepted', async () => {
  for (const clock of Object.values(CLOCK_PRESETS)) {
    const { code } = await created({ rules: { players: 2 }, clock });
    const res = await fetch(`${server.url}/api/rooms/${code}`);
    expect((await res.json()).clock).toEqual(clock);
  }
});
