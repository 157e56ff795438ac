/**
 * The cluster behind the deployment's nginx config (deploy/nginx.conf on loopback, hostnames
 * swapped): every client speaks to nginx only; each process advertises `127.0.0.1:<nginx>/gameN`.
 * A game is created and played through nginx, its host is killed with -9, and the players reclaim
 * their seats through nginx (which sends them to the survivor) and finish the same game.
 * Skips locally without nginx, redis-server or PostgreSQL; fails under CI=true.
 */
import { quietSdkWarnings, seeded } from '../server/helpers.js';
import { freePort } from '../support/ports.js';
import { NGINX_BIN, requireBinary, type RunningNginx, startNginx } from '../support/nginx.js';
import { clusterAvailable, finish, leaveAll, playTurns, reclaim, seatTable, TestCluster, view } from './support.js';

const AVAILABLE = clusterAvailable('nginx.test.ts') && requireBinary(NGINX_BIN, 'nginx', 'nginx.test.ts');

jest.setTimeout(60_000);
beforeAll(() => quietSdkWarnings());

(AVAILABLE ? describe : describe.skip)('two processes behind nginx', () => {
  let cluster: TestCluster | undefined;
  let nginx: RunningNginx | undefined;
  afterEach(async () => {
    await nginx?.stop();
    await cluster?.stop();
  });

  test('a game played through nginx survives kill -9 of its process: reclaimed through nginx, same game, finished', async () => {
    const entry = await freePort();
    cluster = await TestCluster.start(2, { CLUSTER_SWEEP_MS: '1000' }, (i) => `127.0.0.1:${entry}/game${i + 1}`);
    nginx = await startNginx({ game1: cluster.servers[0].port, game2: cluster.servers[1].port }, entry);

    const table = await seatTable([entry]);
    await playTurns(table.players, table.players, seeded(91), 8);
    const seen = table.players.map(view);
    const host = cluster.hostOf(table.code);

    const t0 = performance.now();
    await host.kill('SIGKILL');
    const back = await reclaim([entry], table.code, table.keys);
    console.log(`behind nginx: seats reclaimed ${Math.round(performance.now() - t0)} ms after kill -9 of the host`);
    expect(back.map(view)).toEqual(seen);
    // The first WebSockets went through nginx to the dead host's /gameN path (logged once closed).
    expect(nginx.accessLog()).toContain(`GET /game${cluster.servers.indexOf(host) + 1}/`);
    expect(cluster.hostOf(table.code)).not.toBe(host);
    await playTurns(back, back, seeded(92), 4);
    await finish(back, back);
    const end = back.map(view);
    for (const v of end) expect(v).toEqual(end[0]);
    expect(back[0].state.phase).toBe('over');
    await leaveAll(back);
  });
});
