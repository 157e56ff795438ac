/**
 * Issue 43, item 1: a create body the matchmaker cannot merge (`{"hasOwnProperty":1}`) used to
 * build a room whose patch interval ran forever while `/healthz` said 0 rooms. The body is now
 * checked before any room is built, the room class has no patch interval, and `/healthz` and the
 * metrics count every room object Colyseus built and did not close.
 */
import { matchMaker } from '@colyseus/core';
import type { RunningServer } from '../../server/src/app.js';
import { roomCensus } from '../../server/src/obs/census.js';
import { createMetrics } from '../../server/src/obs/metrics.js';
import { DjambiRoom } from '../../server/src/rooms/DjambiRoom.js';
import { quietSdkWarnings, startServer } from './helpers.js';

quietSdkWarnings();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ observability: { metrics: createMetrics({ defaults: false }) } });
});
afterAll(() => server.close());

const post = (body: string) => fetch(`${server.url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const health = async () => (await (await fetch(`${server.url}/healthz`)).json()) as { rooms: number; roomObjects: number };

test.each([
  ['hasOwnProperty', '{"hasOwnProperty":1}'],
  ['__proto__', '{"__proto__":{"x":1}}'],
  ['constructor', '{"constructor":{"prototype":1}}'],
  ['an unknown key', '{"rulez":{}}'],
  ['an array', '[1,2]'],
])('POST /api/rooms with %s is refused with bad_options and builds no room', async (_label, body) => {
  const before = roomCensus.built;
  const res = await post(body);
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_options');
  expect(roomCensus.built).toBe(before);
  expect(await health()).toMatchObject({ rooms: 0, roomObjects: 0 });
});

test('a join option in the body says so', async () => {
  const res = await post('{"name":"host"}');
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string; message: string; path: string } }).error).toMatchObject({
    code: 'bad_options',
    path: 'name',
    message: expect.stringMatching(/join option/),
  });
});

test('a bad rules body is still bad_rules', async () => {
  const res = await post('{"rules":{"players":7}}');
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_rules');
});

test('a room the matchmaker builds and drops before onCreate runs no interval and shows in /healthz and the metrics', async () => {
  expect(new DjambiRoom().patchRate).toBe(0);
  roomCensus.closed++; // the object above was never a room of the matchmaker
  // Server code reaching the matchmaker with options it cannot merge (no HTTP check in the way).
  await expect(matchMaker.createRoom('djambi', { hasOwnProperty: 1 })).rejects.toThrow();
  const seen = await health();
  expect(seen.rooms).toBe(0);
  expect(seen.roomObjects).toBe(1);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  expect(metrics).toMatch(/^djambi_room_objects 1$/m);
  roomCensus.closed++; // forget it for the other tests
});

test('a good body still makes a room, counted once', async () => {
  const res = await post('{"rules":{"players":2}}');
  expect(res.status).toBe(201);
  expect(await health()).toMatchObject({ rooms: 1, roomObjects: 1 });
});
