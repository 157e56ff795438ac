/**
 * The PostgreSQL store: a `pg` Pool and the same SQL as SQLite, except the appends: every room's
 * appends of the process are queued and written as one statement per batch (group commit,
 * `pgAppends.ts`), a few batches in flight at once. Migrations run in one transaction
 * after `pg_advisory_xact_lock`, so replicas booting together migrate one after the other (without
 * it, two concurrent `CREATE … IF NOT EXISTS` crash one of them on `pg_class_relname_nsp_index`).
 * A failure to connect or migrate rejects with `StoreOpenFailed`, which names the database (its
 * URL without the password), the step (the migration and its statement) and the server's detail.
 */
import pg from 'pg';
import type { MatchEvent } from '../match/match.js';
import type { RoomConfig } from '../match/config.js';
import {
  CREATE_SCHEMA_MIGRATIONS,
  type GameRow,
  type Migration,
  MIGRATIONS,
  numbered,
  QUARANTINE_TABLE,
  type QuarantinedRow,
  SQL,
  statementSummary,
} from './migrations.js';
import { AppendQueue, type AppendStats, pgCode, UNIQUE_VIOLATION } from './pgAppends.js';
import { type Loaded, LoadQueue } from './pgLoads.js';
import { byNewest, checkSeq, gameInfo, quarantinedEvent, safeUrl } from './rows.js';
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

/** The advisory lock key of the migrations (any fixed 64-bit number; "djambi" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x646a616d6269;

/** Settings of the pool: connection string plus limits. */
export interface PgStoreOptions {
  readonly connectionString: string;
  /** Connections in the pool (default 10). */
  readonly max?: number;
  /**
   * Called with errors of idle connections (the server restarted or killed them); the pool drops
   * them and connects anew. A query already sent on such a connection rejects with
   * `StoreUnavailable` and is not retried: a retried insert that had committed would read as `Fenced`.
   */
  readonly onPoolError?: (err: Error) => void;
  /** Batches of appends written at once (group commit, `pgAppends.ts`; default 2). */
  readonly appendFlushes?: number;
  /** The schema's migrations by default. */
  readonly migrations?: readonly Migration[];
}

/**
 * Moves a game's events after its prefix to the quarantine in ONE statement (`$1` code, `$2`
 * prefix length, `$3` reason, `$4` time): the rows deleted are exactly the rows copied, whatever
 * is appended meanwhile (two statements would each see their own snapshot).
 */
const QUARANTINE_SQL = `WITH moved AS (
  DELETE FROM events WHERE game_id = $1 AND NOT (seq BETWEEN 1 AND $2) RETURNING game_id, seq, payload, at
)
INSERT INTO ${QUARANTINE_TABLE} (game_id, seq, payload, at, reason, quarantined_at)
SELECT game_id, seq, payload, at, $3::text, $4::bigint FROM moved`;

const Q = Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, numbered(sql)])) as Record<keyof typeof SQL, string>;

/** The PostgreSQL `GameStore`. Open it with `await PgStore.open({ connectionString })`. */
export class PgStore implements GameStore {
  private closed = false;
  private readonly appends: AppendQueue;
  private readonly loads: LoadQueue;
  private readonly rows: LoadQueue;

  private constructor(
    private readonly pool: pg.Pool,
    appendFlushes: number,
    /** `PostgreSQL database <url without password>` (the quarantine's whereabouts). */
    private readonly database: string,
  ) {
    this.appends = new AppendQueue(pool, appendFlushes);
    this.loads = new LoadQueue(pool, 'log');
    this.rows = new LoadQueue(pool, 'row');
  }

