/**
 * The full sweep's read of the room listings (`listingOwners`): every listing of a game room, in
 * slices of `HSCAN`, against a real redis-server holding listings saved by Colyseus's own Redis
 * driver; other rooms' listings and anything that is not a listing are left out.
 */
import { RedisDriver } from '@colyseus/redis-driver';
import { ClusterPresence, listingOwners } from '../../server/src/cluster/cluster.js';
import { redisOptions } from '../../server/src/cluster/config.js';
import { ROOM_NAME } from '../../server/src/games/directory.js';
import { clusterAvailable, RedisProcess } from './support.js';

const AVAILABLE = clusterAvailable('listings.test.ts');

jest.setTimeout(30_000);

(AVAILABLE ? describe : describe.skip)('listingOwners', () => {
  let redis: RedisProcess;
  let presence: ClusterPresence;
  let driver: RedisDriver;
  beforeAll(async () => {
    redis = await RedisProcess.start();
    presence = new ClusterPresence(redisOptions(redis.url));
    driver = new RedisDriver(redisOptions(redis.url));
  });
  afterAll(async () => {
    await presence?.shutdown();
    await driver?.shutdown();
    // The presence's QUITs are not awaited by its shutdown: let them finish before Redis goes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await redis?.stop();
  });

  test('every game listing over several slices, with its process; no other room, nothing broken', async () => {
    // Listings as Colyseus saves them, with metadata the size of a real room's, over three processes.
    const expected = new Map<string, string>();
    const saves: Promise<unknown>[] = [];
    for (let i = 0; i < 700; i++) {
      const roomId = `G${String(i).padStart(5, '0')}`;
      const processId = `proc${i % 3}`;
      expected.set(roomId, processId);
      const listing = driver.createInstance({
        name: ROOM_NAME,
        roomId,
        processId,
        publicAddress: '127.0.0.1:2567/game1',
        clients: 5,
        maxClients: 16,
        // A player may be named like a field: it stays a string inside the JSON.
        metadata: { code: roomId, players: 4, seats: [{ colour: 'R', name: '","processId":"forged' }], phase: 'playing' },
      });
      saves.push(Promise.resolve(listing.save()));
    }
    const other = driver.createInstance({ name: 'lobby', roomId: 'L1', processId: 'proc9', clients: 0, maxClients: 8, metadata: {} });
    saves.push(Promise.resolve(other.save()));
    await Promise.all(saves);
    redis.cli('HSET', 'roomcaches', 'BROKEN', `{"name":"${ROOM_NAME}",`);
    redis.cli('HSET', 'roomcaches', 'ELSEWHERE', JSON.stringify({ name: ROOM_NAME, roomId: 'G00001', processId: 'proc7' }));

    // Listings this long make Redis keep the hash as a hashtable, which HSCAN reads COUNT (250) at a time: several slices.
    expect(redis.cli('OBJECT', 'ENCODING', 'roomcaches')).toBe('hashtable');
    const owners = await listingOwners(presence);
    expect(owners).toEqual(expected);
    // The same as Colyseus's own query of the listings (without the two entries that are not listings: the broken one would throw).
    redis.cli('HDEL', 'roomcaches', 'BROKEN', 'ELSEWHERE');
    const queried = await driver.query({ name: ROOM_NAME });
    expect(new Map(queried.map((l) => [l.roomId, l.processId]))).toEqual(expected);
  });

  test('no listings: an empty map', async () => {
    redis.cli('DEL', 'roomcaches');
    expect((await listingOwners(presence)).size).toBe(0);
  });
});
