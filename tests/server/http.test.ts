/**
 * HTTP API: health, room creation by POST, listing of public rooms, room description; the built
 * client's static files and the SPA fallback (every client route gets index.html).
 */
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningServer } from '../../server/src/app.js';
import { makeFen, parseRecord, replayRecord } from '@djambi/shared';
import { fenOf, fullRoom, holder, join, leaveAll, quietSdkWarnings, randomTurnFor, seeded, startServer } from './helpers.js';

quietSdkWarnings();
/** A stand-in for client/dist (one server per file: Colyseus's matchmaker is process-wide). */
const INDEX = '<!doctype html><title>djambi test client</title><div id="app"></div>';
let clientDir: string;
let server: RunningServer;
beforeAll(async () => {
  clientDir = await mkdtemp(path.join(tmpdir(), 'djambi-client-'));
  await mkdir(path.join(clientDir, 'assets'));
  await writeFile(path.join(clientDir, 'index.html'), INDEX);
  await writeFile(path.join(clientDir, 'assets', 'app.js'), 'console.log("app")');
  server = await startServer({ clientDir });
});
afterAll(async () => {
  await server.close();
  await rm(clientDir, { recursive: true, force: true });
});

const api = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const post = (path: string, body: unknown) => api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

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
  const res = await post('/api/rooms', {
    rules: { players: 3, reporter: 'mandatory_single' },
    clock: { initialSeconds: 600, incrementSeconds: 5 },
    visibility: 'public',
    press_visibility: 'existence',
  });
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
    press_visibility: 'existence',
    reveal_press_after_game: true,
    invite: body.invite,
  });
  expect(desc.seats.map((s: { colour: string }) => s.colour)).toEqual(['R', 'B', 'Y']);

  // The first to join takes a seat and is the creator.
  const a = await join(server, body.code, { name: 'ann' });
  expect(a.seat!.colour).toBe('R');
  expect(a.state.creator).toBe('R');
  expect(a.state.clock.toJSON()).toMatchObject({ enabled: true, initialMs: 600000, incrementMs: 5000 });
  expect(a.state.rules.reporter).toBe('mandatory_single');
  expect(a.state.press_visibility).toBe('existence');
  expect(a.state.reveal_press_after_game).toBe(true);
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

