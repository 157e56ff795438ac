/**
 * The embedded store: one SQLite file through better-sqlite3 (synchronous; WAL journal,
 * `synchronous=NORMAL`: a committed event survives a process crash, and may be lost only on an
 * OS crash or power loss). Migrations run in an IMMEDIATE transaction.
 *
 * A file has one owner process (`pending.ts`), so the store knows each game's last seq and
 * fences appends in memory. An append is one `write` of the event to the pending file beside the
 * database, before anybody sees the event (the same crash guarantee as a WAL commit with
 * `synchronous=NORMAL`, at a fifth of its cost); the pending events are folded into SQLite in
 * one transaction `FOLD_MS` later, before any read, and at close. While a fold fails (a full
 * disk, a read-only file) every append is refused with `StoreUnavailable`, and the events already
 * accepted stay in the pending file until a fold or the next open folds them in. An in-memory
 * database (`:memory:`) has no pending file: each append is its own commit, fenced the same way.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Checkpointer } from './checkpointer.js';
import { type OwnerLease, PendingFile, type PendingEvent, takeOwnership } from './pending.js';
import type { MatchEvent } from '../match/match.js';
import type { RoomConfig } from '../rooms/options.js';
import { CREATE_SCHEMA_MIGRATIONS, type GameRow, LIST_CHUNK, listGamesSql, MIGRATIONS, SQL } from './migrations.js';
import { byNewest, checkSeq, gameInfo } from './rows.js';
import {
  CodeTaken,
  Fenced,
  type Fold,
  type FoldReporting,
  type GameInfo,
  type GameStatus,
  type GameStore,
  type GameSummary,
  type StoredGame,
  StoreUnavailable,
} from './types.js';

/** Bytes of the file SQLite reads through a memory map. */
const MMAP_BYTES = 256 * 1024 * 1024;
/** The page cache of the connection, in KiB. */
const CACHE_KIB = 64 * 1024;

/** How long a statement waits for another connection's write lock before failing, in ms. */
const BUSY_TIMEOUT_MS = 5000;

/** Milliseconds from an append to the fold of the pending events into SQLite. */
export const FOLD_MS = 25;
/** Pending events at which an append folds them at once. */
const FOLD_AT = 2000;
/** Milliseconds between two tries of a fold that failed. */
const FOLD_RETRY_MS = 1000;
/** Games whose last seq is kept in memory; past this, the map is emptied after a fold. */
const KNOWN_GAMES = 50_000;

/** The statements only the SQLite adapter runs (the `events` table of the shared DDL). */
const LOCAL_SQL = {
  insert: 'INSERT INTO events (game_id, seq, payload, at) VALUES (?, ?, ?, ?)',
  /** At open: a crashed owner may have folded some of its pending events already. */
  recover: 'INSERT OR IGNORE INTO events (game_id, seq, payload, at) VALUES (?, ?, ?, ?)',
  lastSeq: 'SELECT (SELECT COUNT(*) FROM games WHERE id = ?) AS known, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?) AS last',
} as const;

type Statement = Database.Statement<unknown[]>;

/** The `SQLITE_…` code of a driver error (read by shape: `instanceof SqliteError` fails across module registries). */
function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** The SQLite `GameStore`. Open it with `SqliteStore.open(file)` (`:memory:` works too). */
export class SqliteStore implements GameStore, FoldReporting {
  private readonly stmt: Record<keyof typeof SQL, Statement>;
  private readonly lists = new Map<number, Statement>();
  /** A game's event payloads in order, as plain strings (`SQL.events` without the seq). */
  private readonly eventPayloads: Statement;
  private closed = false;
  /** Appended events not folded into SQLite yet, in order (a file store only). */
  private pending: PendingEvent[] = [];
  /** The last seq of games appended to or looked up (a file store only; see `lastSeqOf`). */
  private readonly lastSeqs = new Map<string, number>();
  private readonly lastSeq: Statement;
  private readonly foldAll: (events: readonly PendingEvent[]) => void;
  private foldTimer: NodeJS.Timeout | null = null;
  /** Why the last fold failed; null when it did not. */
  private foldError: unknown = null;
  private foldListener: ((fold: Fold) => void) | null = null;

