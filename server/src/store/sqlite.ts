/**
 * The embedded store: one SQLite file through better-sqlite3 (synchronous; WAL journal,
 * `synchronous=NORMAL`: a committed event survives a process crash, and may be lost only on an
 * OS crash or power loss). Migrations run in an IMMEDIATE transaction.
 *
 * An append is one prepared INSERT per event, the events of one call in one transaction. It
 * inserts only after the game's previous seq, and the `events` primary key `(game_id, seq)`
 * refuses a seq that exists: a second writer on the file (a stale host) is `Fenced`.
 *
 * A failure to open or migrate the file throws `StoreOpenFailed`, which names the file, the step
 * (the migration and its statement) and, for rows that break a foreign key, their game and seq.
 */
import Database from 'better-sqlite3';
import { Checkpointer } from './checkpointer.js';
import type { MatchEvent } from '../match/match.js';
import type { RoomConfig } from '../match/config.js';
import {
  CREATE_SCHEMA_MIGRATIONS,
  type GameRow,
  LIST_CHUNK,
  listGamesSql,
  type Migration,
  MIGRATIONS,
  QUARANTINE_TABLE,
  type QuarantinedRow,
  SQL,
  statementSummary,
} from './migrations.js';
import { byNewest, checkSeq, gameInfo, quarantinedEvent, readLog } from './rows.js';
import {
  CodeTaken,
  Fenced,
  type GameInfo,
  type GameStore,
  type GameSummary,
  type Quarantined,
  type QuarantinedEvent,
  type StoredGame,
  StoreOpenFailed,
  StoreUnavailable,
} from './types.js';

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

/** Copies the events after a game's prefix to the quarantine (binds: reason, time, code, prefix length). */
const QUARANTINE_COPY = `INSERT INTO ${QUARANTINE_TABLE} (game_id, seq, payload, at, reason, quarantined_at)
  SELECT game_id, seq, payload, at, ?, ? FROM events WHERE game_id = ? AND NOT (seq BETWEEN 1 AND ?)`;
/** Deletes them from the log (binds: code, prefix length). */
const QUARANTINE_DELETE = 'DELETE FROM events WHERE game_id = ? AND NOT (seq BETWEEN 1 AND ?)';

