/**
 * The SQLite adapter on a real file: the contract, plus what only a file shows (reopening keeps
 * everything, WAL and synchronous=NORMAL are set, migrations run once).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore, StoreUnavailable } from '../../server/src/store/index.js';
import { storeContract } from './contract.js';
import { event, newCode, roomConfig } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'djambi-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('sqlite', { open: async () => SqliteStore.open(join(dir, 'contract.sqlite')) });

describe('sqlite file', () => {
  test('reopening the file keeps games, events, summaries and the schema version', async () => {
    const file = join(dir, 'reopen.sqlite');
    const code = newCode();
    const a = SqliteStore.open(file);
    expect(a.version).toBe(1);
    await a.createGame(code, roomConfig('public'), 5);
    await a.appendMany(code, 1, [event(6, 'a'), event(7, 'b'), event(8, 'c')]);
    await a.finish(code, 9, { result: null, players: { R: 'Ann' }, moves: 2 });
    await a.close();

    const b = SqliteStore.open(file);
    expect(b.version).toBe(1);
    const game = await b.load(code);
    expect(game).toMatchObject({ code, status: 'finished', createdAt: 5, finishedAt: 9 });
    expect(game!.events.map((e) => e.at)).toEqual([6, 7, 8]);
    expect(await b.listGames([code])).toEqual([
      { code, status: 'finished', visibility: 'public', createdAt: 5, finishedAt: 9, summary: { result: null, players: { R: 'Ann' }, moves: 2 } },
    ]);
    await b.append(code, 4, event(10));
    await b.close();

    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }]);
    expect(raw.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: 4 });
    raw.close();
  });

  test('WAL journal, synchronous=NORMAL, foreign keys on', () => {
    const store = SqliteStore.open(join(dir, 'pragmas.sqlite'));
    const db = (store as unknown as { db: Database.Database }).db;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    void store.close();
  });

  test('a write the database refuses (read-only) rejects with StoreUnavailable', async () => {
    const store = SqliteStore.open(join(dir, 'readonly.sqlite'));
    const code = newCode();
    await store.createGame(code, roomConfig(), 1);
    const db = (store as unknown as { db: Database.Database }).db;
    db.pragma('query_only = ON');
    const err = await store.append(code, 1, event(1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailable);
    expect((err as StoreUnavailable).cause).toMatchObject({ code: 'SQLITE_READONLY' });
    await expect(store.createGame(newCode(), roomConfig(), 1)).rejects.toBeInstanceOf(StoreUnavailable);
    expect((await store.load(code))!.events).toEqual([]);
    db.pragma('query_only = OFF');
    await store.append(code, 1, event(1));
    await store.close();
  });

  test('a database that cannot be opened throws at open', () => {
    expect(() => SqliteStore.open(join(dir, 'no-such-dir', 'x.sqlite'))).toThrow();
  });
});
