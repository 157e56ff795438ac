/** Row ↔ value conversions shared by the SQL adapters. */
import type { RoomConfig } from '../match/config.js';
import type { GameRow } from './migrations.js';
import type { GameInfo, GameStatus, GameSummary } from './types.js';

/** A BIGINT column as a number (PostgreSQL returns a string). */
export function toMs(value: number | string | bigint): number {
  return typeof value === 'number' ? value : Number(value);
}

/** A `games` row as a `GameInfo`. */
export function gameInfo(row: GameRow): GameInfo {
  return {
    code: row.id,
    status: (row.status === 'finished' ? 'finished' : 'open') satisfies GameStatus,
    visibility: row.visibility as RoomConfig['visibility'],
    createdAt: toMs(row.created_at),
    finishedAt: row.finished_at === null ? null : toMs(row.finished_at),
    summary: row.summary === null ? null : (JSON.parse(row.summary) as GameSummary),
  };
}

/** Newest first, then by code (the order of `listGames`). */
export function byNewest(a: GameInfo, b: GameInfo): number {
  return b.createdAt - a.createdAt || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** Throws unless `seq` is a positive integer (a bug in the caller, not a store failure). */
export function checkSeq(seq: number): void {
  if (!Number.isSafeInteger(seq) || seq < 1) throw new RangeError(`seq must be a positive integer, got ${seq}`);
}
