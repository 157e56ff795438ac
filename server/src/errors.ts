/** Error codes the room adds to the engine's TurnErrorCode values and the press's codes. */
import { err, JOIN_ERROR_CODES, type JoinErrorCode, type TurnErrorCode } from '@djambi/shared';
import type { PressErrorCode } from './press/types.js';

/** Codes of `rejected` messages that come from the room itself. */
export type RoomErrorCode =
  | 'bad_payload'
  | 'payload_too_large'
  | 'unknown_message'
  | 'not_seated'
  | 'not_your_turn'
  | 'not_active'
  | 'game_not_started'
  | 'game_over'
  | 'already_started'
  | 'not_ready'
  | 'not_creator'
  | 'not_host'
  | 'not_a_bot'
  | 'seat_taken'
  | 'removed'
  | 'no_free_seat'
  | 'stale'
  | 'rate_limited'
  | 'storage_unavailable'
  | 'not_finished'
  | 'no_rematch'
  | 'rematch_closed'
  | 'internal_error';

/** Every code a `rejected` message may carry (the press's codes included, see docs/PROTOCOL.md). */
export type RejectCode = RoomErrorCode | TurnErrorCode | PressErrorCode | 'bad_rules';

/** A rejection: sent to the offending client only. */
export interface Rejection {
  readonly code: RejectCode;
  readonly message: string;
  /** With `rate_limited`: milliseconds until the sender may act again. */
  readonly retryAfterMs?: number;
  /** With `bad_payload`: the bad field as a dotted path (`"from"`, `"clock.initialSeconds"`). */
  readonly path?: string;
}

/** Codes of join/create failures (ServerError message prefix, see docs/PROTOCOL.md); declared in shared. */
export { JOIN_ERROR_CODES, type JoinErrorCode };

/** Numeric codes (colyseus ServerError.code) for each join error. */
export const JOIN_ERROR_STATUS: Record<JoinErrorCode, number> = {
  bad_options: 4400,
  bad_rules: 4400,
  bad_seat_key: 4403,
  removed: 4403,
  seat_taken: 4409,
  no_free_seat: 4409,
  game_started: 4410,
  spectators_full: 4409,
  too_many_joins: 4429,
  too_many_rooms: 4429,
  server_full: 4503,
  storage_unavailable: 4504,
  internal_error: 4500,
};

/** A join or create refused with its code (the room answers it as a Colyseus `ServerError`). */
export class JoinRefused extends Error {
  constructor(
    readonly code: JoinErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Shorthand for a failed result carrying a rejection. */
export function reject(code: RejectCode, message: string, path?: string): { readonly ok: false; readonly error: Rejection } {
  return path === undefined ? err(code, message) : err(code, message, { path });
}
