/**
 * Boot errors an operator can act on (issue 43, item 5): when the store cannot be opened or
 * migrated, the error names the database (the SQLite file, the PostgreSQL URL without its
 * password), the step that failed (the migration and its statement) and, for rows that break a
 * foreign key, which rows (game, seq), instead of a bare driver message such as `FOREIGN KEY
 * constraint failed`. A leftover file in the data directory (an owner or pid file of an older
 * version) does not stop the boot.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../../server/src/obs/heap.js';
import { CREATE_SCHEMA_MIGRATIONS, MIGRATIONS, type Migration } from '../../server/src/store/migrations.js';
import { openStore } from '../../server/src/store/open.js';
import { PgStore, SqliteStore, StoreOpenFailed } from '../../server/src/store/index.js';
import { createTestDatabase, event, newCode, roomConfig, withPostgres } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'djambi-boot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `open` threw. */
function thrown(open: () => unknown): Error {
  try {
    open();
  } catch (e) {
    return e as Error;
  }
  throw new Error('open did not throw');
}

/** What `open` rejected with. */
async function rejected(open: Promise<{ close(): Promise<void> }>): Promise<Error> {
  const store = await open.catch((e: unknown) => e as Error);
  if (store instanceof Error) return store;
  await store.close();
  throw new Error('open did not reject');
}

/** A future migration that rebuilds `events` with its foreign key (the usual SQLite way to change a table). */
const REBUILD_EVENTS: Migration = {
  version: 3,
  statements: [
    `CREATE TABLE events_rebuilt (
      game_id TEXT NOT NULL REFERENCES games (id),
      seq INTEGER NOT NULL,
      payload TEXT NOT NULL,
      at BIGINT NOT NULL,
      PRIMARY KEY (game_id, seq)
    )`,
    'INSERT INTO events_rebuilt SELECT game_id, seq, payload, at FROM events',
  ],
};

describe('SQLite', () => {
  test('a file that is not a database: the error names the file and the step', () => {
    const file = join(dir, 'garbage.sqlite');
    writeFileSync(file, 'this is not a database\n'.repeat(400));
    const err = thrown(() => SqliteStore.open(file));
    expect(err).toBeInstanceOf(StoreOpenFailed);
    expect(err.message).toBe(`SQLite database ${file}: setting journal_mode = WAL failed: file is not a database`);
  });

  test('a migration that fails names the file, the migration and its statement; the file is left as it was', () => {
    const file = join(dir, 'hand-made-table.sqlite');
    // A file of schema version 1 (before the quarantine), with a table of that name made by hand.
    const raw = new Database(file);
    raw.exec(CREATE_SCHEMA_MIGRATIONS);
    for (const statement of MIGRATIONS[0]!.statements) raw.exec(statement);
    raw.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (1, 1)').run();
    raw.exec('CREATE TABLE quarantined_events (note TEXT)');
    raw.close();
    const err = thrown(() => SqliteStore.open(file));
    expect(err).toBeInstanceOf(StoreOpenFailed);
    expect(err.message).toBe(
      `SQLite database ${file}: migration 2, statement 1 of 2 (CREATE TABLE quarantined_events ( game_id TEXT NOT NULL, seq INTEGER NOT NULL, …) failed: table quarantined_events already exists`,
    );
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }]);
    check.close();
  });

  test('rows that break a foreign key during a migration are named by game and seq (not a bare FOREIGN KEY constraint failed)', async () => {
    const file = join(dir, 'orphans.sqlite');
    const store = SqliteStore.open(file);
    const code = newCode();
    await store.createGame(code, roomConfig(), 1);
    await store.appendMany(code, 1, [event(1), event(2)]);
    await store.close();
    // Events of a game whose row is gone (a partial copy, a hand edit), written without the keys.
    const raw = new Database(file);
    raw.pragma('foreign_keys = OFF');
    const insert = raw.prepare('INSERT INTO events (game_id, seq, payload, at) VALUES (?, ?, ?, ?)');
    insert.run('GHOST1', 7, JSON.stringify(event(7)), 7);
    insert.run('GHOST1', 8, JSON.stringify(event(8)), 8);
    raw.close();
    const err = thrown(() => SqliteStore.open(file, { migrations: [...MIGRATIONS, REBUILD_EVENTS] }));
    expect(err).toBeInstanceOf(StoreOpenFailed);
    expect(err.message).toBe(
      `SQLite database ${file}: migration 3, statement 2 of 2 (INSERT INTO events_rebuilt SELECT game_id, seq, payload, at FROM events) failed: FOREIGN KEY constraint failed; ` +
        'rows breaking a foreign key: events row of game GHOST1 seq 7 (no such games row), events row of game GHOST1 seq 8 (no such games row)',
    );
    // Without the migration the file opens, and its games are intact.
    const again = SqliteStore.open(file);
    expect((await again.load(code))!.events).toHaveLength(2);
    await again.close();
  });

  test('a leftover owner, pid or pending file in the data directory does not stop the boot', async () => {
    const data = join(dir, 'leftovers');
    const first = await openStore({ dataDir: data });
    const code = newCode();
    await first.createGame(code, roomConfig(), 1);
    await first.append(code, 1, event(1));
    await first.close();
    // What older versions left next to the file; pid 1 is alive (and reused), never this server.
    writeFileSync(join(data, 'djambi.sqlite.owner'), JSON.stringify({ pid: 1, host: 'old-host', startedAt: 1 }));
    writeFileSync(join(data, 'djambi.pid'), '1\n');
    writeFileSync(join(data, 'djambi.sqlite.pending'), '{"game":"X","seq":11,"payload":');
    const store = await openStore({ dataDir: data });
    expect((await store.load(code))!.events).toHaveLength(1);
    await store.append(code, 2, event(2));
    await store.close();
  });

  test('the server process names the file and the step when it cannot open its store, and exits 1', () => {
    const entry = join(__dirname, '../../server/dist/index.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm test does)`);
    const data = join(dir, 'server-data');
    rmSync(data, { recursive: true, force: true });
    mkdirSync(data);
    const file = join(data, 'djambi.sqlite');
    writeFileSync(file, 'this is not a database\n'.repeat(400));
    const { DATABASE_URL: _db, REDIS_URL: _redis, ...env } = process.env;
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, entry], {
      env: { ...env, DATA_DIR: data, HOST: '127.0.0.1', PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`SQLite database ${file}: setting journal_mode = WAL failed: file is not a database`);
  });
});

