/**
 * Group commit and batched loads of the PostgreSQL store (server/src/store/pgAppends.ts,
 * pgLoads.ts) on the machine's server:
 * the appends of many games share one statement, each call keeps `appendMany`'s all-or-none
 * semantics and its errors, also when another host inserts the same seq at the same moment or
 * when the database fails mid-batch. Each test has a database of its own.
 */
import pg from 'pg';
import type { MatchEvent } from '../../server/src/match/match.js';
import { Fenced, PgStore, StoreUnavailable } from '../../server/src/store/index.js';
import { createTestDatabase, event, newCode, PG_ADMIN_URL, roomConfig, type TestDatabase, withPostgres } from './helpers.js';

const texts = (events: readonly MatchEvent[]) => events.map((e) => (e.intent as { payload: { text: string } }).payload.text);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

withPostgres('group commit tests', () => {
  describe('postgres group commit', () => {
    let db: TestDatabase;
    let store: PgStore;
    let raw: pg.Client;

    beforeEach(async () => {
      db = await createTestDatabase();
      store = await PgStore.open({ connectionString: db.url });
      raw = new pg.Client({ connectionString: db.url });
      await raw.connect();
    });
    afterEach(async () => {
      await raw?.end().catch(() => {});
      await store?.close().catch(() => {});
      await db?.drop();
    });

    async function games(n: number): Promise<string[]> {
      const codes = Array.from({ length: n }, () => newCode());
      for (const code of codes) await store.createGame(code, roomConfig(), 1);
      return codes;
    }

    /** Waits until a statement of the store waits for a lock (another transaction holds it). */
    async function storeWaitsForLock(): Promise<void> {
      for (let i = 0; i < 200; i++) {
        const { rows } = await raw.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'djambi' AND wait_event_type = 'Lock'",
        );
        if (rows[0].n > 0) return;
        await sleep(25);
      }
      throw new Error('the store never waited for the lock');
    }

    test('the appends of many games share a few statements; every call is written whole and in order', async () => {
      const codes = await games(200);
      const before = store.appendStats().statements;
      // One call per game in one tick (a single event or three), then a second round.
      await Promise.all(
        codes.map((code, i) => (i % 3 === 0 ? store.appendMany(code, 1, [event(1, 'a'), event(2, 'b'), event(3, 'c')]) : store.append(code, 1, event(1, 'a')))),
      );
      await Promise.all(codes.map((code, i) => store.append(code, i % 3 === 0 ? 4 : 2, event(9, 'z'))));
      const stats = store.appendStats();
      expect(stats.statements - before).toBeLessThanOrEqual(4);
      // The first round was judged (the games' first appends); the second went on from it: plain.
      expect(stats.plain).toBeGreaterThanOrEqual(1);
      expect(stats.largest).toBeGreaterThanOrEqual(100);
      for (const [i, code] of codes.entries()) expect(texts((await store.load(code))!.events)).toEqual(i % 3 === 0 ? ['a', 'b', 'c', 'z'] : ['a', 'z']);
    });

    test('appends arriving while a batch is in flight go together in the next one', async () => {
      const codes = await games(60);
      const before = store.appendStats().statements;
      const calls: Promise<void>[] = [];
      for (const code of codes) {
        calls.push(store.append(code, 1, event(1)));
        await new Promise((resolve) => setImmediate(resolve)); // each from a tick of its own, as rooms do
      }
      await Promise.all(calls);
      expect(store.appendStats().statements - before).toBeLessThan(60);
      expect((await raw.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(60);
    });

    test('two calls for one game in one tick: the second waits for the first and follows it', async () => {
      const [code] = await games(1);
      await Promise.all([store.append(code!, 1, event(1, 'first')), store.appendMany(code!, 2, [event(2, 'second'), event(3, 'third')])]);
      expect(texts((await store.load(code!))!.events)).toEqual(['first', 'second', 'third']);
    });

    test('in one batch, a group whose seq exists or does not follow is Fenced and nothing of it is kept; the others are written', async () => {
      const codes = await games(4);
      const [a, b, c, d] = codes as [string, string, string, string];
      for (const code of codes) await store.append(code, 1, event(1, 'kept'));
      const results = await Promise.allSettled([
        store.appendMany(a, 2, [event(2, 'ok'), event(3, 'ok')]),
        store.appendMany(b, 1, [event(2, 'dup'), event(3, 'dup')]), // seq 1 exists
        store.appendMany(c, 3, [event(2, 'gap')]), // seq 2 missing
        store.append(d, 2, event(2, 'ok')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(Fenced);
      expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(Fenced);
      expect(texts((await store.load(a))!.events)).toEqual(['kept', 'ok', 'ok']);
      expect(texts((await store.load(b))!.events)).toEqual(['kept']);
      expect(texts((await store.load(c))!.events)).toEqual(['kept']);
      expect(texts((await store.load(d))!.events)).toEqual(['kept', 'ok']);
    });

    test('an unknown game in a batch is StoreUnavailable; the others are written', async () => {
      const [a, b] = (await games(2)) as [string, string];
      const results = await Promise.allSettled([
        store.append(a, 1, event(1)),
        store.append('NOGAME', 1, event(1)),
        store.appendMany(b, 1, [event(1), event(2)]),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const err = (results[1] as PromiseRejectedResult).reason as Error;
      expect(err).toBeInstanceOf(StoreUnavailable);
      expect(err.message).toMatch(/unknown game NOGAME/);
      expect((await store.load(a))!.events).toHaveLength(1);
      expect((await store.load(b))!.events).toHaveLength(2);
    });

    test('another host inserting the same seq while the batch runs: that group is Fenced with nothing of it kept, the others are written', async () => {
      const codes = await games(5);
      const x = codes[0]!;
      for (const code of codes) await store.append(code, 1, event(1, 'kept'));
      // The other host has inserted seq 2 of x, not yet committed: the batch reads x's last seq
      // as 1, admits x's group and waits on the key; the other host commits; the batch fails on
      // the key and each group is written alone.
      await raw.query('BEGIN');
      await raw.query('INSERT INTO events (game_id, seq, payload, at) VALUES ($1, 2, $2, 2)', [x, JSON.stringify(event(2, 'other host'))]);
      const split = store.appendStats().split;
      const calls = codes.map((code) => store.appendMany(code, 2, [event(2, 'mine'), event(3, 'mine')]));
      await storeWaitsForLock();
      await raw.query('COMMIT');
      const results = await Promise.allSettled(calls);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
      expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(Fenced);
      expect(store.appendStats().split).toBe(split + 1);
      expect(texts((await store.load(x))!.events)).toEqual(['kept', 'other host']);
      for (const code of codes.slice(1)) expect(texts((await store.load(code))!.events)).toEqual(['kept', 'mine', 'mine']);
    });

    test('a game another host has appended to since this process last wrote it: the plain insert fails on the key, the group is judged and Fenced', async () => {
      const [x, y] = (await games(2)) as [string, string];
      for (const code of [x, y]) await store.append(code, 1, event(1, 'kept'));
      await raw.query('INSERT INTO events (game_id, seq, payload, at) VALUES ($1, 2, $2, 2)', [x, JSON.stringify(event(2, 'other host'))]);
      const plain = store.appendStats().plain;
      const results = await Promise.allSettled([store.appendMany(x, 2, [event(2, 'stale'), event(3, 'stale')]), store.append(y, 2, event(2, 'mine'))]);
      expect(store.appendStats().plain).toBe(plain + 1);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
      expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(Fenced);
      expect(texts((await store.load(x))!.events)).toEqual(['kept', 'other host']);
      expect(texts((await store.load(y))!.events)).toEqual(['kept', 'mine']);
      // Fenced, the game is judged again: an append that follows the log is written.
      await store.append(x, 3, event(3, 'after'));
      expect(texts((await store.load(x))!.events)).toEqual(['kept', 'other host', 'after']);
    });

    test('the same race when the other host rolls back: every group is written', async () => {
      const codes = await games(3);
      const x = codes[0]!;
      await raw.query('BEGIN');
      await raw.query('INSERT INTO events (game_id, seq, payload, at) VALUES ($1, 1, $2, 1)', [x, JSON.stringify(event(1, 'other host'))]);
      const calls = codes.map((code) => store.append(code, 1, event(1, 'mine')));
      await storeWaitsForLock();
      await raw.query('ROLLBACK');
      await Promise.all(calls);
      for (const code of codes) expect(texts((await store.load(code))!.events)).toEqual(['mine']);
    });

    test('two hosts appending the same seqs of many games at once: each seq is written by exactly one, whole groups only', async () => {
      const codes = await games(30);
      const other = await PgStore.open({ connectionString: db.url });
      try {
        for (let seq = 1; seq <= 9; seq += 3) {
          const mine = codes.map((code) => store.appendMany(code, seq, [event(seq, 'a'), event(seq + 1, 'a'), event(seq + 2, 'a')]));
          const theirs = codes.map((code) => other.appendMany(code, seq, [event(seq, 'b'), event(seq + 1, 'b'), event(seq + 2, 'b')]));
          const results = await Promise.allSettled([...mine, ...theirs]);
          for (let i = 0; i < codes.length; i++) {
            const pair = [results[i]!, results[codes.length + i]!];
            expect(pair.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
            expect((pair.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(Fenced);
          }
        }
        for (const code of codes) {
          const events = texts((await store.load(code))!.events);
          expect(events).toHaveLength(9);
          for (let i = 0; i < 9; i += 3) expect(new Set(events.slice(i, i + 3)).size).toBe(1);
        }
      } finally {
        await other.close();
      }
    });

    test('the database failing mid-batch: every call of the batch is StoreUnavailable, none is in the log, and the store recovers', async () => {
      const codes = await games(6);
      const name = new URL(db.url).pathname.slice(1);
      await raw.query('BEGIN');
      await raw.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
      const calls = codes.map((code) => store.appendMany(code, 1, [event(1), event(2)]).catch((e: unknown) => e));
      await storeWaitsForLock();
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      try {
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'djambi'", [name]);
      } finally {
        await admin.end();
      }
      const results = await Promise.all(calls);
      for (const r of results) expect(r).toBeInstanceOf(StoreUnavailable);
      await raw.query('ROLLBACK');
      expect((await raw.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(0);
      // The pool connects anew (an idle connection killed meanwhile may fail one more call).
      await store.append(codes[0]!, 1, event(1)).catch(() => store.append(codes[0]!, 1, event(1)));
      expect((await store.load(codes[0]!))!.events).toHaveLength(1);
    });

    test('loads of the moment share a pair of queries: each gets its game (or null), in order, with its own events', async () => {
      const codes = await games(120);
      await Promise.all(
        codes.map((code, i) =>
          store.appendMany(
            code,
            1,
            Array.from({ length: 1 + (i % 4) }, (_, k) => event(k, `${code}-${k}`)),
          ),
        ),
      );
      await store.finish(codes[0]!, 99, { result: null, players: {}, moves: 0 });
      const before = store.loadStats().batches;
      const asked = [...codes, 'NOGAME', codes[5]!];
      const loaded = await Promise.all(asked.map((code) => store.load(code)));
      expect(store.loadStats().batches - before).toBeLessThanOrEqual(2);
      for (const [i, code] of codes.entries()) {
        expect(loaded[i]!.code).toBe(code);
        expect(texts(loaded[i]!.events)).toEqual(Array.from({ length: 1 + (i % 4) }, (_, k) => `${code}-${k}`));
        expect(loaded[i]!.config).toEqual(roomConfig());
      }
      expect(loaded[0]!.status).toBe('finished');
      expect(loaded[1]!.status).toBe('open');
      expect(loaded[120]).toBeNull();
      // The same code twice: equal games, not the same array.
      expect(loaded[121]).toEqual(loaded[5]);
      expect(loaded[121]!.events).not.toBe(loaded[5]!.events);
    });

    test('a load after an append sees it; a load of a store whose database is gone is StoreUnavailable', async () => {
      const [code] = await games(1);
      const appended = store.append(code!, 1, event(1, 'x'));
      await appended;
      expect(texts((await store.load(code!))!.events)).toEqual(['x']);
      const name = new URL(db.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      try {
        await raw.end();
        await store.close();
        store = await PgStore.open({ connectionString: db.url });
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
        await expect(store.load(code!)).rejects.toBeInstanceOf(StoreUnavailable);
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
        expect(texts((await store.load(code!))!.events)).toEqual(['x']);
      } finally {
        await admin.end();
      }
    });

    test('close: calls made before it are written; calls after it are StoreUnavailable', async () => {
      const codes = await games(20);
      const calls = codes.map((code) => store.append(code, 1, event(1)));
      const closed = store.close();
      await expect(store.append(codes[0]!, 2, event(2))).rejects.toBeInstanceOf(StoreUnavailable);
      await Promise.all(calls);
      await closed;
      expect((await raw.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(20);
    });
  });
});
