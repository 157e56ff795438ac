/**
 * The SQLite adapter on a real file: the contract, plus what only a file shows (reopening keeps
 * everything, WAL and synchronous=NORMAL are set, migrations run once), and the journal's
 * synchronous path over it (saved and applied in the tick the intent is submitted in).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalPresence } from '@colyseus/core';
import Database from 'better-sqlite3';
import { Match } from '../../server/src/match/match.js';
import { Journal } from '../../server/src/rooms/journal.js';
import { FaultyStore, SqliteStore, StoreUnavailable } from '../../server/src/store/index.js';
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

  test('checkpoints run in their own thread, never inside a commit; close folds the log into the file', async () => {
    const file = join(dir, 'checkpoints.sqlite');
    const store = SqliteStore.open(file);
    const db = (store as unknown as { db: Database.Database }).db;
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const code = newCode();
    await store.createGame(code, roomConfig('public'), 1);
    const fileBytes = () => statSync(file).size;
    const walBytes = () => statSync(`${file}-wal`).size;
    const before = fileBytes();
    // Well past the 1,000 pages at which a commit would run SQLite's own checkpoint.
    for (let seq = 1; seq <= 3000; seq++) await store.append(code, seq, event(seq, 'x'.repeat(1500)));
    expect(walBytes()).toBeGreaterThan(4096 * 1000);
    expect(fileBytes()).toBe(before); // no commit checkpointed
    // The thread checkpoints within a second or so.
    const deadline = Date.now() + 10_000;
    while (fileBytes() === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(fileBytes()).toBeGreaterThan(before);
    await store.close();
    expect(existsSync(`${file}-wal`) ? walBytes() : 0).toBe(0);
    const reopened = SqliteStore.open(file);
    expect((await reopened.load(code))?.events).toHaveLength(3000);
    await reopened.close();
  });

  test('close settles in a process with nothing else pending (the checkpoint thread is waited for)', () => {
    const file = join(dir, 'alone.sqlite');
    // A process whose only pending work is the close: it must end with the store closed (exit code
    // 13 would mean the top-level await never settled), the log folded into the file.
    const script = `const { SqliteStore } = await import(process.argv[1]);
      const store = SqliteStore.open(process.argv[2]);
      await store.close();
      process.stdout.write('closed');`;
    const source = join(__dirname, '../../server/src/store/sqlite.ts');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, source, file], { encoding: 'utf8', timeout: 20_000 });
    expect(out).toBe('closed');
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
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

describe('the journal over SQLite', () => {
  test('an intent is judged, saved and applied before submit returns; a failed write changes nothing', async () => {
    const store = new FaultyStore(SqliteStore.open(join(dir, 'journal.sqlite')));
    const journal = await Journal.create(new Match(roomConfig()), 1, new LocalPresence(), store, () => 1000);
    expect(journal.synchronous).toBe(true);

    const taken = journal.submit({ type: 'take_seat', name: 'Red' });
    // No await yet: the seat is taken in the match and its event is in the file.
    expect(journal.match.events).toHaveLength(1);
    const logged = store.inner.load(journal.code); // read now (the SQLite adapter works synchronously)
    expect((await taken).ok).toBe(true);
    expect((await logged)!.events).toHaveLength(1);

    store.failAppends(1);
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined); // the journal logs the failure
    const refused = journal.submit({ type: 'take_seat', name: 'Blue' });
    quiet.mockRestore();
    expect(journal.match.events).toHaveLength(1);
    expect(await refused).toMatchObject({ ok: false, rejection: { code: 'storage_unavailable' } });
    expect([...journal.match.seats.seats.values()].filter((s) => s.keyHash !== null)).toHaveLength(1);
    expect((await store.inner.load(journal.code))!.events).toHaveLength(1);
    await journal.settled();
    await store.close();
  });
});
