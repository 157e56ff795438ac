/**
 * The SQLite adapter on a real file: the contract, plus what only a file shows (reopening keeps
 * everything, WAL and synchronous=NORMAL are set, migrations run once), and the journal's
 * synchronous path over it (saved and applied in the tick the intent is submitted in).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalPresence } from '@colyseus/core';
import Database from 'better-sqlite3';
import { Match } from '../../server/src/match/match.js';
import { Journal } from '../../server/src/rooms/journal.js';
import { FaultyStore, Fenced, SqliteStore, StoreUnavailable } from '../../server/src/store/index.js';
import { MAPPED_BYTES } from '../../server/src/store/pending.js';
import { storeContract } from './contract.js';
import { event, newCode, roomConfig } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'djambi-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The lines of a pending file as a reader sees them: up to its first zero byte (a mapped file's tail). */
const pendingText = (file: string): string => {
  const bytes = readFileSync(`${file}.pending`);
  const end = bytes.indexOf(0);
  return bytes.toString('utf8', 0, end < 0 ? bytes.length : end);
};

let contractFiles = 0;
storeContract('sqlite', { open: async () => SqliteStore.open(join(dir, `contract-${++contractFiles}.sqlite`)), secondHost: false });
storeContract('sqlite, pending lines written (no memory map)', {
  open: async () => SqliteStore.open(join(dir, `contract-${++contractFiles}.sqlite`), { mapPending: false }),
  secondHost: false,
});
// Without a file there is no pending file: each append is its own commit, fenced the same way.
storeContract('sqlite in memory', { open: async () => SqliteStore.open(':memory:'), secondHost: false });

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
    const fileBytes = () => statSync(file).size;
    const walBytes = () => statSync(`${file}-wal`).size;
    const appendMany = async (store: SqliteStore, code: string, from: number) => {
      // Well past the 1,000 pages at which a commit would run SQLite's own checkpoint.
      for (let seq = from; seq < from + 3000; seq++) await store.append(code, seq, event(seq, 'x'.repeat(1500)));
      await store.load(code); // folds the pending events into SQLite
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

  test('a database that refuses writes (read-only): appends are refused from the first failed fold on, and none is lost', async () => {
    const store = SqliteStore.open(join(dir, 'readonly.sqlite'));
    const code = newCode();
    await store.createGame(code, roomConfig(), 1);
    const db = (store as unknown as { db: Database.Database }).db;
    db.pragma('query_only = ON');
    await expect(store.createGame(newCode(), roomConfig(), 1)).rejects.toBeInstanceOf(StoreUnavailable);
    // Written to the pending file; the fold (here: the read's) fails.
    await store.append(code, 1, event(1));
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const read = await store.load(code).catch((e: unknown) => e);
    quiet.mockRestore();
    expect(read).toBeInstanceOf(StoreUnavailable);
    expect((read as StoreUnavailable).cause).toMatchObject({ code: 'SQLITE_READONLY' });
    // From then on every append is refused (it tries the fold first).
    const err = await store.append(code, 2, event(2)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailable);
    expect((err as StoreUnavailable).cause).toMatchObject({ code: 'SQLITE_READONLY' });
    db.pragma('query_only = OFF');
    await store.append(code, 2, event(2));
    expect((await store.load(code))!.events.map((e) => e.at)).toEqual([1, 2]);
    await store.close();
  });

  test('a database that cannot be opened throws at open', () => {
    expect(() => SqliteStore.open(join(dir, 'no-such-dir', 'x.sqlite'))).toThrow();
  });
});