withPostgres('PostgreSQL boot error tests', () => {
  describe('PostgreSQL', () => {
    test('an unreachable server: the error names the database, without its password', async () => {
      const err = await rejected(PgStore.open({ connectionString: 'postgres://djambi:s3cret@127.0.0.1:1/nodb' }));
      expect(err).toBeInstanceOf(StoreOpenFailed);
      expect(err.message).toMatch(/^PostgreSQL database postgres:\/\/…@127\.0\.0\.1:1\/nodb: connecting failed: /);
      expect(err.message).not.toContain('s3cret');
    });

    test('a migration that fails names the database, the migration and its statement; the schema is left as it was', async () => {
      const db = await createTestDatabase();
      try {
        await (await PgStore.open({ connectionString: db.url, migrations: MIGRATIONS.slice(0, 1) })).close();
        const raw = new pg.Client({ connectionString: db.url });
        await raw.connect();
        try {
          await raw.query('CREATE TABLE quarantined_events (note TEXT)');
          const err = await rejected(PgStore.open({ connectionString: db.url }));
          expect(err).toBeInstanceOf(StoreOpenFailed);
          expect(err.message).toBe(
            `PostgreSQL database ${db.url.replace(/\/\/[^@/]*@/, '//…@')}: migration 2, statement 1 of 2 (CREATE TABLE quarantined_events ( game_id TEXT NOT NULL, seq INTEGER NOT NULL, …) failed: relation "quarantined_events" already exists`,
          );
          expect((await raw.query('SELECT version FROM schema_migrations')).rows).toEqual([{ version: 1 }]);
        } finally {
          await raw.end();
        }
      } finally {
        await db.drop();
      }
    });

    test('a row that breaks a foreign key during a migration is named by the server detail', async () => {
      const db = await createTestDatabase();
      try {
        await (await PgStore.open({ connectionString: db.url })).close();
        const raw = new pg.Client({ connectionString: db.url });
        await raw.connect();
        await raw.query('SET session_replication_role = replica'); // no foreign key checks: an orphan row
        await raw.query("INSERT INTO events (game_id, seq, payload, at) VALUES ('GHOST1', 7, '{}', 7)");
        await raw.end();
        const err = await rejected(PgStore.open({ connectionString: db.url, migrations: [...MIGRATIONS, REBUILD_EVENTS] }));
        expect(err).toBeInstanceOf(StoreOpenFailed);
        expect(err.message).toContain('migration 3, statement 2 of 2 (INSERT INTO events_rebuilt SELECT game_id, seq, payload, at FROM events) failed: ');
        expect(err.message).toContain('Key (game_id)=(GHOST1) is not present in table "games"');
      } finally {
        await db.drop();
      }
    });
  });
});
