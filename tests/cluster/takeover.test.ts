/**
 * When a process dies its games come back on a surviving one: real server processes on one Redis
 * and one PostgreSQL database; the process hosting a game is killed with -9 mid-game; the game is
 * re-opened eagerly by a survivor's sweep (no client asks) or lazily by the first client that asks
 * for its code; the players reclaim their seats with their keys through the survivors and find the
 * same game (no accepted event lost), then play it to its end. A SIGTERM moves nothing by force:
 * the drained process's clients are told `server_restart` and land on a survivor when they rejoin.
 * Times are printed, not asserted (a wait has a generous bound only).
 */
import { quietSdkWarnings, seeded } from '../server/helpers.js';
import type { ServerProcess } from '../server/processes.js';
import { clusterAvailable, finish, getJson, leaveAll, playTurns, reclaim, seatTable, type Table, TestCluster, view } from './support.js';

const AVAILABLE = clusterAvailable('takeover.test.ts');

jest.setTimeout(60_000);
beforeAll(() => quietSdkWarnings());

/** Waits until `check` holds, polling every 50 ms; resolves with the time it took. */
async function until(check: () => boolean, label: string, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  while (!check()) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`${label}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - t0;
}

/** Two tables on the first process (players matchmaking through every process), one on the second. */
async function tables(cluster: TestCluster): Promise<{ doomed: Table[]; safe: Table }> {
  const ports = cluster.servers.map((s) => s.port);
  const doomed = [await seatTable(ports), await seatTable(ports)];
  const safe = await seatTable([ports[1], ports[0]]);
  for (const t of doomed) expect(cluster.hostOf(t.code)).toBe(cluster.servers[0]);
  expect(cluster.hostOf(safe.code)).toBe(cluster.servers[1]);
  return { doomed, safe };
}

/** Rooms live on the given processes (their `/healthz`). */
async function liveRooms(ports: readonly number[]): Promise<number> {
  const counts = await Promise.all(ports.map(async (p) => (await getJson(p, '/healthz')).body.rooms as number));
  return counts.reduce((a, b) => a + b, 0);
}

function survivorPorts(cluster: TestCluster, dead: ServerProcess): number[] {
  return cluster.servers.filter((s) => s !== dead).map((s) => s.port);
}

/** The doomed tables' players reclaim their seats through the survivors; same game; played to its end. */
async function comeBack(cluster: TestCluster, dead: ServerProcess, doomed: Table[], seen: unknown[][], seed: number): Promise<void> {
  const ports = survivorPorts(cluster, dead);
  for (const [i, t] of doomed.entries()) {
    const back = await reclaim(ports, t.code, t.keys);
    expect(back.map(view)).toEqual(seen[i]);
    expect(ports).toContain(cluster.hostOf(t.code).port);
    await playTurns(back, back, seeded(seed + i), 6);
    await finish(back, back);
    const end = back.map(view);
    for (const v of end) expect(v).toEqual(end[0]);
    expect(back[0].state.phase).toBe('over');
    await leaveAll(back);
  }
}

(AVAILABLE ? describe : describe.skip)('takeover', () => {
  let cluster: TestCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('kill -9: a survivor sweep re-opens the dead process games unasked; seats reclaimed, same games, played to the end', async () => {
    cluster = await TestCluster.start(3, { CLUSTER_SWEEP_MS: '1000' });
    const { doomed, safe } = await tables(cluster);
    for (const [i, t] of doomed.entries()) await playTurns(t.players, t.players, seeded(31 + i), 8);
    await playTurns(safe.players, safe.players, seeded(39), 4);
    const seen = doomed.map((t) => t.players.map(view));

    const dead = cluster.servers[0];
    const t0 = performance.now();
    await dead.kill('SIGKILL');
    const redis = cluster.redis;
    const ms = await until(() => doomed.every((t) => redis.listing(t.code) !== null && cluster!.hostOf(t.code) !== dead), 'eager takeover', 15_000);
    console.log(`kill -9: ${doomed.length} games listed on a survivor ${Math.round(ms)} ms after the kill (no client asked; sweep every 1 s)`);
    // Two survivors swept: each game was re-created once (the lock), next to the survivor's own game.
    expect(await liveRooms(survivorPorts(cluster, dead))).toBe(doomed.length + 1);
    await comeBack(cluster, dead, doomed, seen, 41);
    console.log(`kill -9 (eager): games played again ${Math.round(performance.now() - t0)} ms after the kill, to their end`);
    // The survivor's own game never noticed.
    expect(safe.players.every((p) => p.left === null)).toBe(true);
    await playTurns(safe.players, safe.players, seeded(49), 2);
    await leaveAll(safe.players);
  });

  test('kill -9: the first client asking for a code re-opens it (lazily), despite the dead process listing', async () => {
    // No periodic sweep within the test (only the one at boot).
    cluster = await TestCluster.start(3, { CLUSTER_SWEEP_MS: '600000' });
    const { doomed, safe } = await tables(cluster);
    for (const [i, t] of doomed.entries()) await playTurns(t.players, t.players, seeded(51 + i), 8);
    const seen = doomed.map((t) => t.players.map(view));
    const dead = cluster.servers[0];
    await dead.kill('SIGKILL');
    // The dead process's listings stay in Redis: nothing in Colyseus cleans them until asked.
    for (const t of doomed) expect(cluster.hostOf(t.code)).toBe(dead);
    // Many clients at once through both survivors: each game is re-created once (the lock).
    const survivors = survivorPorts(cluster, dead);
    const t0 = performance.now();
    const lookups = await Promise.all(doomed.flatMap((t) => survivors.flatMap((p) => Array.from({ length: 5 }, () => getJson(p, `/api/rooms/${t.code}`)))));
    console.log(`kill -9 (lazy): ${lookups.length} concurrent lookups answered in ${Math.round(performance.now() - t0)} ms`);
    for (const r of lookups) expect(r.status).toBe(200);
    expect(await liveRooms(survivors)).toBe(doomed.length + 1);
    await comeBack(cluster, dead, doomed, seen, 61);
    console.log(`kill -9 (lazy): games played again and finished ${Math.round(performance.now() - t0)} ms after the first rejoin`);
    await leaveAll(safe.players);
  });

  test('SIGTERM drains one process: its clients are told server_restart (4100) and rejoin on a survivor; the other games stay', async () => {
    cluster = await TestCluster.start(2, { CLUSTER_SWEEP_MS: '1000' });
    const { doomed, safe } = await tables(cluster);
    for (const [i, t] of doomed.entries()) await playTurns(t.players, t.players, seeded(71 + i), 6);
    const seen = doomed.map((t) => t.players.map(view));
    const draining = cluster.servers[0];
    const exit = draining.kill('SIGTERM');
    const drained = doomed.flatMap((t) => t.players);
    await Promise.all(drained.map((p) => p.waitLeft(15_000)));
    for (const p of drained) {
      expect(p.received('server_restart')).toHaveLength(1);
      expect(p.left).toBe(4100);
    }
    expect((await exit).code).toBe(0);
    // Nothing was moved by force: the drained games are unlisted, and come back where their players rejoin.
    for (const t of doomed) expect(cluster.redis.listing(t.code)).toBeNull();
    expect(cluster.redis.cli('HKEYS', 'djambi:hosts').split('\n')).not.toEqual(expect.arrayContaining([doomed[0].code]));
    await comeBack(cluster, draining, doomed, seen, 81);
    expect(safe.players.every((p) => p.left === null)).toBe(true);
    await leaveAll(safe.players);
  });
});
