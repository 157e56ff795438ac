/**
 * The way into a room: the matchmaker's `onAuth` (join options checked before any reservation,
 * the client's address attached), the reservation hook (admission decides, not Colyseus's
 * `maxClients`), and the bookkeeping of reservations used and spectators gone.
 */
import type { AuthContext } from '@colyseus/core';
import type { Match } from '../match/match.js';
import { Admission, type AdmissionLimits, type Refusal } from './admission.js';
import { type AuthData, clientAddress, joinError, joinedRoomId, joinKind } from './join.js';
import { CREATE_KEYS } from '../match/config.js';
import { checkJoinOptions } from './validate.js';

/**
 * Join options are checked by the matchmaker before any reservation; the answer carries the
 * client's address. When the room named by a `joinById` lives in this process (`doorOf` finds
 * it), its door is asked too, so that a refusal reaches the client with its code
 * (`spectators_full`, `too_many_joins`...).
 */
export function authorise(options: unknown, context: AuthContext, doorOf: (roomId: string) => Door | undefined): AuthData {
  const join = checkJoinOptions(options, CREATE_KEYS);
  if (!join.ok) throw joinError('bad_options', join.error.message);
  const auth: AuthData = { join: join.value, address: clientAddress(context) };
  const roomId = joinedRoomId(context);
  const refusal = roomId ? doorOf(roomId)?.refusal(auth) : null;
  if (refusal) throw joinError(refusal.code, refusal.message);
  return auth;
}

/** The admission of one room, asked with the kind of join its match allows. */
export class Door {
  private readonly admission: Admission;

  /**
   * `game.match`: the match as every saved intent left it (the journal); `live(sessionId)`:
   * whether a pending reservation still stands (Colyseus drops unused ones).
   */
  constructor(
    limits: AdmissionLimits,
    private readonly game: { readonly match: Match },
    private readonly live: (sessionId: string) => boolean,
  ) {
    this.admission = new Admission(limits);
  }

  /** Why a join with these options cannot have a reservation now, or null. */
  refusal(auth: AuthData): Refusal | null {
    const kind = joinKind(this.game.match, auth.join);
    return 'code' in kind ? kind : this.admission.check(kind, auth.address, this.live);
  }

  /** Whether a (non-reconnection) reservation may be granted: seat key holders always get in. */
  admits(authData: unknown): boolean {
    const auth = authData as AuthData | undefined;
    return auth?.join !== undefined && this.refusal(auth) === null;
  }

  /** A reservation was granted. */
  reserved(sessionId: string, authData: unknown): void {
    const auth = authData as AuthData;
    const kind = joinKind(this.game.match, auth.join);
    if (!('code' in kind)) this.admission.reserved(sessionId, kind, auth.address);
  }

  /** The reservation was used: the connection joined (a spectator counts from its address). */
  joined(sessionId: string, auth: AuthData): void {
    this.admission.joined(sessionId, auth.join.spectate ? auth.address : null);
  }

  /** A spectator left. */
  left(sessionId: string): void {
    this.admission.left(sessionId);
  }
}