  private constructor(
    private readonly db: Database.Database,
    private readonly checkpointer: Checkpointer | null,
    private readonly pendingFile: PendingFile | null,
    private readonly pendingPath: string | null,
    private readonly release: (() => void) | null,
  ) {
    this.stmt = Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<keyof typeof SQL, Statement>;
    this.eventPayloads = db.prepare('SELECT payload FROM events WHERE game_id = ? ORDER BY seq').pluck();
    this.lastSeq = db.prepare(LOCAL_SQL.lastSeq);
    this.foldAll = insertAll(db, LOCAL_SQL.insert);
  }

  /**
   * Opens (creating it if needed) and migrates the database file, folding in what a previous
   * owner left pending. Throws `StoreUnavailable` when another store owns the file.
   */
  static open(
    file: string,
    options: {
      readonly checkpointEveryMs?: number;
      readonly ownerLease?: OwnerLease;
      /** false: write each pending line with `write()` (no memory map). */
      readonly mapPending?: boolean;
    } = {},
  ): SqliteStore {
    const memory = file === ':memory:' || file === '';
    const release = memory ? null : takeOwnership(file, options.ownerLease);
    let db: Database.Database;
    try {
      db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    } catch (err) {
      release?.();
      throw err;
    }
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
      const pendingPath = memory ? null : `${file}.pending`;
      let pendingFile: PendingFile | null = null;
      if (pendingPath) {
        // Folded in before the file is emptied: a crash here leaves it to the next open.
        insertAll(db, LOCAL_SQL.recover)(PendingFile.read(pendingPath));
        pendingFile = PendingFile.create(pendingPath, options.mapPending ?? true);
      }
      // A file's checkpoints run in a thread of their own (see checkpointer.ts), not in a commit.
      const checkpointer = memory ? null : Checkpointer.start(file, BUSY_TIMEOUT_MS, options.checkpointEveryMs);
      if (checkpointer) db.pragma('wal_autocheckpoint = 0');
      return new SqliteStore(db, checkpointer, pendingFile, pendingPath, release);
    } catch (err) {
      db.close();
      release?.();
      throw err;
    }
  }

  /** How pending lines reach their file (`pending.ts`); null without a file (`:memory:`). */
  get pendingMode(): 'mapped' | 'write' | null {
    return this.pendingFile?.mode ?? null;
  }

  get pendingEvents(): number {
    return this.pending.length;
  }

  onFold(listener: (fold: Fold) => void): void {
    this.foldListener = listener;
  }

  /** The schema version of the open file. */
  get version(): number {
    const row = this.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
    return row.v ?? 0;
  }

  async createGame(code: string, config: RoomConfig, createdAt: number): Promise<void> {
    this.run('createGame', () => {
      try {
        this.stmt.createGame.run(code, 'open' satisfies GameStatus, config.visibility, JSON.stringify(config), createdAt);
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
      this.fold();
      const row = this.stmt.game.get(code) as GameRow | undefined;
      if (!row) return null;
      // One parse for the whole log (the payloads are JSON values): cheaper than one per event at boot restore.
      const payloads = this.eventPayloads.all(code) as string[];
      const events = JSON.parse(`[${payloads.join(',')}]`) as MatchEvent[];
      const info = gameInfo(row);
      return { code, config: JSON.parse(row.options!) as RoomConfig, status: info.status, createdAt: info.createdAt, finishedAt: info.finishedAt, events };
    });
  }

  async unfinished(options: { readonly activeSince?: number } = {}): Promise<string[]> {
    return this.run('unfinished', () => {
      this.fold();
      const since = options.activeSince;
      const rows = (since === undefined ? this.stmt.unfinished.all() : this.stmt.unfinishedSince.all(since, since)) as { id: string }[];
      return rows.map((r) => r.id);
    });
  }

  async listGames(codes: readonly string[]): Promise<GameInfo[]> {
    return this.run('listGames', () => {
      this.fold();
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
      this.fold();
      const stmt = options.publicOnly ? this.stmt.recentFinishedPublic : this.stmt.recentFinished;
      return (stmt.all(Math.max(0, Math.floor(options.limit))) as GameRow[]).map(gameInfo);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      this.fold();
    } catch (err) {
      console.error('[djambi store] close: pending events kept in their file for the next open:', err);
    }
    this.closed = true;
    if (this.foldTimer) clearTimeout(this.foldTimer); // a failed fold's retry
    if (this.pendingFile) {
      this.pendingFile.close();
      if (this.pending.length === 0) rmSync(this.pendingPath!, { force: true });
    }
    await this.checkpointer?.stop();
    try {
      if (this.checkpointer) this.db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.db.close();
      this.release?.();
    }
  }

  /**
   * An append, fenced against the game's last seq: written to the pending file and folded into
   * SQLite soon (refused while folds fail); an in-memory database, with no file, inserts at once.
   */
  private appendEvents(code: string, firstSeq: number, events: readonly MatchEvent[]): void {
    if (this.foldError !== null) this.fold();
    const last = this.lastSeqOf(code);
    if (firstSeq !== last + 1) throw new Fenced(code, firstSeq);
    const lines = events.map((event, i) => ({ code, seq: firstSeq + i, at: event.at, payload: JSON.stringify(event) }));
    if (this.pendingFile) this.pendingFile.write(lines);
    else this.foldAll(lines);
    this.lastSeqs.set(code, firstSeq + events.length - 1);
    if (!this.pendingFile) return this.forgetSeqsIfMany();
    for (const line of lines) this.pending.push(line);
    if (this.pending.length < FOLD_AT) return this.foldLater(FOLD_MS);
    // Appends in a loop that never yields (a restore's, say) must not pile up without bound.
    try {
      this.fold();
    } catch {
      // logged by `fold`; this append is in the pending file, and the next one waits for a fold
    }
  }

  /** A game's last seq, from memory or SQLite; `StoreUnavailable` for an unknown game. */
  private lastSeqOf(code: string): number {
    const known = this.lastSeqs.get(code);
    if (known !== undefined) return known;
    // Not in memory: none of its events is pending (a pending game stays in the map until folded).
    const row = this.lastSeq.get(code, code) as { known: number; last: number };
    if (row.known === 0) throw new StoreUnavailable(`append: unknown game ${code}`);
    this.lastSeqs.set(code, row.last);
    return row.last;
  }

  /** Folds the pending events into SQLite in one transaction; throws (and retries later) when it fails. */
  private fold(): void {
    if (this.foldTimer) {
      clearTimeout(this.foldTimer);
      this.foldTimer = null;
    }
    if (this.pending.length === 0) return;
    const started = performance.now();
    try {
      this.foldAll(this.pending);
    } catch (err) {
      if (this.foldError === null)
        console.error('[djambi store] pending events could not be folded into SQLite (kept in their file; appends refused until a fold works):', err);
      this.foldError = err;
      this.foldLater(FOLD_RETRY_MS);
      this.foldListener?.({ ms: performance.now() - started, events: this.pending.length, error: err });
      throw err;
    }
    this.foldListener?.({ ms: performance.now() - started, events: this.pending.length });
    this.pending = [];
    this.foldError = null;
    try {
      this.pendingFile!.clear();
    } catch (err) {
      // Its lines are in SQLite now; the next open skips them.
      console.error('[djambi store] could not empty the pending file:', err);
    }
    this.forgetSeqsIfMany();
  }

  /** Empties the map of last seqs once it is large; only when nothing is pending (SQLite has them all). */
  private forgetSeqsIfMany(): void {
    if (this.lastSeqs.size >= KNOWN_GAMES) this.lastSeqs.clear();
  }

  /** Folds within `ms` (unless a fold is due already). */
  private foldLater(ms: number): void {
    if (this.foldTimer || this.closed) return;
    this.foldTimer = setTimeout(() => {
      this.foldTimer = null;
      try {
        this.fold();
      } catch {
        // logged by `fold`, tried again
      }
    }, ms);
    this.foldTimer.unref();
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

/** One transaction inserting events with `sql` (`INSERT … VALUES (game_id, seq, payload, at)`). */
function insertAll(db: Database.Database, sql: string): (events: readonly PendingEvent[]) => void {
  const insert = db.prepare(sql);
  return db.transaction((events: readonly PendingEvent[]) => {
    for (const e of events) insert.run(e.code, e.seq, e.payload, e.at);
  });
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
