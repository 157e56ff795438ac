/**
 * How the connection comes back after a drop, without colyseus.js (tested in Node): what a close
 * code means, and the way back in: the reconnection token first, and when it is refused (a
 * restarted server knows no token), a join by code with the seat key, or as a spectator.
 */
import { CLOSE_CODES } from '@djambi/shared';
import type { StoredSeat } from './seatStore.js';

/** What a room close means for the page. */
export type CloseAction =
  /** We left, or the server closed the room for good: stay closed. */
  | 'final'
  /** Our seat went to another device (4000 after `seat_lost`): come back as a spectator. */
  | 'moved'
  /** The server is restarting, the room closed after an internal error, or another process took the game: come back by ourselves. */
  | 'restart'
  /** The socket dropped: retry with backoff. */
  | 'retry';

/** The action after a close with `code`; `seatHeld` is false once the seat was taken elsewhere. */
export function closeAction(code: number, seatHeld: boolean): CloseAction {
  if (code === CLOSE_CODES.serverRestart || code === CLOSE_CODES.roomFault || code === CLOSE_CODES.fenced) return 'restart';
  if (code === 4000) return seatHeld ? 'final' : 'moved';
  if (code === 1000) return 'final';
  return 'retry';
}

/** How the room was found again. */
export type RejoinPath = 'reconnect' | 'seat' | 'spectate';

/** The two ways in that colyseus.js offers (the client's `reconnect` and `joinById` on one code). */
export interface RejoinIo<R> {
  reconnect(token: string): Promise<R>;
  joinById(options: Record<string, unknown>): Promise<R>;
}

/**
 * Come back: with the reconnection token if there is one; when that fails (expired, or a server
 * that restarted), join by code with the seat key, or as a spectator without one. A failure of
 * the join is thrown to the caller (which backs off, or gives up on `not_found`).
 */
export async function rejoin<R>(io: RejoinIo<R>, token: string | null, seat: StoredSeat | null, name?: string): Promise<{ room: R; path: RejoinPath }> {
  if (token) {
    try {
      return { room: await io.reconnect(token), path: 'reconnect' };
    } catch {
      /* the token is no good: fall back to the code */
    }
  }
  if (seat) return { room: await io.joinById({ seatKey: seat.seatKey }), path: 'seat' };
  // A restarted server knows no spectator: the name they joined with comes back with them.
  return { room: await io.joinById({ spectate: true, ...(name ? { name } : {}) }), path: 'spectate' };
}

/** Retry delays after a drop, growing while the page is hidden. */
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000];
/** The longest wait between retries while the page is visible: a player watching comes back within seconds of the server. */
export const VISIBLE_BACKOFF_CAP_MS = 3000;

/** The wait before retry number `attempt` (from 0): capped at a few seconds while the page is visible. */
export function backoffDelay(attempt: number, visible: boolean): number {
  const ms = BACKOFF_MS[Math.min(Math.max(0, attempt), BACKOFF_MS.length - 1)];
  return visible ? Math.min(ms, VISIBLE_BACKOFF_CAP_MS) : ms;
}