/** Rows named when a step fails on foreign keys, at most. */
const NAMED_ROWS = 5;

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
  /** A game's events in seq order as `[seq, payload]` arrays (`SQL.events`, raw). */
  private readonly eventRows: Statement;
  /** Moves a game's events after its prefix to the quarantine in one transaction; returns how many. */
  private readonly moveOut: (code: string, fromSeq: number, reason: string, at: number) => number;
  /** Inserts a game's events from `firstSeq` on in one transaction; throws `Fenced` on a gap. */
  private readonly insertAll: (code: string, firstSeq: number, events: readonly MatchEvent[]) => void;
  private closed = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly checkpointer: Checkpointer | null,
    /** `SQLite database <file>` (error messages, the quarantine's whereabouts). */
    private readonly database: string,
  ) {
    this.stmt = Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<keyof typeof SQL, Statement>;
    this.eventRows = db.prepare(SQL.events).raw();
    const copy = db.prepare(QUARANTINE_COPY);
    const remove = db.prepare(QUARANTINE_DELETE);
    this.moveOut = db.transaction((code: string, fromSeq: number, reason: string, at: number) => {
      copy.run(reason, at, code, fromSeq - 1);
      return remove.run(code, fromSeq - 1).changes;
    });
    const insert = db.prepare(INSERT_EVENT);
    this.insertAll = db.transaction((code: string, firstSeq: number, events: readonly MatchEvent[]) => {
      for (let i = 0; i < events.length; i++) {
        const seq = firstSeq + i;
        const event = events[i]!;
        if (insert.run(code, seq, JSON.stringify(event), event.at, seq, code, seq - 1).changes === 0) throw new Fenced(code, seq);
      }
    });
  }

  /**
   * Opens (creating it if needed) and migrates the database file; throws `StoreOpenFailed`
   * (`migrations`: the schema's by default).
   */
  static open(file: string, options: { readonly checkpointEveryMs?: number; readonly migrations?: readonly Migration[] } = {}): SqliteStore {
    const database = `SQLite database ${file}`;
    let db: Database.Database;
    try {
      db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    } catch (err) {
      throw new StoreOpenFailed(database, 'opening the file', err);
    }
    let step = 'setting journal_mode = WAL';
    let checkpointer: Checkpointer | null = null;
    try {
      db.pragma('journal_mode = WAL');
      step = 'setting the connection pragmas';
      db.pragma('synchronous = NORMAL');
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('foreign_keys = ON');
      // Reads through a memory map and a 64 MB page cache: a boot restore loads every unfinished
      // game's log and appends to each, all over the file.
      db.pragma(`mmap_size = ${MMAP_BYTES}`);
      db.pragma(`cache_size = -${CACHE_KIB}`);
      migrate(db, options.migrations ?? MIGRATIONS, (s) => (step = s));
      // A file's checkpoints run in a thread of their own (see checkpointer.ts), not in a commit.
      step = 'starting the checkpoint thread';
      checkpointer = file === ':memory:' || file === '' ? null : Checkpointer.start(file, BUSY_TIMEOUT_MS, options.checkpointEveryMs);
      if (checkpointer) db.pragma('wal_autocheckpoint = 0');
      step = 'preparing the statements';
      return new SqliteStore(db, checkpointer, database);
    } catch (err) {
      const detail = sqliteCode(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY' ? foreignKeyViolations(db) : undefined;
      void checkpointer?.stop();
      db.close();
      throw new StoreOpenFailed(database, step, err, detail);
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
      const { events, broken } = readLog(this.eventRows.all(code) as [number, unknown][]);
      const info = gameInfo(row);
      return {
        code,
        config: JSON.parse(row.options!) as RoomConfig,
        status: info.status,
        createdAt: info.createdAt,
        finishedAt: info.finishedAt,
        events,
        broken,
        seated: row.status !== 'new',
      };
    });
  }

  async quarantine(code: string, fromSeq: number, reason: string): Promise<Quarantined> {
    checkSeq(fromSeq);
    return this.run('quarantine', () => ({ moved: this.moveOut(code, fromSeq, reason, Date.now()), where: `${QUARANTINE_TABLE} of ${this.database}` }));
  }

  async quarantined(code: string): Promise<QuarantinedEvent[]> {
    return this.run('quarantined', () => (this.stmt.quarantined.all(code) as QuarantinedRow[]).map(quarantinedEvent));
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

/** Applies the migrations not applied yet, in one IMMEDIATE transaction; `onStep` hears each statement before it runs. */
function migrate(db: Database.Database, migrations: readonly Migration[], onStep: (step: string) => void): void {
  onStep('reading the schema version');
  db.transaction(() => {
    db.exec(CREATE_SCHEMA_MIGRATIONS);
    const applied = new Set((db.prepare(SQL.appliedVersions).all() as { version: number }[]).map((r) => r.version));
    const record = db.prepare(SQL.recordVersion);
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      for (const [i, statement] of m.statements.entries()) {
        onStep(`migration ${m.version}, statement ${i + 1} of ${m.statements.length} (${statementSummary(statement)})`);
        db.exec(statement);
      }
      onStep(`migration ${m.version}, recording it`);
      record.run(m.version, Date.now());
    }
  }).immediate();
}

/**
 * The rows that break a foreign key, named by table, game and seq (a step failed on one; the
 * failed transaction is rolled back, so these are the rows the file held before it), or undefined.
 */
function foreignKeyViolations(db: Database.Database): string | undefined {
  try {
    const found = db.pragma('foreign_key_check') as { table: string; rowid: number | null; parent: string }[];
    if (found.length === 0) return undefined;
    const named = found.slice(0, NAMED_ROWS).map((v) => {
      let row: { game_id?: unknown; seq?: unknown } | undefined;
      try {
        row = v.rowid === null ? undefined : (db.prepare(`SELECT * FROM "${v.table.replace(/"/g, '""')}" WHERE rowid = ?`).get(v.rowid) as typeof row);
      } catch {
        row = undefined;
      }
      const what = row?.game_id !== undefined ? `game ${String(row.game_id)}${row.seq !== undefined ? ` seq ${String(row.seq)}` : ''}` : `rowid ${v.rowid}`;
      return `${v.table} row of ${what} (no such ${v.parent} row)`;
    });
    const more = found.length > NAMED_ROWS ? ` and ${found.length - NAMED_ROWS} more` : '';
    return `rows breaking a foreign key: ${named.join(', ')}${more}`;
  } catch {
    return undefined;
  }
}
