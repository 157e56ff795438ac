/**
 * The PostgreSQL adapter on the machine's server (`PG_TEST_URL`, default
 * postgres://postgres@127.0.0.1:5432/postgres): each run creates its own `djambi_test_<random>`
 * database and drops it. Without a reachable server the suite is skipped locally and fails under CI.
 */
import pg from 'pg';
import { PgStore, StoreUnavailable } from '../../server/src/store/index.js';
import { openStore, storeOptionsFromEnv } from '../../server/src/store/open.js';
import { storeContract } from './contract.js';
import { createTestDatabase, event, newCode, PG_ADMIN_URL, roomConfig, type TestDatabase, withPostgres } from './helpers.js';

withPostgres('PostgreSQL store tests', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  storeContract('postgres', { open: () => PgStore.open({ connectionString: db.url }), secondHost: true });

  describe('postgres migrations', () => {
    test('stores opened concurrently on an empty database all migrate (advisory lock)', async () => {
      const fresh = await createTestDatabase();
      try {
        const stores = await Promise.all(Array.from({ length: 4 }, () => PgStore.open({ connectionString: fresh.url, max: 2 })));
        for (const s of stores) expect(await s.version()).toBe(2);
        const check = new pg.Client({ connectionString: fresh.url });
        await check.connect();
        expect((await check.query('SELECT version FROM schema_migrations ORDER BY version')).rows).toEqual([{ version: 1 }, { version: 2 }]);
        await check.end();
        // They share the data.
        const code = newCode();
        await stores[0]!.createGame(code, roomConfig(), 1);
        await stores[1]!.append(code, 1, event(2));
        expect((await stores[2]!.load(code))!.events).toHaveLength(1);
        for (const s of stores) await s.close();
      } finally {
        await fresh.drop();
      }
    });

    test('DATABASE_POOL_MAX bounds the connections a store opens', async () => {
      const fresh = await createTestDatabase();
      try {
        const store = await openStore(storeOptionsFromEnv({ DATABASE_URL: fresh.url, DATABASE_POOL_MAX: '3' }));
        await Promise.all(Array.from({ length: 12 }, () => store.load(newCode())));
        const check = new pg.Client({ connectionString: fresh.url });
        await check.connect();
        const { rows } = await check.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'djambi'",
        );
        await check.end();
        expect(rows[0].n).toBeGreaterThan(0);
        expect(rows[0].n).toBeLessThanOrEqual(3);
        await store.close();
      } finally {
        await fresh.drop();
      }
    });

    test('BIGINT times come back as numbers', async () => {
      const store = await PgStore.open({ connectionString: db.url });
      const code = newCode();
      await store.createGame(code, roomConfig(), 1_800_000_000_123);
      await store.finish(code, 1_800_000_000_456, { result: null, players: {}, moves: 0 });
      const [info] = await store.listGames([code]);
      expect(info).toMatchObject({ createdAt: 1_800_000_000_123, finishedAt: 1_800_000_000_456 });
      expect(typeof info!.createdAt).toBe('number');
      await store.close();
    });

    test('a read-only database rejects writes with StoreUnavailable; after a reconnect the pool recovers', async () => {
      const fresh = await createTestDatabase();
      const name = new URL(fresh.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      const kick = () => admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      const errors: Error[] = [];
      const store = await PgStore.open({ connectionString: fresh.url, onPoolError: (e) => errors.push(e) });
      try {
        const code = newCode();
        await store.createGame(code, roomConfig(), 1);
        await store.append(code, 1, event(1));
        await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
        await kick();
        // A pooled connection killed while idle fails its next query (or is reported to onPoolError
        // and replaced); either way the append is StoreUnavailable, and a new connection is read-only.
        const first = await store.append(code, 2, event(2)).catch((e: unknown) => e);
        expect(first).toBeInstanceOf(StoreUnavailable);
        const second = (first as Error).message.includes('read-only') ? first : await store.append(code, 2, event(2)).catch((e: unknown) => e);
        expect(second).toBeInstanceOf(StoreUnavailable);
        expect((second as Error).message).toMatch(/read-only/);
        expect((await store.load(code))!.events).toHaveLength(1);
        await admin.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
        await kick();
        await store.load(code).catch(() => null); // lets a killed connection fail on a read
        await store.append(code, 2, event(2));
        expect((await store.load(code))!.events).toHaveLength(2);
      } finally {
        await store.close();
        await admin.end();
        await fresh.drop();
      }
    });

    test('an unreachable server rejects at open', async () => {
      await expect(PgStore.open({ connectionString: 'postgres://postgres@127.0.0.1:1/none' })).rejects.toThrow();
    });
  });
});
