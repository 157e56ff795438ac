/**
 * The embedded store: one SQLite file through better-sqlite3 (synchronous; WAL journal,
 * `synchronous=NORMAL`: a committed event survives a process crash, and may be lost only on an
 * OS crash or power loss). Migrations run in an IMMEDIATE transaction.
 *
 * An append is one prepared INSERT per event, the events of one call in one transaction. It
 * inserts only after the game's previous seq, and the `events` primary key `(game_id, seq)`
 * refuses a seq that exists: a second writer on the file (a stale host) is `Fenced`.
 */
import Database from 'better-sqlite3';
import { Checkpointer } from './checkpointer.js';
import type { MatchEvent } from '../match/match.js';
import type { RoomConfig } from '../match/config.js';
import { CREATE_SCHEMA_MIGRATIONS, type GameRow, LIST_CHUNK, listGamesSql, MIGRATIONS, SQL } from './migrations.js';
import { byNewest, checkSeq, gameInfo } from './rows.js';
import { CodeTaken, Fenced, type GameInfo, type GameStore, type GameSummary, type StoredGame, StoreUnavailable } from './types.js';

/** Bytes of the file SQLite reads through a memory map. */
const MMAP_BYTES = 256 * 1024 * 1024;
/** The page cache of the connection, in KiB. */
const CACHE_KIB = 64 * 1024;

/** How long a statement waits for another connection's write lock before failing, in ms. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * One event, inserted only when it is the game's first or follows its previous seq (binds:
 * code, seq, payload, at, seq, code, seq - 1); zero rows means out of sequence.
 */
const INSERT_EVENT =
  'INSERT INTO events (game_id, seq, payload, at) SELECT ?, ?, ?, ? WHERE ? = 1 OR EXISTS (SELECT 1 FROM events WHERE game_id = ? AND seq = ?)';

type Statement = Database.Statement<unknown[]>;

