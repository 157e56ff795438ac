/**
 * The seats of a match, game-level state only: who took which colour (name, the SHA-256 of its
 * secret key), swap requests, readiness and the creator. Connections (which session holds a
 * seat, presence) are the room's. A seat key leaves the server only to its holder, once, when it
 * is made; only its hash is kept (and recorded).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Colour } from '@djambi/shared';

/** One seat. */
export interface Seat {
  readonly colour: Colour;
  name: string;
  /** SHA-256 (hex) of the seat key, or null for a free seat. */
  keyHash: string | null;
  /** Before the start: the seat this holder asked to swap with. */
  swapWith: Colour | null;
  /** Before the start: the holder says it is ready to play (reset when the seat changes hands). */
  ready: boolean;
}

/** A holder that moved from one seat to another (a swap or a move to a free seat). */
export interface SeatMove {
  readonly from: Colour;
  readonly to: Colour;
}

/** 128 random bits, hex. */
export function newSeatKey(): string {
  return randomBytes(16).toString('hex');
}

/** SHA-256 of a seat key, hex. */
export function hashSeatKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

const COLOUR_NAMES: Record<Colour, string> = { R: 'Red', B: 'Blue', Y: 'Yellow', G: 'Green' };

/** The default name of a seat (its colour's name). */
export function defaultName(colour: Colour): string {
  return COLOUR_NAMES[colour];
}

/** The seats of one match, in seat order. */
export class SeatTable {
  readonly seats: ReadonlyMap<Colour, Seat>;
  /** Key hash of the creator (the first participant to take a seat). */
  creatorHash: string | null = null;

  constructor(colours: readonly Colour[]) {
    const seats = new Map<Colour, Seat>();
    for (const colour of colours) seats.set(colour, { colour, name: '', keyHash: null, swapWith: null, ready: false });
    this.seats = seats;
  }

  /** The seat of `colour`. */
  get(colour: Colour): Seat | undefined {
    return this.seats.get(colour);
  }

  /** The seat a key opens (its hash compared in constant time). */
  byKey(key: string): Seat | undefined {
    const hash = hashSeatKey(key);
    let found: Seat | undefined;
    for (const seat of this.seats.values()) if (seat.keyHash !== null && sameHash(seat.keyHash, hash)) found = seat;
    return found;
  }

  /** True when every seat has a holder. */
  allTaken(): boolean {
    for (const seat of this.seats.values()) if (seat.keyHash === null) return false;
    return true;
  }

  /** Number of seats with a holder. */
  takenCount(): number {
    let n = 0;
    for (const seat of this.seats.values()) if (seat.keyHash !== null) n++;
    return n;
  }

  /** The free seat a newcomer would get (the asked colour, or the first free one), or why not. */
  freeSeat(colour: Colour | undefined): Seat | { code: 'seat_taken' | 'no_free_seat'; message: string } {
    if (colour !== undefined) {
      const seat = this.seats.get(colour);
      if (!seat) return { code: 'seat_taken', message: `there is no ${colour} seat in this room` };
      if (seat.keyHash !== null) return { code: 'seat_taken', message: `the ${colour} seat is taken` };
      return seat;
    }
    for (const s of this.seats.values()) if (s.keyHash === null) return s;
    return { code: 'no_free_seat', message: 'every seat is taken; join with { spectate: true } to watch' };
  }

  /** Gives the free `seat` to a holder whose key hashes to `keyHash`. */
  take(seat: Seat, keyHash: string, name: string | undefined): void {
    seat.keyHash = keyHash;
    seat.name = name || defaultName(seat.colour);
    seat.swapWith = null;
    seat.ready = false;
    if (this.creatorHash === null) this.creatorHash = keyHash;
  }

  /** Before the start, a holder that leaves on purpose frees its seat (its key stops working). */
  release(colour: Colour): void {
    const seat = this.seats.get(colour);
    if (!seat) return;
    this.clearSwapsInvolving(colour);
    seat.keyHash = null;
    seat.name = '';
    seat.ready = false;
  }

  /**
   * Before the start: moves the holder of `from` to the free seat `to`, or records a swap
   * request; when both holders asked for each other's seat, they swap. Returns the moves
   * (their holders must be told their new colour).
   */
  requestSwap(from: Seat, to: Colour): { ok: true; moves: SeatMove[] } | { ok: false; message: string } {
    const target = this.seats.get(to);
    if (!target) return { ok: false, message: `there is no ${to} seat in this room` };
    if (target === from) {
      from.swapWith = null;
      return { ok: true, moves: [] };
    }
    if (target.keyHash === null) {
      this.clearSwapsInvolving(from.colour);
      moveHolder(from, target);
      return { ok: true, moves: [{ from: from.colour, to }] };
    }
    if (target.swapWith === from.colour) {
      this.clearSwapsInvolving(from.colour);
      this.clearSwapsInvolving(target.colour);
      const tmp: Seat = { ...target };
      moveHolder(from, target);
      moveHolder(tmp, from);
      return {
        ok: true,
        moves: [
          { from: from.colour, to },
          { from: to, to: from.colour },
        ],
      };
    }
    from.swapWith = to;
    return { ok: true, moves: [] };
  }

  /** Colour of the creator's seat, or null when the creator holds no seat. */
  creatorColour(): Colour | null {
    if (this.creatorHash === null) return null;
    for (const seat of this.seats.values()) if (seat.keyHash === this.creatorHash) return seat.colour;
    return null;
  }

  private clearSwapsInvolving(colour: Colour): void {
    for (const seat of this.seats.values()) {
      if (seat.colour === colour || seat.swapWith === colour) seat.swapWith = null;
    }
  }
}

function moveHolder(source: Seat, target: Seat): void {
  target.name = source.name === defaultName(source.colour) ? defaultName(target.colour) : source.name;
  target.keyHash = source.keyHash;
  target.swapWith = null;
  target.ready = false;
  source.name = '';
  source.keyHash = null;
  source.swapWith = null;
  source.ready = false;
}
