/** The cluster settings from the environment: defaults, accepted values, and every refusal. */
import { clusterFromEnv, DEFAULT_CLUSTER, isPublicAddress, redisOptions } from '../../server/src/cluster/config.js';

describe('clusterFromEnv', () => {
  test('unset: this process alone, default sweep and lock', () => {
    expect(clusterFromEnv({})).toEqual(DEFAULT_CLUSTER);
    expect(clusterFromEnv({ REDIS_URL: ' ', PUBLIC_ADDRESS: '' })).toEqual(DEFAULT_CLUSTER);
  });

  test('Redis, a public address and the takeover timings', () => {
    expect(
      clusterFromEnv({ REDIS_URL: 'redis://127.0.0.1:6390', PUBLIC_ADDRESS: 'game.example.com/game1', CLUSTER_SWEEP_MS: '500', CLUSTER_LOCK_MS: '3000' }),
    ).toEqual({ redisUrl: 'redis://127.0.0.1:6390', publicAddress: 'game.example.com/game1', sweepMs: 500, lockMs: 3000 });
  });

  test.each(['127.0.0.1:2567', 'localhost:8080/2567', 'game.example.com', '[::1]:2567/a/b', 'a-b.cd'])('public address %s', (a) => {
    expect(isPublicAddress(a)).toBe(true);
  });

  test.each(['ws://127.0.0.1:2567', 'http://x', 'host:port', 'a b', 'host/', '127.0.0.1:2567?x=1'])('not a public address: %s', (a) => {
    expect(isPublicAddress(a)).toBe(false);
    expect(() => clusterFromEnv({ PUBLIC_ADDRESS: a })).toThrow(/PUBLIC_ADDRESS/);
  });

  test.each([
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    [{ REDIS_URL: 'redis://127.0.0.1:6379/x' }, /REDIS_URL: the database/],
    [{ CLUSTER_SWEEP_MS: '50' }, /CLUSTER_SWEEP_MS/],
    [{ CLUSTER_SWEEP_MS: '1s' }, /CLUSTER_SWEEP_MS/],
    [{ CLUSTER_LOCK_MS: '-1' }, /CLUSTER_LOCK_MS/],
  ])('refused: %j', (env, message) => {
    expect(() => clusterFromEnv(env)).toThrow(message);
  });
});

describe('redisOptions (ioredis, commands of one tick in one write)', () => {
  test('host, port and database; defaults', () => {
    expect(redisOptions('redis://127.0.0.1:6390/3')).toEqual({ host: '127.0.0.1', port: 6390, db: 3, enableAutoPipelining: true });
    expect(redisOptions('redis://redis')).toEqual({ host: 'redis', port: 6379, db: 0, enableAutoPipelining: true });
  });

  test('credentials, TLS, IPv6 and the address family', () => {
    expect(redisOptions('rediss://app:s%40cret@[::1]:7000/1?family=6')).toEqual({
      host: '::1',
      port: 7000,
      username: 'app',
      password: 's@cret',
      db: 1,
      family: 6,
      tls: {},
      enableAutoPipelining: true,
    });
    expect(redisOptions('redis://:pw@cache:6379')).toEqual({ host: 'cache', port: 6379, password: 'pw', db: 0, enableAutoPipelining: true });
  });
});