/** The `SQLITE_…` code of a driver error (read by shape: `instanceof SqliteError` fails across module registries). */
function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** The SQLite `GameStore`. Open it with `SqliteStore.open(file)` (`:memory:` works too). */
export class SqliteStore implements GameStore {
  private readonly stmt: Record<keyof typeof SQL, Statement>;
  private readonly lists = new Map<number, Statement>();
  /** A game's event payloads in order, as plain strings (`SQL.events` without the seq). */
  private readonly eventPayloads: Statement;
  /** Inserts a game's events from `firstSeq` on in one transaction; throws `Fenced` on a gap. */
  private readonly insertAll: (code: string, firstSeq: number, events: readonly MatchEvent[]) => void;
  private closed = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly checkpointer: Checkpointer | null,
  ) {
    this.stmt = Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<keyof typeof SQL, Statement>;
    this.eventPayloads = db.prepare('SELECT payload FROM events WHERE game_id = ? ORDER BY seq').pluck();
    const insert = db.prepare(INSERT_EVENT);
    this.insertAll = db.transaction((code: string, firstSeq: number, events: readonly MatchEvent[]) => {
      for (let i = 0; i < events.length; i++) {
        const seq = firstSeq + i;
        const event = events[i]!;
        if (insert.run(code, seq, JSON.stringify(event), event.at, seq, code, seq - 1).changes === 0) throw new Fenced(code, seq);
      }
    });
  }

  /** Opens (creating it if needed) and migrates the database file. */
  static open(file: string, options: { readonly checkpointEveryMs?: number } = {}): SqliteStore {
    const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('foreign_keys = ON');
      // Reads through a memory map and a 64 MB page cache: a boot restore loads every unfinished
      // game's log and appends to each, all over the file.
      db.pragma(`mmap_size = ${MMAP_BYTES}`);
      db.pragma(`cache_size = -${CACHE_KIB}`);
      migrate(db);
      // A file's checkpoints run in a thread of their own (see checkpointer.ts), not in a commit.
      const checkpointer = file === ':memory:' || file === '' ? null : Checkpointer.start(file, BUSY_TIMEOUT_MS, options.checkpointEveryMs);
      if (checkpointer) db.pragma('wal_autocheckpoint = 0');
      return new SqliteStore(db, checkpointer);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** The schema version of the open file. */
  get version(): number {
    const row = this.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
    return row.v ?? 0;
  }

  async createGame(code: string, config: RoomConfig, createdAt: number): Promise<void> {
    this.run('createGame', () => {
      try {
        this.stmt.createGame.run(code, 'new', config.visibility, JSON.stringify(config), createdAt);
      } catch (err) {
        const c = sqliteCode(err);
        if (c === 'SQLITE_CONSTRAINT_PRIMARYKEY' || c === 'SQLITE_CONSTRAINT_UNIQUE') throw new CodeTaken(code);
        throw err;
      }
    });
  }

  async append(code: string, seq: number, event: MatchEvent): Promise<void> {
    checkSeq(seq);
    this.run('append', () => this.appendEvents(code, seq, [event]));
  }

  async appendMany(code: string, firstSeq: number, events: readonly MatchEvent[]): Promise<void> {
    this.appendManySync(code, firstSeq, events);
  }

  appendManySync(code: string, firstSeq: number, events: readonly MatchEvent[]): void {
    checkSeq(firstSeq);
    if (events.length === 0) return;
    this.run('appendMany', () => this.appendEvents(code, firstSeq, events));
  }

  async finish(code: string, finishedAt: number, summary: GameSummary): Promise<void> {
    this.finishSync(code, finishedAt, summary);
  }

  finishSync(code: string, finishedAt: number, summary: GameSummary): void {
    this.run('finish', () => {
      const res = this.stmt.finish.run(finishedAt, JSON.stringify(summary), code);
      if (res.changes === 0) throw new StoreUnavailable(`finish: unknown game ${code}`);
    });
  }

  async load(code: string): Promise<StoredGame | null> {
    return this.run('load', () => {
      const row = this.stmt.game.get(code) as GameRow | undefined;
      if (!row) return null;
      // One parse for the whole log (the payloads are JSON values): cheaper than one per event at boot restore.
      const payloads = this.eventPayloads.all(code) as string[];
      const events = JSON.parse(`[${payloads.join(',')}]`) as MatchEvent[];
      const info = gameInfo(row);
      const seated = row.status !== 'new';
      return { code, config: JSON.parse(row.options!) as RoomConfig, status: info.status, createdAt: info.createdAt, finishedAt: info.finishedAt, events, seated };
    });
  }

  async unfinished(options: { readonly activeSince?: number } = {}): Promise<string[]> {
    return this.run('unfinished', () => {
      const since = options.activeSince;
      const rows = (since === undefined ? this.stmt.unfinished.all() : this.stmt.unfinishedSince.all(since, since)) as { id: string }[];
      return rows.map((r) => r.id);
    });
  }

  async markSeated(code: string): Promise<void> {
    this.run('markSeated', () => this.stmt.markSeated.run(code));
  }

  async resumable(limit: number): Promise<string[]> {
    return this.run('resumable', () => (this.stmt.resumable.all(Math.max(0, Math.floor(limit))) as { id: string }[]).map((r) => r.id));
  }

  async discardUnseated(code: string): Promise<boolean> {
    return this.run('discardUnseated', () =>
      this.db.transaction(() => {
        this.stmt.discardEvents.run(code, code);
        return this.stmt.discardGame.run(code).changes > 0;
      })(),
    );
  }

  async sweepUnseated(before: number): Promise<number> {
    return this.run('sweepUnseated', () =>
      this.db.transaction(() => {
        this.stmt.sweepEvents.run(before, before);
        return this.stmt.sweepGames.run(before, before).changes;
      })(),
    );
  }

  async listGames(codes: readonly string[]): Promise<GameInfo[]> {
    return this.run('listGames', () => {
      const unique = [...new Set(codes)];
      const out: GameInfo[] = [];
      for (let i = 0; i < unique.length; i += LIST_CHUNK) {
        const chunk = unique.slice(i, i + LIST_CHUNK);
        let stmt = this.lists.get(chunk.length);
        if (!stmt) this.lists.set(chunk.length, (stmt = this.db.prepare(listGamesSql(chunk.length))));
        for (const row of stmt.all(...chunk) as GameRow[]) out.push(gameInfo(row));
      }
      return out.sort(byNewest);
    });
  }

  async recentFinished(options: { readonly limit: number; readonly publicOnly: boolean }): Promise<GameInfo[]> {
    return this.run('recentFinished', () => {
      const stmt = options.publicOnly ? this.stmt.recentFinishedPublic : this.stmt.recentFinished;
      return (stmt.all(Math.max(0, Math.floor(options.limit))) as GameRow[]).map(gameInfo);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.checkpointer?.stop();
    try {
      if (this.checkpointer) this.db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.db.close();
    }
  }

  /** Inserts the events in one transaction, or throws `Fenced` (nothing is kept). */
  private appendEvents(code: string, firstSeq: number, events: readonly MatchEvent[]): void {
    try {
      this.insertAll(code, firstSeq, events);
    } catch (err) {
      if (err instanceof Fenced) throw err;
      const c = sqliteCode(err);
      if (c === 'SQLITE_CONSTRAINT_PRIMARYKEY' || c === 'SQLITE_CONSTRAINT_UNIQUE') throw new Fenced(code, firstSeq);
      if (c === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new StoreUnavailable(`append: unknown game ${code}`, { cause: err });
      throw err;
    }
  }

  /** Runs `work` unless closed; typed store errors pass, anything else becomes `StoreUnavailable`. */
  private run<T>(what: string, work: () => T): T {
    if (this.closed) throw new StoreUnavailable(`${what}: the store is closed`);
    try {
      return work();
    } catch (err) {
      if (err instanceof CodeTaken || err instanceof Fenced || err instanceof StoreUnavailable) throw err;
      throw new StoreUnavailable(`${what}: ${(err as Error).message}`, { cause: err });
    }
  }
}

function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec(CREATE_SCHEMA_MIGRATIONS);
    const applied = new Set((db.prepare(SQL.appliedVersions).all() as { version: number }[]).map((r) => r.version));
    const record = db.prepare(SQL.recordVersion);
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      for (const statement of m.statements) db.exec(statement);
      record.run(m.version, Date.now());
    }
  }).immediate();
}