  /** Connects, migrates under the advisory lock, and returns the store; rejects with `StoreOpenFailed`. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const database = `PostgreSQL database ${safeUrl(options.connectionString)}`;
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      connectionTimeoutMillis: 5000,
      query_timeout: 15_000,
      application_name: 'djambi',
    });
    pool.on('error', (err) => options.onPoolError?.(err));
    let step = 'connecting';
    try {
      await migrate(pool, options.migrations ?? MIGRATIONS, (s) => (step = s));
      return new PgStore(pool, options.appendFlushes ?? 2, database);
    } catch (err) {
      await pool.end().catch(() => {});
      // The server's detail names a row that breaks a constraint ("Key (game_id)=(…) is not present…").
      const detail = (err as { detail?: unknown } | null)?.detail;
      throw new StoreOpenFailed(database, step, err, typeof detail === 'string' ? detail : undefined);
    }
  }

  /** The schema version of the database. */
  async version(): Promise<number> {
    const res = await this.query<{ v: number | null }>('version', 'SELECT MAX(version) AS v FROM schema_migrations', []);
    return res[0]?.v ?? 0;
  }

  async createGame(code: string, config: RoomConfig, createdAt: number): Promise<void> {
    this.checkOpen('createGame');
    try {
      await this.pool.query(Q.createGame, [code, 'new', config.visibility, JSON.stringify(config), createdAt]);
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw new CodeTaken(code);
      throw this.unavailable('createGame', err);
    }
  }

  append(code: string, seq: number, event: MatchEvent): Promise<void> {
    return this.appendMany(code, seq, [event]);
  }

  /**
   * Group commit: the call joins the process's queue of appends, written as one statement per
   * batch (`pgAppends.ts`), all or none per call, with the errors `GameStore` gives.
   */
  async appendMany(code: string, firstSeq: number, events: readonly MatchEvent[]): Promise<void> {
    checkSeq(firstSeq);
    this.checkOpen(events.length === 1 ? 'append' : 'appendMany');
    if (events.length === 0) return;
    return this.appends.append(code, firstSeq, events);
  }

  /** The append queue's counters (statements sent, calls answered, largest batch). */
  appendStats(): AppendStats {
    return this.appends.stats();
  }

  async finish(code: string, finishedAt: number, summary: GameSummary): Promise<void> {
    this.checkOpen('finish');
    let count: number | null;
    try {
      count = (await this.pool.query(Q.finish, [finishedAt, JSON.stringify(summary), code])).rowCount;
    } catch (err) {
      throw this.unavailable('finish', err);
    }
    if (count === 0) throw new StoreUnavailable(`finish: unknown game ${code}`);
  }

  /** Batched with the other loads of the moment (`pgLoads.ts`: a takeover re-opens hundreds of games at once). */
  async load(code: string): Promise<StoredGame | null> {
    this.checkOpen('load');
    let loaded: Loaded | null;
    try {
      loaded = await this.loads.load(code);
    } catch (err) {
      throw this.unavailable('load', err);
    }
    if (!loaded) return null;
    const info = gameInfo(loaded.row);
    const config = JSON.parse(loaded.row.options!) as RoomConfig;
    return {
      code,
      config,
      status: info.status,
      createdAt: info.createdAt,
      finishedAt: info.finishedAt,
      events: loaded.events,
      broken: loaded.broken,
      seated: loaded.row.status !== 'new',
    };
  }

  async quarantine(code: string, fromSeq: number, reason: string): Promise<Quarantined> {
    checkSeq(fromSeq);
    this.checkOpen('quarantine');
    let moved: number | null;
    try {
      moved = (await this.pool.query(QUARANTINE_SQL, [code, fromSeq - 1, reason, Date.now()])).rowCount;
    } catch (err) {
      throw this.unavailable('quarantine', err);
    }
    return { moved: moved ?? 0, where: `${QUARANTINE_TABLE} of ${this.database}` };
  }

  async quarantined(code: string): Promise<QuarantinedEvent[]> {
    return (await this.query<QuarantinedRow>('quarantined', Q.quarantined, [code])).map(quarantinedEvent);
  }

  /** The load queue's counters (batches sent, loads answered). */
  loadStats(): { readonly batches: number; readonly loads: number } {
    return this.loads.stats();
  }

  async unfinished(options: { readonly activeSince?: number } = {}): Promise<string[]> {
    const since = options.activeSince;
    const rows =
      since === undefined
        ? await this.query<{ id: string }>('unfinished', Q.unfinished, [])
        : await this.query<{ id: string }>('unfinished', Q.unfinishedSince, [since, since]);
    return rows.map((r) => r.id);
  }

