/**
 * Metrics at `/metrics` on a real server after a real game: rooms, clients, accepted turns, the
 * store's append histogram and failures, Node's event-loop lag and GC; the bearer token when one
 * is set; and `@colyseus/monitor` at `/colyseus` only with a password, behind basic auth.
 */
import { createServer, type RunningServer } from '../../server/src/app.js';
import { createMetrics } from '../../server/src/obs/metrics.js';
import { MemoryStore } from '../../server/src/store/memory.js';
import { Fenced } from '../../server/src/store/types.js';
import { matchMaker } from '@colyseus/core';
import { fullRoom, join, leaveAll, playRandomGame, quietSdkWarnings, startServer } from './helpers.js';
import { raw } from './httpHelpers.js';
import { eventually } from '../support/wait.js';

quietSdkWarnings();

/** The value of one series (`name{labels}` exactly as exposed), or undefined. */
function series(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

async function scrape(server: RunningServer, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string }> {
  const res = await raw(server, '/metrics', { headers });
  return { status: res.status, text: res.text, type: String(res.headers['content-type']) };
}

/** The metrics once `ready` holds of them (scraped again every 20 ms, within a generous bound). */
function scrapeUntil(server: RunningServer, ready: (text: string) => boolean, what: string): Promise<string> {
  return eventually(async () => (await scrape(server)).text, ready, `metrics: ${what}`);
}

describe('/metrics', () => {
  let server: RunningServer;
  const store = new MemoryStore();
  beforeAll(async () => {
    server = await startServer({ store });
  });
  afterAll(async () => {
    await server.close();
  });

  test('counts rooms, clients, accepted turns and appends after a played game; Node defaults are there', async () => {
    const before = await scrape(server);
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const turnsBefore = series(before.text, 'djambi_turns_accepted_total') ?? 0;

    const room = await fullRoom(server, { rules: { players: 2 } }, 1);
    room.players[0].room.send('start');
    await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
    const during = await scrape(server);
    expect(series(during.text, 'djambi_rooms')).toBe(1);
    expect(series(during.text, 'djambi_clients')).toBe(3);

    const turns = await playRandomGame(room.players, room.all, 3, { maxTurns: 6 });
    // Turns played before the resignations (each a saved `turn` event).
    const accepted = turnsBefore + Math.min(turns, 6);
    const after = await scrapeUntil(server, (t) => (series(t, 'djambi_turns_accepted_total') ?? 0) >= accepted, `${accepted} accepted turns`);
    expect(series(after, 'djambi_turns_accepted_total')).toBe(accepted);
    expect(series(after, 'djambi_store_append_seconds_count')).toBeGreaterThanOrEqual(6);
    expect(after).toContain('# TYPE djambi_store_append_seconds histogram');
    expect(after).toContain('# TYPE djambi_turn_to_patch_seconds histogram');
    expect(series(after, 'djambi_turn_to_patch_seconds_count')).toBeGreaterThanOrEqual(Math.min(turns, 6));
    expect(after).toContain('# TYPE djambi_rejections_total counter');
    expect(after).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    expect(after).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    expect(after).toContain('process_resident_memory_bytes');
    // A refused message is counted by its code.
    const refusals = (text: string) => [...text.matchAll(/^djambi_rejections_total\{code="([a-z_]+)"[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[2]), 0);
    const refusedBefore = refusals(after);
    await room.players[1].sendExpectRejected('turn', { nonsense: true });
    const refused = await scrapeUntil(server, (t) => refusals(t) >= refusedBefore + 1, 'the refused message counted');
    expect(refusals(refused)).toBe(refusedBefore + 1);
    await leaveAll(room.all);
  });

  test('a failed append is counted by kind', async () => {
    const room = await fullRoom(server, { rules: { players: 2 } }, 0);
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined); // the room reports the fence
    const append = store.appendMany.bind(store);
    store.appendMany = async (code) => {
      throw new Fenced(code, 1);
    };
    try {
      const reply = await room.players[0].sendExpectRejected('start');
      expect(reply.code).toBe('storage_unavailable');
    } finally {
      store.appendMany = append;
      errors.mockRestore();
    }
    // The refused start, and possibly the leave of a client the fenced room closed meanwhile.
    const fenced = (t: string) => series(t, 'djambi_store_append_failures_total{kind="fenced"}') ?? 0;
    expect(fenced(await scrapeUntil(server, (t) => fenced(t) >= 1, 'the failed append counted'))).toBeGreaterThanOrEqual(1);
    await leaveAll(room.all);
  });

  test('a game re-opened from the log is counted; no re-open is in progress at rest', async () => {
    const before = (await scrape(server)).text;
    const reopenedBefore = series(before, 'djambi_games_reopened_total') ?? 0;
    // A started game (seats are kept when their players leave), its room then gone from memory.
    const room = await fullRoom(server, { rules: { players: 2 } }, 0);
    room.players[0].room.send('start');
    await Promise.all(room.all.map((c) => c.waitState((st) => st.phase === 'playing', 'start')));
    const key = room.players[0].received('seat')[0].seatKey as string;
    await leaveAll(room.all);
    await matchMaker.getLocalRoomById(room.code)?.disconnect();
    expect(matchMaker.getLocalRoomById(room.code)).toBeUndefined();
    // Its player comes back by code: the game is re-opened from the log.
    const back = await join(server, room.code, { seatKey: key });
    expect(back.received('seat')[0].colour).toBe('R');
    const after = await scrapeUntil(
      server,
      (t) =>
        (series(t, 'djambi_games_reopened_total') ?? 0) >= reopenedBefore + 1 &&
        series(t, 'djambi_reopens{state="running"}') === 0 &&
        series(t, 'djambi_reopens{state="waiting"}') === 0,
      'the re-open counted and over',
    );
    expect(series(after, 'djambi_games_reopened_total')).toBe(reopenedBefore + 1);
    expect(series(after, 'djambi_reopens{state="running"}')).toBe(0);
    expect(series(after, 'djambi_reopens{state="waiting"}')).toBe(0);
    await leaveAll([back]);
  });
});

describe('/metrics without a store', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await createServer({ port: 0, host: '127.0.0.1', clientDir: '/nonexistent-client-dir', graceSeconds: 1 });
  });
  afterAll(async () => {
    await server.close();
  });

  test('accepted turns are counted where they are published, not by the store', async () => {
    const room = await fullRoom(server, { rules: { players: 2 } }, 0);
    room.players[0].room.send('start');
    await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
    const turns = await playRandomGame(room.players, room.all, 5, { maxTurns: 4 });
    const counted = (t: string) => series(t, 'djambi_turns_accepted_total') ?? 0;
    const text = await scrapeUntil(
      server,
      (t) => counted(t) >= Math.min(turns, 4) && (series(t, 'djambi_turn_to_patch_seconds_count') ?? 0) >= Math.min(turns, 4),
      'the turns counted',
    );
    expect(series(text, 'djambi_turns_accepted_total')).toBe(Math.min(turns, 4));
    expect(series(text, 'djambi_turn_to_patch_seconds_count')).toBe(Math.min(turns, 4));
    expect(series(text, 'djambi_store_append_seconds_count')).toBe(0);
    await leaveAll(room.all);
  });
});

