/** HTTP API: health, room creation by POST, listing of public rooms, room description, invite page. */
import type { RunningServer } from '../../server/src/app.js';
import { join, leaveAll, quietSdkWarnings, startServer } from './helpers.js';

quietSdkWarnings();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const api = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const post = (path: string, body: unknown) =>
  api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Retries `probe` (each try waits for the previous request) until it returns true. */
async function eventually(probe: () => Promise<boolean>, label: string, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await probe()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never true: ${label}`);
}

test('GET /healthz', async () => {
  const res = await api('/healthz');
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ ok: true });
});

test('POST /api/rooms creates a room; GET describes it; the invite link serves the client', async () => {
  const res = await post('/api/rooms', { rules: { players: 3, reporter: 'mandatory_single' }, clock: { initialSeconds: 600, incrementSeconds: 5 }, visibility: 'public' });
  expect(res.status).toBe(201);
  const body = await res.json();
  expect(body.code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/);
  expect(body.invite).toBe(`http://127.0.0.1:${server.port}/g/${body.code}`);

  const desc = await (await api(`/api/rooms/${body.code.toLowerCase()}`)).json();
  expect(desc).toMatchObject({
    code: body.code,
    phase: 'waiting',
    visibility: 'public',
    players: 3,
    seatsTaken: 0,
    clock: { initialSeconds: 600, incrementSeconds: 5 },
    rules: { players: 3, reporter: 'mandatory_single' },
    invite: body.invite,
  });
  expect(desc.seats.map((s: { colour: string }) => s.colour)).toEqual(['R', 'B', 'Y']);

  // The first to join takes a seat and is the creator.
  const a = await join(server, body.code, { name: 'ann' });
  expect(a.seat!.colour).toBe('R');
  expect(a.state.creator).toBe('R');
  expect(a.state.clock.toJSON()).toMatchObject({ enabled: true, initialMs: 600000, incrementMs: 5000 });
  expect(a.state.rules.reporter).toBe('mandatory_single');
  await eventually(async () => (await (await api(`/api/rooms/${body.code}`)).json()).seatsTaken === 1, 'seat count in listing');

  const page = await api(`/g/${body.code}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/html/);
  await leaveAll([a]);
});

test('GET /api/rooms lists public rooms only', async () => {
  const pub = await (await post('/api/rooms', { visibility: 'public' })).json();
  const priv = await (await post('/api/rooms', {})).json();
  const list = await (await api('/api/rooms')).json();
  const codes = list.rooms.map((r: { code: string }) => r.code);
  expect(codes).toContain(pub.code);
  expect(codes).not.toContain(priv.code);
  // A private room can still be described and joined by its code.
  expect((await api(`/api/rooms/${priv.code}`)).status).toBe(200);
});

test('bad requests', async () => {
  const badRules = await post('/api/rooms', { rules: { players: 5 } });
  expect(badRules.status).toBe(400);
  expect((await badRules.json()).error.code).toBe('bad_rules');
  const badClock = await post('/api/rooms', { clock: { initialSeconds: -1 } });
  expect(badClock.status).toBe(400);
  expect((await badClock.json()).error.code).toBe('bad_options');
  const unknown = await post('/api/rooms', { colours: 4 });
  expect(unknown.status).toBe(400);
  const joinKey = await post('/api/rooms', { seatKey: 'x' });
  expect(joinKey.status).toBe(400);
  const notJson = await api('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
  expect(notJson.status).toBe(400);
  const big = await post('/api/rooms', { rules: {}, pad: 'x'.repeat(20000) });
  expect(big.status).toBe(413);
  expect((await api('/api/rooms/ZZZZZZ')).status).toBe(404);
  expect((await api('/api/rooms/not-a-code!')).status).toBe(404);
  expect((await api('/api/nothing')).status).toBe(404);
});
