/** Row ↔ value conversions shared by the store adapters. */
import type { RoomConfig } from '../match/config.js';
import type { LogBreak, MatchEvent } from '../match/match.js';
import type { GameRow, QuarantinedRow } from './migrations.js';
import type { GameInfo, GameStatus, GameSummary, QuarantinedEvent } from './types.js';

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

/** A `quarantined_events` row as a `QuarantinedEvent`. */
export function quarantinedEvent(row: QuarantinedRow): QuarantinedEvent {
  return { seq: row.seq, payload: String(row.payload), at: toMs(row.at), reason: row.reason, quarantinedAt: toMs(row.quarantined_at) };
}

/** A connection URL without its password (for logs and error messages). */
export function safeUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//…@');
}

/**
 * A game's stored rows (seq, payload), in seq order, read as its log: the events up to the first
 * gap in the seqs or the first payload that is not one JSON value, and that break (null when the
 * whole log reads). The payloads are parsed at once (one parse for the whole log is cheaper than
 * one per event at a boot restore), one by one only to find a bad one. The break's reason never
 * quotes a payload (a player's text must not reach the operator's log).
 */
export function readLog(rows: readonly (readonly [number, unknown])[]): { events: MatchEvent[]; broken: LogBreak | null } {
  let n = rows.length;
  let broken: LogBreak | null = null;
  for (let i = 0; i < rows.length; i++) {
    const seq = rows[i]![0];
    if (seq === i + 1) continue;
    n = i;
    broken = { seq: i + 1, reason: i === 0 ? `gap: the log starts at seq ${seq}` : `gap: no seq ${i + 1} (the log goes on at seq ${seq})` };
    break;
  }
  const payloads: string[] = [];
  for (let i = 0; i < n; i++) {
    const payload = rows[i]![1];
    if (typeof payload === 'string') payloads.push(payload);
    else {
      n = i;
      broken = { seq: i + 1, reason: 'payload is not text' };
      break;
    }
  }
  try {
    const all: unknown = JSON.parse(`[${payloads.join(',')}]`);
    // A payload holding two values (`1,2`) would shift every later event: counted, then read one by one.
    if (Array.isArray(all) && all.length === n) return { events: all as MatchEvent[], broken };
  } catch {
    // One of them is not JSON: found below.
  }
  const events: MatchEvent[] = [];
  for (let i = 0; i < n; i++) {
    try {
      events.push(JSON.parse(payloads[i]!) as MatchEvent);
    } catch {
      return { events, broken: { seq: i + 1, reason: 'payload is not JSON' } };
    }
  }
  return { events, broken };
}
