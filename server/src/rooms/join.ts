/** Joins: the client's address, join errors, and what kind of join a set of options asks for. */
import type { AuthContext } from '@colyseus/core';
import { ServerError } from '@colyseus/core';
import { normaliseAddress, rateKey } from '../http/address.js';
import { JOIN_ERROR_STATUS, type JoinErrorCode } from '../errors.js';
import type { Match } from '../match/match.js';
import type { Request } from './admission.js';
import type { JoinOptions } from './validate.js';

/** What the matchmaker's `onAuth` hands to the reservation and the join. */
export interface AuthData {
  readonly join: JoinOptions;
  /** The client's address (the socket's, or the trusted proxy's forwarded one). */
  readonly address: string;
}

/** A join error as the SDK sees it: a numeric code and `code: message`. */
export function joinError(code: JoinErrorCode, message: string): ServerError {
  return new ServerError(JOIN_ERROR_STATUS[code], `${code}: ${message}`);
}

/** The kind of a join, or why it cannot be admitted at all. */
export function joinKind(match: Match, join: JoinOptions): Request | { code: JoinErrorCode; message: string } {
  if (join.spectate) return { kind: 'spectate' };
  if (join.seatKey !== undefined) {
    const seat = match.seats.byKey(join.seatKey);
    return seat ? { kind: 'reclaim', seat: seat.colour } : { code: 'bad_seat_key', message: 'no seat has this key' };
  }
  if (match.phase !== 'waiting') {
    return { code: 'game_started', message: 'the game has started; join with { spectate: true } to watch or { seatKey } to return' };
  }
  if (match.seats.allTaken()) return { code: 'no_free_seat', message: 'every seat is taken; join with { spectate: true } to watch' };
  return { kind: 'take' };
}

/**
 * The address a join came from. Colyseus reads `x-real-ip`/`x-forwarded-for` first; the HTTP
 * guard sets `x-real-ip` to the resolved address on every request (see `http/address.ts`).
 * IPv6 clients are grouped by /64, as the HTTP limits do.
 */
export function clientAddress(context: AuthContext): string {
  const raw = context.ip ?? context.req?.socket?.remoteAddress ?? '';
  const first = (Array.isArray(raw) ? raw[0] : String(raw)).split(',')[0]?.trim() ?? '';
  const address = normaliseAddress(first.slice(0, 64));
  return address ? rateKey(address) : 'unknown';
}

/** The room id a `joinById` request names (from the matchmaker's URL), if any. */
export function joinedRoomId(context: AuthContext): string | undefined {
  return /\/matchmake\/joinById\/([A-Za-z0-9_-]+)/.exec(context.req?.url ?? '')?.[1];
}
