/**
 * The schema, as versioned migrations, and the queries: the same SQL text runs on SQLite and on
 * PostgreSQL (`?` placeholders; the PostgreSQL adapter numbers them with `numbered`). BIGINT
 * columns hold epoch ms; JSON is kept as TEXT.
 */

/** One schema step: applied once, in version order, inside one transaction. */
export interface Migration {
  readonly version: number;
  readonly statements: readonly string[];
}

/** Every migration, oldest first. Append new ones; never edit an applied one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE games (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL DEFAULT 'open',
        visibility TEXT NOT NULL DEFAULT 'private',
        options TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        finished_at BIGINT,
        summary TEXT
      )`,
      `CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        payload TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, seq)
      )`,
      `CREATE INDEX games_unfinished ON games (created_at) WHERE status <> 'finished'`,
      `CREATE INDEX games_finished ON games (finished_at) WHERE status = 'finished'`,
    ],
  },
  {
    // Events moved out of a game's log after its longest valid prefix (`GameStore.quarantine`).
    // No key: a game's seq may be quarantined more than once (each time its log breaks there).
    version: 2,
    statements: [
      `CREATE TABLE quarantined_events (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        payload TEXT NOT NULL,
        at BIGINT NOT NULL,
        reason TEXT NOT NULL,
        quarantined_at BIGINT NOT NULL
      )`,
      'CREATE INDEX quarantined_events_game ON quarantined_events (game_id, seq)',
    ],
  },
];

/** The bookkeeping table, created before the migrations run. */
export const CREATE_SCHEMA_MIGRATIONS = 'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)';

/** The statements both adapters run, with `?` placeholders. */
export const SQL = {
  appliedVersions: 'SELECT version FROM schema_migrations ORDER BY version',
  recordVersion: 'INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)',
  createGame: 'INSERT INTO games (id, status, visibility, options, created_at) VALUES (?, ?, ?, ?, ?)',
  finish: "UPDATE games SET status = 'finished', finished_at = ?, summary = ? WHERE id = ?",
  game: 'SELECT id, status, visibility, options, created_at, finished_at, summary FROM games WHERE id = ?',
  events: 'SELECT seq, payload FROM events WHERE game_id = ? ORDER BY seq',
  quarantined: 'SELECT seq, payload, at, reason, quarantined_at FROM quarantined_events WHERE game_id = ? ORDER BY quarantined_at, seq',
  unfinished: "SELECT id FROM games WHERE status <> 'finished' ORDER BY created_at, id",
  unfinishedSince:
    "SELECT id FROM games g WHERE status <> 'finished' AND (created_at >= ? OR EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id AND e.at >= ?)) ORDER BY created_at, id",
  // A game nobody has sat at yet is 'new'; its first seat makes it 'open' (`markSeated`).
  markSeated: "UPDATE games SET status = 'open' WHERE id = ? AND status = 'new'",
  resumable: `SELECT id FROM games g WHERE status = 'open'
    ORDER BY COALESCE((SELECT e.at FROM events e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1), created_at) DESC, id LIMIT ?`,
  discardEvents: "DELETE FROM events WHERE game_id = ? AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'new')",
  discardGame: "DELETE FROM games WHERE id = ? AND status = 'new'",
  sweepEvents:
    "DELETE FROM events WHERE game_id IN (SELECT id FROM games g WHERE status = 'new' AND created_at < ? AND NOT EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id AND e.at >= ?))",
  sweepGames: "DELETE FROM games WHERE status = 'new' AND created_at < ? AND NOT EXISTS (SELECT 1 FROM events e WHERE e.game_id = games.id AND e.at >= ?)",
  recentFinished: "SELECT id, status, visibility, created_at, finished_at, summary FROM games WHERE status = 'finished' ORDER BY finished_at DESC, id LIMIT ?",
  recentFinishedPublic:
    "SELECT id, status, visibility, created_at, finished_at, summary FROM games WHERE status = 'finished' AND visibility = 'public' ORDER BY finished_at DESC, id LIMIT ?",
} as const;

/** The table `quarantine` moves events to (named in the operator's log line). */
export const QUARANTINE_TABLE = 'quarantined_events';

/** A `quarantined_events` row as both drivers return it. */
export interface QuarantinedRow {
  readonly seq: number;
  readonly payload: string;
  readonly at: number | string;
  readonly reason: string;
  readonly quarantined_at: number | string;
}

/** A statement cut to one line of at most `max` characters, for an error message. */
export function statementSummary(sql: string, max = 80): string {
  const line = sql.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** How many codes one `listGames` query binds (longer lists are split). */
export const LIST_CHUNK = 100;

/** The `listGames` query for `n` codes. */
export function listGamesSql(n: number): string {
  const marks = Array.from({ length: n }, () => '?').join(', ');
  return `SELECT id, status, visibility, created_at, finished_at, summary FROM games WHERE id IN (${marks})`;
}

/** Rewrites `?` placeholders as PostgreSQL's `$1, $2, …` (the SQL above has no `?` inside literals). */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** A `games` row as both drivers return it (PostgreSQL gives BIGINT as a string). */
export interface GameRow {
  readonly id: string;
  readonly status: string;
  readonly visibility: string;
  readonly options?: string;
  readonly created_at: number | string;
  readonly finished_at: number | string | null;
  readonly summary: string | null;
}
