/** Error codes the room adds to the engine's TurnErrorCode values. */
import type { TurnErrorCode } from '@djambi/shared';

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
  | 'seat_taken'
  | 'stale'
  | 'no_draw_offer'
  | 'draw_offer_open'
  | 'internal_error';

/** Every code a `rejected` message may carry. */
export type RejectCode = RoomErrorCode | TurnErrorCode | 'bad_rules';

/** A rejection: sent to the offending client only. */
export interface Rejection {
  readonly code: RejectCode;
  readonly message: string;
}

/** Codes of join/create failures (ServerError message prefix, see docs/PROTOCOL.md). */
export type JoinErrorCode =
  | 'bad_options'
  | 'bad_rules'
  | 'bad_seat_key'
  | 'seat_taken'
  | 'no_free_seat'
  | 'game_started';

/** Numeric codes (colyseus ServerError.code) for each join error. */
export const JOIN_ERROR_STATUS: Record<JoinErrorCode, number> = {
  bad_options: 4400,
  bad_rules: 4400,
  bad_seat_key: 4403,
  seat_taken: 4409,
  no_free_seat: 4409,
  game_started: 4410,
};

/** Shorthand for a failed result carrying a rejection. */
export function reject(code: RejectCode, message: string): { ok: false; error: Rejection } {
  return { ok: false, error: { code, message } };
}
