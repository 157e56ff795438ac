/**
 * Issue 43, item 4: reservations nobody uses do not keep people out. Six addresses send a bare
 * `POST /matchmake/joinById/CODE {"spectate":true}` every second and never open a socket; 30
 * spectators and three friends following the invite link all get in. A reservation counts for
 * a short time only, spectators count once connected, and a network whose reservations go
 * unused may hold one at a time. The room's per-address limits take an IPv6 client by its /48.
 */
import type { RunningServer } from '../../server/src/app.js';
import { DEFAULT_ADMISSION } from '../../server/src/rooms/admission.js';
import { TestClock } from '../support/clock.js';
import { createRoom, join, leaveAll, quietSdkWarnings, startServer, type TestClient } from './helpers.js';

quietSdkWarnings();
const clock = TestClock.following();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    now: clock.now,
    trustProxy: ['loopback'],
    limits: { exempt: [], rates: { create: null, reserve: null, lookup: null, api: null } },
    rooms: { admission: { ...DEFAULT_ADMISSION, spectators: 30 } },
  });
});
afterAll(() => server.close());

async function squat(code: string, from: string): Promise<number> {
  const res = await fetch(`${server.url}/matchmake/joinById/${code}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ spectate: true }),
  });
  const body = (await res.json()) as { error?: unknown; code?: unknown };
  return res.status === 200 && body.error === undefined ? 200 : res.status === 200 ? 400 : res.status;
}

test('bare reservations from six addresses keep no spectator and no friend out', async () => {
  const host = await createRoom(server, { rules: { players: 4 }, name: 'host' });
  const code = host.state.code as string;
  const squatters = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5', '203.0.113.6'];
  for (let second = 0; second < 20; second++) {
    await Promise.all(squatters.map((s) => squat(code, s)));
    clock.advance(1000);
  }
  await Promise.all(squatters.map((s) => squat(code, s)));
  const friends: TestClient[] = [];
  for (let i = 0; i < 3; i++) friends.push(await join(server, code, { name: `friend${i}` }));
  const spectators: TestClient[] = [];
  for (let i = 0; i < 30; i++) spectators.push(await join(server, code, { spectate: true }));
  expect(friends.every((f) => f.seat !== undefined)).toBe(true);
  await leaveAll([...spectators, ...friends, host]);
});

test("an IPv6 network's squatting is counted by its /48", async () => {
  const host = await createRoom(server, { rules: { players: 4 }, name: 'host' });
  const code = host.state.code as string;
  // Six /64s of one /48: one network, six unused reservations at most (DEFAULT_ADMISSION.pendingPerAddress).
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push(await squat(code, `2001:db8:42:${i}::1`));
  expect(statuses.slice(0, 6).every((s) => s === 200)).toBe(true);
  expect(statuses.slice(6).every((s) => s !== 200)).toBe(true);
  expect(await squat(code, '2001:db8:43::1')).toBe(200); // another /48
  await leaveAll([host]);
});