describe('one owner per file, and its pending events', () => {
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

  test('a second store on the file is refused while the first is open, in this process or another', async () => {
    const file = join(dir, 'owned.sqlite');
    const a = SqliteStore.open(file);
    expect(() => SqliteStore.open(file)).toThrow(StoreUnavailable);
    expect(() => SqliteStore.open(file)).toThrow(/already open in this process/);
    const other = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { SqliteStore } = await import(process.argv[1]);
        try { SqliteStore.open(process.argv[2]); process.stdout.write('opened'); } catch (e) { process.stdout.write(e.name + ': ' + e.message); }`,
        join(__dirname, '../../server/src/store/sqlite.ts'),
        file,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(other).toBe(
      `StoreUnavailable: ${file} is in use by process ${process.pid}: one server process per SQLite file (several processes share PostgreSQL: DATABASE_URL=postgres://…)`,
    );
    await a.close();
    expect(existsSync(`${file}.owner`)).toBe(false);
    expect(existsSync(`${file}.pending`)).toBe(false);
    const b = SqliteStore.open(file);
    await b.close();
  });

  /** Whether this machine built the memory-map addon (`npm ci` does, where a C compiler is). */
  const mapped = SqliteStore.open(join(dir, 'probe.sqlite'));
  const mappedMode = mapped.pendingMode;
  afterAll(() => mapped.close());
  const modes = mappedMode === 'mapped' ? (['mapped', 'write'] as const) : (['write'] as const);

  test('the pending file is mapped into memory where the addon is built (required under CI=true)', async () => {
    if (mappedMode !== 'mapped') {
      if (process.env.CI === 'true') throw new Error('the memory-map addon (server/native) is not built: npm ci builds it');
      console.warn('skipped: the memory-map addon (server/native) is not built; the store writes each pending line');
      return;
    }
    expect(mappedMode).toBe('mapped');
    const memory = SqliteStore.open(':memory:');
    expect(memory.pendingMode).toBeNull();
    await memory.close();
  });

  (mappedMode === 'mapped' ? test : test.skip)(
    'mapped: a fold leaves zeros (a crash during it reads as empty), and lines past the mapped bytes are written',
    async () => {
      const file = join(dir, 'zeros.sqlite');
      const code = newCode();
      const store = SqliteStore.open(file);
      await store.createGame(code, roomConfig(), 1);
      store.appendManySync(code, 1, [event(1), event(2)]);
      expect(pendingText(file).split('\n')).toHaveLength(3);
      expect(statSync(`${file}.pending`).size).toBe(MAPPED_BYTES); // reserved on disk at open
      await store.load(code); // folds
      expect(
        readFileSync(`${file}.pending`)
          .subarray(0, 4096)
          .every((b) => b === 0),
      ).toBe(true);
      // Three events of 1.5 MB: the third goes past the mapped 4 MB, with write().
      const big = 'x'.repeat(1.5 * 2 ** 20);
      for (let seq = 3; seq <= 5; seq++) store.appendManySync(code, seq, [event(seq, big)]);
      expect(statSync(`${file}.pending`).size).toBeGreaterThan(MAPPED_BYTES);
      expect(pendingText(file).split('\n')).toHaveLength(4);
      expect((await store.load(code))!.events.map((e) => e.at)).toEqual([1, 2, 3, 4, 5]);
      expect(statSync(`${file}.pending`).size).toBe(MAPPED_BYTES); // the fold cut the written tail
      await store.close();
      // A crash part way through a fold's zeros: zeros first, then lines already in SQLite.
      writeFileSync(`${file}.pending`, Buffer.concat([Buffer.alloc(10), Buffer.from(`["${code}",9,9,{"at":9,"intent":{"type":"leave"}}]\n`)]));
      const again = SqliteStore.open(file);
      expect((await again.load(code))!.events).toHaveLength(5);
      await again.close();
    },
  );

  describe.each(modes)('pending lines %s', (mode) => {
    const options = { mapPending: mode === 'mapped' };

    test('kill -9 of the owner: the next open takes the file over and folds in every event it had written', async () => {
      const file = join(dir, `killed-${mode}.sqlite`);
      const code = newCode();
      // Appends 50 events one by one (the last ones not folded yet), says so, and waits to be killed.
      const proc = child(
        `const { SqliteStore } = await import(process.argv[1]);
         const store = SqliteStore.open(process.argv[2], ${JSON.stringify(options)});
         await store.createGame('${code}', ${JSON.stringify(roomConfig())}, 1);
         for (let seq = 1; seq <= 50; seq++) store.appendManySync('${code}', seq, [{ at: seq, intent: { type: 'chat', channel: 'all', text: 'm' + seq } }]);
         process.stdout.write('appended\\n');
         setInterval(() => undefined, 1000);`,
        file,
      );
      expect(await line(proc)).toBe('appended');
      expect(pendingText(file).split('\n')).toHaveLength(51); // 50 lines, none folded yet
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
      expect(readFileSync(`${file}.owner`, 'utf8').trim()).toBe(`${proc.pid} ${hostname()}`); // left behind
      const store = SqliteStore.open(file, options);
      expect((await store.load(code))!.events.map((e) => e.at)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      await store.append(code, 51, event(51)); // the fence knows the log's end
      await expect(store.append(code, 51, event(52))).rejects.toBeInstanceOf(Fenced);
      await store.close();
    });

    test('appends that never yield are folded every 2,000 pending events, not left to pile up', async () => {
      const file = join(dir, `loop-${mode}.sqlite`);
      const store = SqliteStore.open(file, options);
      expect(store.pendingMode).toBe(mode);
      const code = newCode();
      await store.createGame(code, roomConfig(), 1);
      for (let seq = 1; seq <= 4500; seq++) store.appendManySync(code, seq, [event(seq)]);
      // No timer has run: what SQLite holds was folded by the appends themselves.
      const raw = new Database(file, { readonly: true });
      expect(raw.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: 4000 });
      raw.close();
      expect(pendingText(file).split('\n')).toHaveLength(501);
      expect((await store.load(code))!.events).toHaveLength(4500);
      await store.close();
    });

    test('a last line without its newline (a write that never returned) is dropped; a damaged line refuses the open', async () => {
      const file = join(dir, `torn-${mode}.sqlite`);
      const code = newCode();
      const a = SqliteStore.open(file, options);
      await a.createGame(code, roomConfig(), 1);
      await a.close();
      // As a crashed owner leaves them: two whole lines, then half of a third.
      writeFileSync(
        `${file}.pending`,
        `["${code}",1,5,{"at":5,"intent":{"type":"leave"}}]\n["${code}",2,6,{"at":6,"intent":{"type":"leave"}}]\n["${code}",3,7,{"at":7,"in`,
      );
      const b = SqliteStore.open(file, options);
      expect((await b.load(code))!.events.map((e) => e.at)).toEqual([5, 6]);
      await b.close();
      writeFileSync(`${file}.pending`, `not json\n`);
      expect(() => SqliteStore.open(file, options)).toThrow(/line 1 is not a pending event/);
      expect(existsSync(`${file}.owner`)).toBe(false); // a refused open releases the file
    });
  });

  test('an owner on another host (a second container on the volume) holds the file while it renews its claim; a stale claim is taken over', async () => {
    const file = join(dir, 'shared-volume.sqlite');
    // Pid 1 on both sides, as in two containers: only the host name and the claim's age tell them apart.
    writeFileSync(`${file}.owner`, '1 other-container\n');
    expect(() => SqliteStore.open(file)).toThrow(/is in use by process 1 on host other-container \(its claim was renewed 0 s ago\)/);
    const old = new Date(Date.now() - 31_000);
    utimesSync(`${file}.owner`, old, old);
    const store = SqliteStore.open(file, { ownerLease: { renewMs: 20, staleMs: 30_000 } });
    expect(readFileSync(`${file}.owner`, 'utf8').trim()).toBe(`${process.pid} ${hostname()}`);
    // The owner renews its claim: an old mtime is fresh again within a renewal.
    utimesSync(`${file}.owner`, old, old);
    const deadline = Date.now() + 5_000;
    while (Date.now() - statSync(`${file}.owner`).mtimeMs > 10_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(Date.now() - statSync(`${file}.owner`).mtimeMs).toBeLessThan(10_000);
    await store.close();
    expect(existsSync(`${file}.owner`)).toBe(false);
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
