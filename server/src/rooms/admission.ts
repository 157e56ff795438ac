/**
 * Who may hold a seat reservation in a room. Colyseus counts every client and every pending
 * reservation against one `maxClients`; here seat holders' capacity is kept apart from the
 * spectators': a seat key holder is always let back in, spectators are counted and capped, and
 * reservations nobody has used yet are capped per room and per client address. Plain logic: the
 * room calls it from its reservation hook with the facts it knows.
 */
import type { JoinErrorCode } from '../errors.js';

/** Limits of admission (documented in docs/PROTOCOL.md, "Limits"). */
export interface AdmissionLimits {
  /** Spectators connected or on their way in. */
  readonly spectators: number;
  /** Spectators from one client address in one room. */
  readonly spectatorsPerAddress: number;
  /** Unused reservations (seat takers and spectators) in one room. */
  readonly pending: number;
  /** Unused reservations of one client address in one room. */
  readonly pendingPerAddress: number;
  /** Unused reservations made with one seat's key. */
  readonly pendingPerSeat: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = Object.freeze({
  spectators: 100,
  spectatorsPerAddress: 50,
  pending: 32,
  pendingPerAddress: 6,
  pendingPerSeat: 4,
});

/**
 * Colyseus's own cap (`maxClients`, clients plus reservations): above every sum the limits allow
 * (4 seats with a reconnection and their reclaims, the spectators, the pending reservations), so
 * Colyseus never locks a room against a seat holder.
 */
export function colyseusCap(limits: AdmissionLimits): number {
  return 4 * (2 + limits.pendingPerSeat) + limits.spectators + limits.pending + 16;
}

/** What a reservation is for. */
export type Request = { readonly kind: 'reclaim'; readonly seat: string } | { readonly kind: 'spectate' } | { readonly kind: 'take' };

interface Pending {
  readonly request: Request;
  readonly address: string;
}

/** A refusal: the join error code and a sentence. */
export interface Refusal {
  readonly code: JoinErrorCode;
  readonly message: string;
}

/** The reservations of one room that no connection has used yet, and the spectators it has. */
export class Admission {
  private readonly pending = new Map<string, Pending>();
  /** Connected spectators: session id → address. */
  private readonly spectators = new Map<string, string>();

  constructor(readonly limits: AdmissionLimits = DEFAULT_ADMISSION) {}

  /**
   * May `request` from `address` get a reservation? `live(sessionId)` tells whether a pending
   * reservation still stands (Colyseus drops unused ones after its reservation time).
   */
  check(request: Request, address: string, live: (sessionId: string) => boolean): Refusal | null {
    this.prune(live);
    if (request.kind === 'reclaim') {
      let forSeat = 0;
      for (const p of this.pending.values()) if (p.request.kind === 'reclaim' && p.request.seat === request.seat) forSeat++;
      if (forSeat >= this.limits.pendingPerSeat)
        return { code: 'too_many_joins', message: 'too many joins with this seat key at once; try again in a few seconds' };
      return null;
    }
    let total = 0;
    let fromAddress = 0;
    let spectating = this.spectators.size;
    let spectatingFromAddress = 0;
    for (const a of this.spectators.values()) if (a === address) spectatingFromAddress++;
    for (const p of this.pending.values()) {
      if (p.request.kind === 'reclaim') continue;
      total++;
      if (p.address === address) fromAddress++;
      if (p.request.kind === 'spectate') {
        spectating++;
        if (p.address === address) spectatingFromAddress++;
      }
    }
    if (request.kind === 'spectate') {
      if (spectating >= this.limits.spectators) return { code: 'spectators_full', message: `this game has ${this.limits.spectators} spectators already` };
      if (spectatingFromAddress >= this.limits.spectatorsPerAddress) return { code: 'spectators_full', message: 'too many spectators from your address' };
    }
    if (total >= this.limits.pending || fromAddress >= this.limits.pendingPerAddress) {
      return { code: 'too_many_joins', message: 'too many joins at once; try again in a few seconds' };
    }
    return null;
  }

  /** Records a granted reservation. */
  reserved(sessionId: string, request: Request, address: string): void {
    this.pending.set(sessionId, { request, address });
  }

  /** The reservation was used: the connection joined (as a spectator or not). */
  joined(sessionId: string, spectatorAddress: string | null): void {
    this.pending.delete(sessionId);
    if (spectatorAddress !== null) this.spectators.set(sessionId, spectatorAddress);
  }

  /** A spectator left. */
  left(sessionId: string): void {
    this.spectators.delete(sessionId);
    this.pending.delete(sessionId);
  }

  private prune(live: (sessionId: string) => boolean): void {
    for (const sid of this.pending.keys()) if (!live(sid)) this.pending.delete(sid);
  }
}