test('GET /api/rooms is paginated: ?limit= (default 50, at most 100) and the cursor in `next`', async () => {
  const made: string[] = [];
  for (let i = 0; i < 7; i++) made.push((await (await post('/api/rooms', { visibility: 'public' })).json()).code);
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await api(`/api/rooms?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { rooms: { code: string; createdAt: number }[]; next: string | null };
    expect(page.rooms.length).toBeLessThanOrEqual(3);
    if (page.next !== null) expect(page.rooms).toHaveLength(3);
    seen.push(...page.rooms.map((r) => r.code));
    cursor = page.next;
    pages++;
  } while (cursor !== null && pages < 100);
  expect(cursor).toBeNull();
  expect(new Set(seen).size).toBe(seen.length); // no room twice
  for (const code of made) expect(seen).toContain(code);
  // One page with everything, in the same order (creation time, then code).
  const all = (await (await api('/api/rooms')).json()) as { rooms: { code: string }[]; next: string | null };
  expect(all.next).toBeNull();
  expect(all.rooms.map((r) => r.code)).toEqual(seen);
  // A limit over the maximum is the maximum; a malformed one, or a cursor, is refused.
  expect((await api('/api/rooms?limit=1000')).status).toBe(200);
  for (const q of ['limit=0', 'limit=-1', 'limit=abc', 'limit=1&limit=2', 'cursor=nope', 'cursor=1.']) {
    const bad = await api(`/api/rooms?${q}`);
    expect([q, bad.status]).toEqual([q, 400]);
    expect((await bad.json()).error.code).toBe('bad_query');
  }
});

test('bad requests', async () => {
  const badRules = await post('/api/rooms', { rules: { players: 5 } });
  expect(badRules.status).toBe(400);
  expect((await badRules.json()).error.code).toBe('bad_rules');
  const badClock = await post('/api/rooms', { clock: { initialSeconds: -1 } });
  expect(badClock.status).toBe(400);
  expect((await badClock.json()).error.code).toBe('bad_options');
  for (const press of [{ press_visibility: 'everyone' }, { press_visibility: 1 }, { reveal_press_after_game: 'yes' }]) {
    const badPress = await post('/api/rooms', press);
    expect(badPress.status).toBe(400);
    expect((await badPress.json()).error.code).toBe('bad_options');
  }
  const unknown = await post('/api/rooms', { colours: 4 });
  expect(unknown.status).toBe(400);
  const joinKey = await post('/api/rooms', { seatKey: 'x' });
  expect(joinKey.status).toBe(400);
  const notJson = await api('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
  expect(notJson.status).toBe(400);
  const big = await post('/api/rooms', { rules: {}, pad: 'x'.repeat(20000) });
  expect(big.status).toBe(413);
  expect((await big.json()).error.code).toBe('payload_too_large');
  expect((await api('/api/rooms/ZZZZZZ')).status).toBe(404);
  expect((await api('/api/rooms/not-a-code!')).status).toBe(404);
  expect((await api('/api/nothing')).status).toBe(404);
});

describe('the built client: static files and the SPA fallback', () => {
  const get = (p: string, init?: RequestInit) => fetch(`${server.url}${p}`, init);

  test.each(['/', '/rules', '/rules/', '/g/K7QMZ3', '/g/k7qmz3', '/some/deep/client/route', '/rules?lang=fr'])(
    'a direct load of %s gets index.html',
    async (p) => {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toBe(INDEX);
    },
  );

  test('static files, the API, /healthz and missing files are not the client page', async () => {
    const js = await get('/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(await js.text()).toBe('console.log("app")');
    const missing = await get('/assets/missing.js');
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('djambi test client');
    expect((await get('/favicon.ico')).status).toBe(404);
    const api = await get('/api/nothing');
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
    expect((await get('/api')).status).toBe(404);
    expect(await (await get('/healthz')).json()).toMatchObject({ ok: true });
    expect((await get('/rules', { method: 'POST' })).status).toBe(404);
  });

  test('without a built client, client routes get a placeholder page', async () => {
    await unlink(path.join(clientDir, 'index.html'));
    try {
      for (const p of ['/', '/rules', '/g/K7QMZ3']) {
        const res = await get(p);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('The web client is not built');
      }
    } finally {
      await writeFile(path.join(clientDir, 'index.html'), INDEX);
    }
  });
});

test('GET /api/rooms/:code/record gives the game record, which replays to the synced position', async () => {
  const room = await fullRoom(server, { rules: { players: 2 } }, 0);
  room.players[0].room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  const random = seeded(3);
  for (let i = 0; i < 6; i++) {
    const s = room.players[0].state;
    const v = s.version;
    holder(room.players, s.toMove).room.send('turn', randomTurnFor(s, random));
    await Promise.all(room.all.map((c) => c.waitState((st) => st.version > v, 'turn applied')));
  }
  const res = await api(`/api/rooms/${room.code.toLowerCase()}/record`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await res.text();
  // Headed by its tags, as PGN (issue 40, bug 9): the game, where and when, the board, the players, the result.
  const lines = text.split('\n');
  expect(lines.slice(0, 8)).toEqual([
    '[Event "Djambi online"]',
    `[Site "${server.url}/g/${room.code}"]`,
    expect.stringMatching(/^\[Date "\d{4}\.\d\d\.\d\d"\]$/),
    '[Variant "square"]',
    '[Red "p0"]',
    '[Yellow "p1"]',
    '[Result "*"]',
    '[Termination "unterminated"]',
  ]);
  expect(lines[8]).toMatch(/^Djambi players=2 /);
  const record = parseRecord(text);
  expect(record.ok).toBe(true);
  if (!record.ok) return;
  expect(record.value.tags).toMatchObject({ Red: 'p0', Yellow: 'p1', Variant: 'square' });
  expect(record.value.events).toHaveLength(room.players[0].state.moves.length);
  const replayed = replayRecord(record.value);
  expect(replayed.ok && makeFen(replayed.value)).toBe(fenOf(room.players[0].state));
  expect((await api('/api/rooms/ZZZZZZ/record')).status).toBe(404);
  await leaveAll(room.all);
});
