/**
 * Three real server processes on one Redis and one PostgreSQL database: a room created through
 * one process is joined, watched and played through the others with every client seeing the same
 * game; the listing, the lookup and the record answer alike from every process; and 500 rooms
 * created at once through all three get 500 distinct codes, each found from every process.
 */
import { quietSdkWarnings, seeded, type State, TestClient } from '../server/helpers.js';
import { clusterAvailable, finish, getJson, leaveAll, playTurns, request, sdkAt, seatTable, TestCluster, view } from './support.js';

const AVAILABLE = clusterAvailable('cluster.test.ts');

jest.setTimeout(60_000);
beforeAll(() => quietSdkWarnings());

(AVAILABLE ? describe : describe.skip)('three processes, one Redis, one database', () => {
  let cluster: TestCluster;
  let ports: number[];
  beforeAll(async () => {
    cluster = await TestCluster.start(3);
    ports = cluster.servers.map((s) => s.port);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  test('a room created through one process is joined, watched and played through the others; every client sees the same', async () => {
    const table = await seatTable(ports);
    const { code, players } = table;
    const host = cluster.hostOf(code);
    // The players matchmade through all three processes; each WebSocket is on the host.
    const watcherSdk = sdkAt(ports.find((p) => p !== host.port)!);
    const watcher = new TestClient(await watcherSdk.joinById<State>(code, { spectate: true, name: 'w' }), watcherSdk);
    await watcher.waitState((s) => s.code === code, 'watcher state');
    const everyone = [...players, watcher];

    await playTurns(players, everyone, seeded(21), 12);
    const seen = everyone.map(view);
    for (const v of seen) expect(v).toEqual(seen[0]);

    // Listing, lookup and record: the same from every process.
    for (const port of ports) {
      const list = await getJson(port, '/api/rooms?limit=100');
      expect(list.status).toBe(200);
      expect(list.body.rooms.map((r: { code: string }) => r.code)).toContain(code);
      const one = await getJson(port, `/api/rooms/${code}`);
      expect(one.status).toBe(200);
      expect(one.body.code).toBe(code);
      expect(one.body.clients).toBe(5);
    }
    // The same record from every process; only its Site tag names the address it was asked at.
    const records = await Promise.all(
      ports.map(async (p) => ((await getJson(p, `/api/rooms/${code}/record`)).text as string).replace(/^\[Site ".*"\]\n/m, '')),
    );
    for (const r of records) expect(r).toBe(records[0]);
    expect(records[0].length).toBeGreaterThan(0);

    // A player leaves and reclaims the seat with its key through a process that does not host the room.
    const leaver = players[1];
    const seat = leaver.seat!;
    await leaver.room.leave(true);
    const otherPort = ports.find((p) => p !== host.port && p !== ports[1])!;
    const backSdk = sdkAt(otherPort);
    const back = new TestClient(await backSdk.joinById<State>(code, { seatKey: seat.seatKey }), backSdk);
    await back.waitMessage('seat');
    expect(back.seat!.colour).toBe(seat.colour);
    players[1] = back;
    everyone[1] = back;
    await back.waitState((s) => s.version === players[0].state.version, 'reclaimed state');
    await playTurns(players, everyone, seeded(22), 4);
    const again = everyone.map(view);
    for (const v of again) expect(v).toEqual(again[0]);

    await finish(players, everyone);
    const end = everyone.map(view);
    for (const v of end) expect(v).toEqual(end[0]);
    expect(players[0].state.phase).toBe('over');
    for (const port of ports) {
      const archived = await getJson(port, `/api/games/${code}`);
      expect(archived.status).toBe(200);
      expect(archived.body.status).toBe('finished');
    }
    await leaveAll(everyone);
  });

  test("a live room's listing and host entry, removed by another process (a boot-time health check), come back", async () => {
    const table = await seatTable(ports);
    const { code } = table;
    const host = cluster.hostOf(code);
    cluster.redis.cli('HDEL', 'roomcaches', code);
    cluster.redis.cli('HDEL', 'djambi:hosts', code);
    const t0 = performance.now();
    while (cluster.redis.listing(code) === null || cluster.redis.cli('HGET', 'djambi:hosts', code) === '') {
      if (performance.now() - t0 > 10_000) throw new Error('the listing did not come back within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(cluster.hostOf(code)).toBe(host);
    // Still one game: a player reclaims through another process and lands in the same room.
    const p0 = table.players[0];
    const other = ports.find((p) => p !== host.port)!;
    const sdk = sdkAt(other);
    const again = new TestClient(await sdk.joinById<State>(code, { seatKey: p0.seat!.seatKey }), sdk);
    await again.waitMessage('seat');
    await p0.waitLeft(); // replaced by the reclaim, in the same room
    await leaveAll([again, ...table.players.slice(1)]);
  });

  test('500 rooms created at once through three processes: 500 distinct codes, spread, each found from every process', async () => {
    const N = 500;
    const IN_FLIGHT = Number(process.env.CLUSTER_CREATE_IN_FLIGHT ?? N);
    let retried = 0;
    const t0 = performance.now();
    const create = async (i: number): Promise<string> => {
      // A well-behaved client tries again on a temporary refusal (a busy database: `storage_unavailable`).
      for (let attempt = 0; ; attempt++) {
        const res = await request(ports[i % ports.length], 'POST', '/api/rooms', { visibility: 'private' });
        const body = res.body as { code: string; error?: { code: string } };
        if (body.error?.code === 'storage_unavailable' && attempt < 10) {
          retried++;
          await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 200 * (attempt + 1))));
          continue;
        }
        expect({ status: res.status, body }).toEqual({ status: 201, body: expect.objectContaining({ code: expect.any(String) }) });
        return body.code;
      }
    };
    // All at once by default (CLUSTER_CREATE_IN_FLIGHT bounds it).
    const created: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let i = next++; i < N; i = next++) created.push(await create(i));
      }),
    );
    console.log(
      `500 creations over 3 processes, ${IN_FLIGHT} in flight: ${Math.round(performance.now() - t0)} ms, ${retried} retried after storage_unavailable`,
    );
    expect(new Set(created).size).toBe(N);
    // Each room stays on the process that was asked (a load balancer spreads the requests).
    const hosts = new Map<number, number>();
    for (const code of created) {
      const port = cluster.hostOf(code).port;
      hosts.set(port, (hosts.get(port) ?? 0) + 1);
    }
    console.log(`rooms per process ${JSON.stringify(Object.fromEntries(hosts))}`);
    expect(hosts.size).toBeGreaterThan(1);
    // Every code is found from every process (a sample, to stay quick).
    for (const code of created.filter((_, i) => i % 50 === 0)) {
      for (const port of ports) expect((await getJson(port, `/api/rooms/${code}`)).status).toBe(200);
    }
  });
});