  async markSeated(code: string): Promise<void> {
    await this.query('markSeated', Q.markSeated, [code]);
  }

  async resumable(limit: number): Promise<string[]> {
    return (await this.query<{ id: string }>('resumable', Q.resumable, [Math.max(0, Math.floor(limit))])).map((r) => r.id);
  }

  async discardUnseated(code: string): Promise<boolean> {
    return this.transaction('discardUnseated', async (client) => {
      await client.query(Q.discardEvents, [code, code]);
      return ((await client.query(Q.discardGame, [code])).rowCount ?? 0) > 0;
    });
  }

  async sweepUnseated(before: number): Promise<number> {
    return this.transaction('sweepUnseated', async (client) => {
      await client.query(Q.sweepEvents, [before, before]);
      return (await client.query(Q.sweepGames, [before, before])).rowCount ?? 0;
    });
  }

  /** Runs `work` in one transaction on a pooled connection; failures become `StoreUnavailable`. */
  private async transaction<T>(what: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    this.checkOpen(what);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw this.unavailable(what, err);
    }
    try {
      await client.query('BEGIN');
      const out = await work(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw this.unavailable(what, err);
    } finally {
      client.release();
    }
  }

  /** Batched with the other lists and loads of the moment (`pgLoads.ts`), like `load`. */
  async listGames(codes: readonly string[]): Promise<GameInfo[]> {
    this.checkOpen('listGames');
    const unique = [...new Set(codes)];
    try {
      const rows = await Promise.all(unique.map((code) => this.rows.load(code)));
      return rows
        .filter((g) => g !== null)
        .map((g) => gameInfo(g.row))
        .sort(byNewest);
    } catch (err) {
      throw this.unavailable('listGames', err);
    }
  }

  async recentFinished(options: { readonly limit: number; readonly publicOnly: boolean }): Promise<GameInfo[]> {
    const sql = options.publicOnly ? Q.recentFinishedPublic : Q.recentFinished;
    return (await this.query<GameRow>('recentFinished', sql, [Math.max(0, Math.floor(options.limit))])).map(gameInfo);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Calls made before close are written (or refused) first; later ones are refused above.
    await this.appends.drain();
    await this.pool.end();
  }

  private checkOpen(what: string): void {
    if (this.closed) throw new StoreUnavailable(`${what}: the store is closed`);
  }

  private async query<R extends pg.QueryResultRow>(what: string, sql: string, params: unknown[]): Promise<R[]> {
    this.checkOpen(what);
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (err) {
      throw this.unavailable(what, err);
    }
  }

  /** Typed store errors pass; anything else becomes `StoreUnavailable`. */
  private unavailable(what: string, err: unknown): Error {
    if (err instanceof CodeTaken || err instanceof Fenced || err instanceof StoreUnavailable) return err;
    if (this.closed) return new StoreUnavailable(`${what}: the store is closed`, { cause: err });
    return new StoreUnavailable(`${what}: ${(err as Error).message}`, { cause: err });
  }
}

/** Applies the migrations not applied yet, in one transaction under the advisory lock; `onStep` hears each step before it runs. */
async function migrate(pool: pg.Pool, migrations: readonly Migration[], onStep: (step: string) => void): Promise<void> {
  onStep('connecting');
  const client = await pool.connect();
  try {
    onStep('taking the migration lock');
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    onStep('reading the schema version');
    await client.query(CREATE_SCHEMA_MIGRATIONS);
    const applied = new Set((await client.query<{ version: number }>(SQL.appliedVersions)).rows.map((r) => r.version));
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      for (const [i, statement] of m.statements.entries()) {
        onStep(`migration ${m.version}, statement ${i + 1} of ${m.statements.length} (${statementSummary(statement)})`);
        await client.query(statement);
      }
      onStep(`migration ${m.version}, recording it`);
      await client.query(numbered(SQL.recordVersion), [m.version, Date.now()]);
    }
    onStep('committing the migrations');
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
