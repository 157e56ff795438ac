/**
 * Issue 43, item 3: one address cannot fill the server. Rooms nobody sat at (made and never
 * joined, or played by bots alone) are capped per address (an IPv6 client: its /64) and take at
 * most a share of `maxRooms`; the rest is kept for games with players. Addresses come from a
 * trusted proxy's `X-Forwarded-For` (loopback is trusted here and not exempt from the limits).
 */
import type { RunningServer } from '../../server/src/app.js';
import { FAST_BOTS, quietSdkWarnings, startServer, type State, TestClient, sdk } from './helpers.js';

quietSdkWarnings();
let server: RunningServer;
beforeEach(async () => {
  server = await startServer({
    trustProxy: ['loopback'],
    limits: { exempt: [], rates: { create: null, reserve: null, lookup: null, api: null } },
    rooms: { maxRooms: 10, quota: { unseatedPerAddress: 2, unseatedShare: 0.5 }, bots: FAST_BOTS },
  });
});
afterEach(() => server.close());

async function create(
  from: string,
  body: Record<string, unknown> = { rules: { players: 2 } },
): Promise<{ status: number; code: string; error?: string; hostToken?: string }> {
  const res = await fetch(`${server.url}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code?: string; hostToken?: string; error?: { code: string } };
  return { status: res.status, code: json.code ?? '', error: json.error?.code, hostToken: json.hostToken };
}

test('an address holds at most its share of rooms nobody sat at; a seat gives its place back', async () => {
  const a1 = await create('203.0.113.1');
  const a2 = await create('203.0.113.1');
  expect([a1.status, a2.status]).toEqual([201, 201]);
  const a3 = await create('203.0.113.1');
  expect([a3.status, a3.error]).toEqual([429, 'too_many_rooms']);
  // Another address is not concerned.
  expect((await create('203.0.113.2')).status).toBe(201);
  // A person sits at one of the first address's rooms: it may make another.
  const client = sdk(server);
  const seated = new TestClient(await client.joinById<State>(a1.code, { name: 'friend', hostToken: a1.hostToken }), client);
  await seated.waitMessage('seat');
  expect((await create('203.0.113.1')).status).toBe(201);
  await seated.room.leave(true);
});

test('an IPv6 client is capped by its /64', async () => {
  expect((await create('2001:db8:1:2::1')).status).toBe(201);
  expect((await create('2001:db8:1:2::ffff')).status).toBe(201);
  expect((await create('2001:db8:1:2:abcd::7')).error).toBe('too_many_rooms');
  expect((await create('2001:db8:1:3::1')).status).toBe(201);
});

test('games played by bots alone count as rooms nobody sat at', async () => {
  const bots = { bots: { R: 'easy', B: 'easy', Y: 'easy', G: 'easy' }, autostart: true };
  expect((await create('198.51.100.7', bots)).status).toBe(201);
  expect((await create('198.51.100.7', bots)).status).toBe(201);
  expect((await create('198.51.100.7', bots)).error).toBe('too_many_rooms');
});

test('rooms nobody sat at take at most their share of maxRooms: the rest stays for games with players', async () => {
  // Two games people sit at.
  const client = sdk(server);
  const players: TestClient[] = [];
  for (let i = 0; i < 2; i++) {
    const tc = new TestClient(await client.create<State>('djambi', { rules: { players: 2 }, name: `p${i}` }), client);
    await tc.waitMessage('seat');
    players.push(tc);
  }
  const made: Awaited<ReturnType<typeof create>>[] = [];
  for (let i = 1; i <= 3; i++) for (let k = 0; k < 2; k++) made.push(await create(`192.0.2.${i}`));
  // maxRooms 10, share 0.5: the sixth room nobody sat at is refused although 3 rooms are free.
  expect(made.map((m) => m.status)).toEqual([201, 201, 201, 201, 201, 503]);
  expect((await create('192.0.2.9')).error).toBe('server_full');
  expect(((await (await fetch(`${server.url}/healthz`)).json()) as { rooms: number }).rooms).toBe(7);
  // A seat in one of them gives its place in the share back.
  const host = new TestClient(await client.joinById<State>(made[0]!.code, { name: 'host', hostToken: made[0]!.hostToken }), client);
  await host.waitMessage('seat');
  expect((await create('192.0.2.9')).status).toBe(201);
  await Promise.all([...players, host].map((p) => p.room.leave(true)));
});
