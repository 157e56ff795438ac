/**
 * The SQLite adapter on a real file: the contract, plus what only a file shows (reopening keeps
 * everything, WAL and synchronous=NORMAL are set, migrations run once), and the journal's
 * synchronous path over it (saved and applied in the tick the intent is submitted in).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Match } from '../../server/src/match/match.js';
import { Journal } from '../../server/src/table/journal.js';
import { FaultyStore, Fenced, SqliteStore, StoreUnavailable } from '../../server/src/store/index.js';
import { storeContract } from './contract.js';
import { event, newCode, roomConfig } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'djambi-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let contractFiles = 0;
storeContract('sqlite', { open: async () => SqliteStore.open(join(dir, `contract-${++contractFiles}.sqlite`)), secondHost: false });
// Two stores on one file are two hosts: the primary key fences the stale one.
storeContract('sqlite, stores sharing one file', { open: async () => SqliteStore.open(join(dir, 'contract-shared.sqlite')), secondHost: true });
// Each store its own database.
storeContract('sqlite in memory', { open: async () => SqliteStore.open(':memory:'), secondHost: false });

describe('sqlite file', () => {
  test('reopening the file keeps games, events, summaries and the schema version', async () => {
    const file = join(dir, 'reopen.sqlite');
    const code = newCode();
    const a = SqliteStore.open(file);
    expect(a.version).toBe(2);
    await a.createGame(code, roomConfig('public'), 5);
    await a.appendMany(code, 1, [event(6, 'a'), event(7, 'b'), event(8, 'c')]);
    await a.finish(code, 9, { result: null, players: { R: 'Ann' }, moves: 2 });
    await a.close();

    const b = SqliteStore.open(file);
    expect(b.version).toBe(2);
    const game = await b.load(code);
    expect(game).toMatchObject({ code, status: 'finished', createdAt: 5, finishedAt: 9 });
    expect(game!.events.map((e) => e.at)).toEqual([6, 7, 8]);
    expect(await b.listGames([code])).toEqual([
      { code, status: 'finished', visibility: 'public', createdAt: 5, finishedAt: 9, summary: { result: null, players: { R: 'Ann' }, moves: 2 } },
    ]);
    await b.append(code, 4, event(10));
    await b.close();

    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }, { version: 2 }]);
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
    const fileBytes = () => statSync(file).size;
    const walBytes = () => statSync(`${file}-wal`).size;
    const appendMany = async (store: SqliteStore, code: string, from: number) => {
      // Well past the 1,000 pages at which a commit would run SQLite's own checkpoint.
      for (let seq = from; seq < from + 3000; seq++) await store.append(code, seq, event(seq, 'x'.repeat(1500)));
    };
    // The thread idle for an hour: whatever reaches the file was checkpointed by a commit.
    const store = SqliteStore.open(file, { checkpointEveryMs: 3_600_000 });
    const db = (store as unknown as { db: Database.Database }).db;
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const code = newCode();
    await store.createGame(code, roomConfig('public'), 1);
    const before = fileBytes();
    await appendMany(store, code, 1);
    expect(walBytes()).toBeGreaterThan(4096 * 1000);
    expect(fileBytes()).toBe(before); // no commit checkpointed
    await store.close();
    expect(existsSync(`${file}-wal`) ? walBytes() : 0).toBe(0);
    expect(fileBytes()).toBeGreaterThan(before + 4096 * 1000);

    // The thread checkpoints by itself.
    const reopened = SqliteStore.open(file, { checkpointEveryMs: 200 });
    const folded = fileBytes();
    await appendMany(reopened, code, 3001);
    const deadline = Date.now() + 10_000;
    while (fileBytes() === folded && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fileBytes()).toBeGreaterThan(folded);
    expect((await reopened.load(code))?.events).toHaveLength(6000);
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

  test('a database that refuses writes (read-only): the append is refused and keeps nothing', async () => {
    const store = SqliteStore.open(join(dir, 'readonly.sqlite'));
    const code = newCode();
    await store.createGame(code, roomConfig(), 1);
    const db = (store as unknown as { db: Database.Database }).db;
    db.pragma('query_only = ON');
    await expect(store.createGame(newCode(), roomConfig(), 1)).rejects.toBeInstanceOf(StoreUnavailable);
    const err = await store.appendMany(code, 1, [event(1), event(2)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailable);
    expect((err as StoreUnavailable).cause).toMatchObject({ code: 'SQLITE_READONLY' });
    expect((await store.load(code))!.events).toEqual([]);
    db.pragma('query_only = OFF');
    await store.appendMany(code, 1, [event(1), event(2)]);
    expect((await store.load(code))!.events.map((e) => e.at)).toEqual([1, 2]);
    await store.close();
  });

  test('a database that cannot be opened throws at open', () => {
    expect(() => SqliteStore.open(join(dir, 'no-such-dir', 'x.sqlite'))).toThrow();
  });
});

describe('other processes on the file', () => {
  /** Runs `script` in a child process with the store's module as argv[1] and `file` as argv[2]. */
  const child = (script: string, file: string) =>
    spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, join(__dirname, '../../server/src/store/sqlite.ts'), file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const line = (proc: ChildProcess) =>
    new Promise<string>((resolve, reject) => {
      let stderr = '';
      proc.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
      proc.stdout!.once('data', (b: Buffer) => resolve(b.toString().trim()));
      proc.once('exit', (code) => reject(new Error(`child exited ${code}: ${stderr}`)));
    });

  test('kill -9 of a writer: the next open has every event it had appended', async () => {
    const file = join(dir, 'killed.sqlite');
    const code = newCode();
    const proc = child(
      `const { SqliteStore } = await import(process.argv[1]);
       const store = SqliteStore.open(process.argv[2]);
       await store.createGame('${code}', ${JSON.stringify(roomConfig())}, 1);
       for (let seq = 1; seq <= 50; seq++) store.appendManySync('${code}', seq, [{ at: seq, intent: { type: 'chat', channel: 'all', text: 'm' + seq } }]);
       process.stdout.write('appended\\n');
       setInterval(() => undefined, 1000);`,
      file,
    );
    expect(await line(proc)).toBe('appended');
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
    const store = SqliteStore.open(file);
    expect((await store.load(code))!.events.map((e) => e.at)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await store.append(code, 51, event(51));
    await expect(store.append(code, 51, event(52))).rejects.toBeInstanceOf(Fenced);
    await store.close();
  });

  test('a second process writing the same game is fenced by the primary key, and so is this one once it is stale', async () => {
    const file = join(dir, 'two-writers.sqlite');
    const code = newCode();
    const store = SqliteStore.open(file);
    await store.createGame(code, roomConfig(), 1);
    await store.append(code, 1, event(1));
    // The other process appends seq 2, then tries seq 2 again.
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { SqliteStore } = await import(process.argv[1]);
        const store = SqliteStore.open(process.argv[2]);
        const append = (text) => store.append('${code}', 2, { at: 2, intent: { type: 'press', member: 'R', message: 'press_send', payload: { channel: 'table', text } } }).then(() => 'ok', (e) => e.name);
        process.stdout.write((await append('other')) + ' ' + (await append('again')));
        await store.close();`,
        join(__dirname, '../../server/src/store/sqlite.ts'),
        file,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(out).toBe('ok Fenced');
    const err = await store.append(code, 2, event(2, 'stale')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Fenced);
    expect((await store.load(code))!.events.map((e) => (e.intent as { payload: { text: string } }).payload.text)).toEqual(['hi', 'other']);
    await store.close();
  });
});

describe('the journal over SQLite', () => {
  test('an intent is in the log when submit resolves; a failed write changes nothing', async () => {
    const store = new FaultyStore(SqliteStore.open(join(dir, 'journal.sqlite')));
    const codes = { reserve: async () => 'JRNL01', release: async () => undefined, claim: async () => undefined };
    const journal = await Journal.create(new Match(roomConfig()), 1, codes, store, () => 1000);
    expect((await journal.submit({ type: 'take_seat', name: 'Red' })).ok).toBe(true);
    expect(journal.match.events).toHaveLength(1);
    expect((await store.inner.load(journal.code))!.events).toHaveLength(1);

    store.failAppends(1);
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined); // the journal logs the failure
    const refused = await journal.submit({ type: 'take_seat', name: 'Blue' });
    quiet.mockRestore();
    expect(journal.match.events).toHaveLength(1);
    expect(refused).toMatchObject({ ok: false, rejection: { code: 'storage_unavailable' } });
    expect([...journal.match.seats.seats.values()].filter((s) => s.keyHash !== null)).toHaveLength(1);
    expect((await store.inner.load(journal.code))!.events).toHaveLength(1);
    await journal.settled();
    await store.close();
  });
});
