/**
 * The game store: an append-only log of each game's accepted events plus one row per game. The
 * log is the source of truth and a room is a cache of it: `Match.restore(config, events)` rebuilds
 * a match from what `load` returns. A game's id is its 6-character room code.
 */
import type { ByColour, GameResult } from '@djambi/shared';
import type { LogBreak, MatchEvent } from '../match/match.js';
import type { RoomConfig } from '../match/config.js';

/**
 * A stored game's status: `open` (waiting or playing) until `finish` marks it `finished`. (Inside
 * the store, an open game nobody has sat at yet is kept as `new`, see `markSeated`; callers see `open`.)
 */
export type GameStatus = 'open' | 'finished';

/** What `finish` keeps of a game for the lists ("Your games", recent games). */
export interface GameSummary {
  readonly result: GameResult | null;
  /** Names of the players, by seat colour. */
  readonly players: Partial<ByColour<string>>;
  /** Turns played. */
  readonly moves: number;
}

/** A game's row, without its events. */
export interface GameInfo {
  readonly code: string;
  readonly status: GameStatus;
  readonly visibility: RoomConfig['visibility'];
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms; null while open. */
  readonly finishedAt: number | null;
  /** Null while open. */
  readonly summary: GameSummary | null;
}

/** A whole stored game: enough to restore its match. */
export interface StoredGame {
  readonly code: string;
  readonly config: RoomConfig;
  readonly status: GameStatus;
  readonly createdAt: number;
  readonly finishedAt: number | null;
  /**
   * The log, in order, up to `broken`: `events[i]` was appended with seq `i + 1`. Each is the
   * JSON value as stored: `Match.restoreValid` judges whether it is an event.
   */
  readonly events: MatchEvent[];
  /** Somebody has sat at this game (`markSeated`); false for a game only made, or played by bots alone. */
  readonly seated: boolean;
  /**
   * Where the stored log stops being readable, or null: a gap in its seqs (`seq` is the first
   * missing one), or a payload that is not JSON. `events` ends before it; what follows is still
   * stored until `quarantine` moves it.
   */
  readonly broken: LogBreak | null;
}

/** An event `quarantine` moved out of a game's log, as it was stored. */
export interface QuarantinedEvent {
  readonly seq: number;
  /** The stored payload, as text (it may not be JSON). */
  readonly payload: string;
  /** The event's time as stored, epoch ms. */
  readonly at: number;
  readonly reason: string;
  /** When it was moved, epoch ms. */
  readonly quarantinedAt: number;
}

/** What `quarantine` did: how many events it moved, and where an operator finds them. */
export interface Quarantined {
  readonly moved: number;
  /** The table and the database, e.g. `quarantined_events of SQLite database /data/djambi.sqlite`. */
  readonly where: string;
}

/**
 * The storage port. Every method is async (the SQLite adapter does its work synchronously
 * inside). Failures
 * reject (or throw) with a `StoreError`: `CodeTaken`, `Fenced` or `StoreUnavailable`.
 */