describe('the counting functions', () => {
  test('rejections are labelled by code; anything that is not a code becomes "other"', async () => {
    const m = createMetrics({ defaults: false, labels: { node: 'n1' } });
    m.rejected('not_your_turn');
    m.rejected('not_your_turn');
    m.rejected('Robert"); DROP');
    m.turnAccepted();
    m.observeTurnToPatch(3);
    const text = await m.render();
    expect(series(text, 'djambi_rejections_total{code="not_your_turn",node="n1"}')).toBe(2);
    expect(series(text, 'djambi_rejections_total{code="other",node="n1"}')).toBe(1);
    expect(series(text, 'djambi_turns_accepted_total{node="n1"}')).toBe(1);
    expect(series(text, 'djambi_turn_to_patch_seconds_sum{node="n1"}')).toBeCloseTo(0.003);
    expect(text).not.toContain('nodejs_');
  });
});

describe('METRICS_TOKEN', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ observability: { metricsToken: 'scrape-secret' } });
  });
  afterAll(async () => {
    await server.close();
  });

  test('without the bearer token: 401 unauthorized; with it: the metrics', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic c2NyYXBlLXNlY3JldA==' }];
    for (const headers of attempts) {
      const res = await scrape(server, headers);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'unauthorized' } });
    }
    const ok = await scrape(server, { authorization: 'Bearer scrape-secret' });
    expect(ok.status).toBe(200);
    expect(series(ok.text, 'djambi_rejections_total{code="unauthorized"}')).toBe(3);
  });
});

describe('@colyseus/monitor', () => {
  test('absent without MONITOR_PASSWORD', async () => {
    const server = await startServer();
    try {
      const res = await raw(server, '/colyseus/api');
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.text).not.toContain('"rooms"');
    } finally {
      await server.close();
    }
  });

  test('behind basic auth with MONITOR_PASSWORD: 401 without or with a wrong password, the room list with it', async () => {
    const server = await startServer({ observability: { monitorPassword: 'monitor-secret' } });
    try {
      const room = await fullRoom(server, { rules: { players: 2 } }, 0);
      const basic = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` });
      for (const path of ['/colyseus/', '/colyseus/api', `/colyseus/api/room/call?roomId=${room.code}&method=disconnect&args=[]`]) {
        const none = await raw(server, path);
        expect(none.status).toBe(401);
        expect(String(none.headers['www-authenticate'])).toMatch(/^Basic/);
        expect((await raw(server, path, { headers: basic('admin', 'wrong') })).status).toBe(401);
      }
      expect(room.players[0].left).toBeNull(); // the unauthenticated call did nothing
      const page = await raw(server, '/colyseus/', { headers: basic('admin', 'monitor-secret') });
      expect(page.status).toBe(200);
      expect(String(page.headers['content-type'])).toMatch(/text\/html/);
      const api = await raw(server, '/colyseus/api', { headers: basic('admin', 'monitor-secret') });
      expect(api.status).toBe(200);
      expect(JSON.parse(api.text).rooms.map((r: { roomId: string }) => r.roomId)).toContain(room.code);
      await leaveAll(room.all);
    } finally {
      await server.close();
    }
  });
});
