/**
 * What a message handler may use: the sender as the match sees it and a read-only look at the
 * match. Handlers are small functions in `handlers/` that check a message's shape and turn it
 * into an intent for the match (or a rejection); they never touch the room or the schema.
 */
import type { Colour } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import type { Intent, Match } from '../match/match.js';
import type { MemberId } from '../press/types.js';

/** The narrow context of a handler. */
export interface HandlerContext {
  readonly match: Match;
  /** The sender's seat, or null (a spectator, a replaced connection). */
  readonly colour: Colour | null;
  /** The press member the sender speaks for: its seat colour, else its session id. */
  readonly member: MemberId;
}

/** A message handler: the intent the message asks for, or the rejection to send back. */
export type Handler = (ctx: HandlerContext, message: unknown) => Intent | Rejection;

/** True when a handler's answer is a rejection. */
export function isRejection(value: Intent | Rejection): value is Rejection {
  return 'code' in value;
}