export interface GameStore {
  /** Records a new game; rejects with `CodeTaken` when the code exists (the cluster-wide uniqueness check). */
  createGame(code: string, config: RoomConfig, createdAt: number): Promise<void>;
  /**
   * Appends the event number `seq` (1-based, the next after the last appended) of a game. Rejects
   * with `Fenced` when that seq exists or is out of sequence (another host has the game), with
   * `StoreUnavailable` on any other failure (an unknown game gives one or the other). A seq that
   * is not a positive integer is a caller bug: `RangeError`.
   */
  append(code: string, seq: number, event: MatchEvent): Promise<void>;
  /** Appends `events` as seqs `firstSeq, firstSeq + 1, …` in one transaction: all or none, same errors as `append`. */
  appendMany(code: string, firstSeq: number, events: readonly MatchEvent[]): Promise<void>;
  /** Marks a game finished with its summary; rejects with `StoreUnavailable` for an unknown code. */
  finish(code: string, finishedAt: number, summary: GameSummary): Promise<void>;
  /** The game and its log (up to its first gap or unreadable payload: `broken`), or null when the code is unknown. */
  load(code: string): Promise<StoredGame | null>;
  /**
   * Moves every event of a game but seqs 1 to `fromSeq - 1` (its valid prefix) out of its log
   * into the quarantine (`quarantined_events`), with `reason`, in one transaction: the game's next
   * append is seq `fromSeq`. Resolves with how many moved (0 when none, or the game is unknown)
   * and where they are; rejects with `StoreUnavailable`. A `fromSeq` that is not a positive
   * integer is a caller bug: `RangeError`.
   */
  quarantine(code: string, fromSeq: number, reason: string): Promise<Quarantined>;
  /** The events `quarantine` moved out of a game's log, oldest quarantine first, then by seq. */
  quarantined(code: string): Promise<QuarantinedEvent[]>;
  /**
   * Codes of the open games, oldest first; with `activeSince` (epoch ms) only those created or
   * with an event at or after it (boot restore, periodic sweep).
   */
  unfinished(options?: { readonly activeSince?: number }): Promise<string[]>;
  /**
   * Marks that a person took a seat in the game (before its `take_seat` event is appended, so a
   * crash between the two keeps a game that may have a player). Idempotent; an unknown code is a no-op.
   */
  markSeated(code: string): Promise<void>;
  /** Up to `limit` open games somebody has sat at, newest activity (last event, else creation) first: the boot's working set. */
  resumable(limit: number): Promise<string[]>;
  /** Deletes the game and its log if nobody ever sat at it and it is not finished; true when deleted (a room nobody joined expired). */
  discardUnseated(code: string): Promise<boolean>;
  /**
   * Deletes every unfinished game nobody sat at, made before `before` (epoch ms) and with no
   * event since: what crashed processes left of rooms nobody joined. Returns how many.
   */
  sweepUnseated(before: number): Promise<number>;
  /** The rows of the given codes that exist, newest first ("Your games"). */
  listGames(codes: readonly string[]): Promise<GameInfo[]>;
  /** The most recently finished games, newest first; `publicOnly` keeps the public ones. */
  recentFinished(options: { readonly limit: number; readonly publicOnly: boolean }): Promise<GameInfo[]>;
  /** Releases the connection(s); every later call rejects with `StoreUnavailable`. Idempotent. */
  close(): Promise<void>;
}

/** What went wrong in a store: `code_taken`, `fenced` or `unavailable`. */
export type StoreErrorKind = 'code_taken' | 'fenced' | 'unavailable';

/** The base of the store's typed errors. */
export abstract class StoreError extends Error {
  abstract readonly kind: StoreErrorKind;
}

/** `createGame` with a code that exists. */
export class CodeTaken extends StoreError {
  readonly kind = 'code_taken';
  constructor(readonly code: string) {
    super(`game code ${code} is taken`);
    this.name = 'CodeTaken';
  }
}

/** An append whose seq exists or does not follow the log: another host holds the game; this one is stale. */
export class Fenced extends StoreError {
  readonly kind = 'fenced';
  constructor(
    readonly code: string,
    readonly seq: number,
  ) {
    super(`game ${code}: event ${seq} exists or is out of sequence (another host has the game)`);
    this.name = 'Fenced';
  }
}

/** Any other failure: the database is down, closed, read-only, or the game is unknown. */
export class StoreUnavailable extends StoreError {
  readonly kind = 'unavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailable';
  }
}

/**
 * Opening or migrating a database failed (at boot). The message names the database (a SQLite
 * file, or a PostgreSQL URL without its password), the step that failed (the migration and its
 * statement) and the driver's error, plus, when rows break a constraint, which rows (game, seq).
 */
export class StoreOpenFailed extends Error {
  constructor(
    /** `SQLite database /path/file.sqlite`, `PostgreSQL database postgres://…@host/db`. */
    readonly database: string,
    /** What was being done, e.g. `migration 2, statement 1 (CREATE TABLE quarantined_events …)`. */
    readonly step: string,
    cause: unknown,
    /** What else was found out (the rows that break a constraint). */
    readonly detail?: string,
  ) {
    super(`${database}: ${step} failed: ${messageOf(cause)}${detail ? `; ${detail}` : ''}`, { cause });
    this.name = 'StoreOpenFailed';
  }
}

/** An error's message, read by shape (a driver's error may come from another realm: `instanceof Error` fails). */
function messageOf(err: unknown): string {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(err);
}

/** Whether `err` is a store error of the given kind. */
export function isStoreError(err: unknown, kind?: StoreErrorKind): err is StoreError {
  return err instanceof StoreError && (kind === undefined || err.kind === kind);
}
