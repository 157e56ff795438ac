/**
 * Seats of a room: who holds which colour, the secret seat keys, presence and swaps.
 * Plain data and logic, no Colyseus: the room calls it and `mirror` copies it to the schema.
 * A seat key belongs to its holder: it follows the holder through a swap.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Colour } from '@djambi/shared';
import type { RejectCode } from '../errors.js';

/**
 * `connected`: a live connection; `reconnecting`: the connection dropped and may come back
 * within the grace period; `away`: reserved for its key holder; `empty`: free.
 */
export type SeatPresence = 'empty' | 'connected' | 'reconnecting' | 'away';

/** One seat. `key` is secret and never leaves the server except to its holder. */
export interface Seat {
  readonly colour: Colour;
  name: string;
  key: string | null;
  sessionId: string | null;
  presence: SeatPresence;
  /** Epoch ms of the last presence change. */
  since: number;
  /** Before the start: the seat this holder asked to swap with. */
  swapWith: Colour | null;
  /** Before the start: the holder says it is ready to play (information for the others; reset when the seat changes hands). */
  ready: boolean;
}

/** Serialisable snapshot of a seat (what durable storage would keep). */
export interface SeatRecord {
  readonly colour: Colour;
  readonly name: string;
  readonly key: string | null;
}

/** 128 random bits, hex. */
export function newSeatKey(): string {
  return randomBytes(16).toString('hex');
}

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

type SeatResult<T> = { ok: true; value: T } | { ok: false; code: RejectCode | 'seat_taken' | 'no_free_seat'; message: string };

/** The seats of one room, in seat order. */
export class SeatTable {
  readonly seats: ReadonlyMap<Colour, Seat>;
  /** Key of the creator (the first participant to take a seat). */
  creatorKey: string | null = null;

  constructor(
    colours: readonly Colour[],
    private readonly makeKey: () => string = newSeatKey,
  ) {
    const seats = new Map<Colour, Seat>();
    for (const colour of colours) {
      seats.set(colour, { colour, name: '', key: null, sessionId: null, presence: 'empty', since: 0, swapWith: null, ready: false });
    }
    this.seats = seats;
  }

  /** The seat a connection holds. */
  bySession(sessionId: string): Seat | undefined {
    for (const seat of this.seats.values()) if (seat.sessionId === sessionId) return seat;
    return undefined;
  }

  /** The seat a key opens (constant-time comparison). */
  byKey(key: string): Seat | undefined {
    let found: Seat | undefined;
    for (const seat of this.seats.values()) if (seat.key !== null && sameKey(seat.key, key)) found = seat;
    return found;
  }

  /** True when every seat has a holder (connected or away). */
  allTaken(): boolean {
    for (const seat of this.seats.values()) if (seat.presence === 'empty') return false;
    return true;
  }

  /** Number of seats with a holder. */
  takenCount(): number {
    let n = 0;
    for (const seat of this.seats.values()) if (seat.presence !== 'empty') n++;
    return n;
  }

  /** Gives a free seat (the asked colour, or the first free one) to a new participant. */
  take(sessionId: string, name: string | undefined, colour: Colour | undefined, now: number): SeatResult<Seat> {
    let seat: Seat | undefined;
    if (colour !== undefined) {
      seat = this.seats.get(colour);
      if (!seat) return { ok: false, code: 'seat_taken', message: `there is no ${colour} seat in this room` };
      if (seat.presence !== 'empty') return { ok: false, code: 'seat_taken', message: `the ${colour} seat is taken` };
    } else {
      for (const s of this.seats.values())
        if (s.presence === 'empty') {
          seat = s;
          break;
        }
      if (!seat) return { ok: false, code: 'no_free_seat', message: 'every seat is taken; join with { spectate: true } to watch' };
    }
    seat.key = this.makeKey();
    seat.name = name || defaultName(seat.colour);
    seat.sessionId = sessionId;
    seat.presence = 'connected';
    seat.since = now;
    seat.swapWith = null;
    seat.ready = false;
    if (this.creatorKey === null) this.creatorKey = seat.key;
    return { ok: true, value: seat };
  }

  /** Gives a seat to the holder of its key; returns the connection it replaces, if any. */
  reclaim(key: string, sessionId: string, now: number, name?: string): { seat: Seat; replaced: string | null } | undefined {
    const seat = this.byKey(key);
    if (!seat) return undefined;
    const replaced = seat.sessionId !== null && seat.sessionId !== sessionId ? seat.sessionId : null;
    seat.sessionId = sessionId;
    if (seat.presence !== 'connected') seat.since = now;
    seat.presence = 'connected';
    if (name) seat.name = name;
    return { seat, replaced };
  }

  /** The connection came back through `client.reconnect` (same session id). */
  reconnected(sessionId: string, now: number): Seat | undefined {
    const seat = this.bySession(sessionId);
    if (seat && seat.presence !== 'connected') {
      seat.presence = 'connected';
      seat.since = now;
    }
    return seat;
  }

  /** The connection dropped and may come back (grace period): session kept. */
  dropped(sessionId: string, now: number): Seat | undefined {
    const seat = this.bySession(sessionId);
    if (seat && seat.presence === 'connected') {
      seat.presence = 'reconnecting';
      seat.since = now;
    }
    return seat;
  }

  /** The connection of a seat is gone: the seat stays reserved for its key and shows as away. */
  away(sessionId: string, now: number): Seat | undefined {
    const seat = this.bySession(sessionId);
    if (!seat) return undefined;
    seat.sessionId = null;
    // `since` keeps the moment the connection dropped when the grace period just ended.
    if (seat.presence === 'connected') seat.since = now;
    seat.presence = 'away';
    return seat;
  }

  /** Before the start, a holder that leaves on purpose frees its seat (its key stops working). */
  release(sessionId: string, now: number): Seat | undefined {
    const seat = this.bySession(sessionId);
    if (!seat) return undefined;
    this.clearSwapsInvolving(seat.colour);
    seat.key = null;
    seat.sessionId = null;
    seat.name = '';
    seat.presence = 'empty';
    seat.since = now;
    seat.ready = false;
    return seat;
  }

  /**
   * Before the start: moves the holder of `from` to the free seat `to`, or records a swap
   * request; when both holders asked for each other's seat, they swap. Returns the seats
   * whose holder changed (their holders must be told their new colour).
   */
  requestSwap(from: Seat, to: Colour, now: number): SeatResult<Seat[]> {
    const target = this.seats.get(to);
    if (!target) return { ok: false, code: 'seat_taken', message: `there is no ${to} seat in this room` };
    if (target === from) {
      from.swapWith = null;
      return { ok: true, value: [] };
    }
    if (target.presence === 'empty') {
      this.clearSwapsInvolving(from.colour);
      moveHolder(from, target, now);
      return { ok: true, value: [target] };
    }
    if (target.swapWith === from.colour) {
      this.clearSwapsInvolving(from.colour);
      this.clearSwapsInvolving(target.colour);
      const tmp: Seat = { ...target };
      moveHolder(from, target, now);
      moveHolder(tmp, from, now);
      return { ok: true, value: [target, from] };
    }
    from.swapWith = to;
    return { ok: true, value: [] };
  }

  /** Colour of the creator's seat, or null when the creator holds no seat. */
  creatorColour(): Colour | null {
    if (this.creatorKey === null) return null;
    const seat = this.byKey(this.creatorKey);
    return seat ? seat.colour : null;
  }

  /** True when the creator holds a seat and is connected. */
  creatorPresent(): boolean {
    const colour = this.creatorColour();
    return colour !== null && this.seats.get(colour)!.presence === 'connected';
  }

  /** Serialisable seat list (keys included: this is for server-side storage only). */
  toRecord(): SeatRecord[] {
    return [...this.seats.values()].map((s) => ({ colour: s.colour, name: s.name, key: s.key }));
  }

  private clearSwapsInvolving(colour: Colour): void {
    for (const seat of this.seats.values()) {
      if (seat.colour === colour || seat.swapWith === colour) seat.swapWith = null;
    }
  }
}

function moveHolder(source: Seat, target: Seat, now: number): void {
  target.name = source.name === defaultName(source.colour) ? defaultName(target.colour) : source.name;
  target.key = source.key;
  target.sessionId = source.sessionId;
  target.presence = source.presence;
  target.since = now;
  target.swapWith = null;
  target.ready = false;
  source.name = '';
  source.key = null;
  source.sessionId = null;
  source.presence = 'empty';
  source.since = now;
  source.swapWith = null;
  source.ready = false;
}

const COLOUR_NAMES: Record<Colour, string> = { R: 'Red', B: 'Blue', Y: 'Yellow', G: 'Green' };

function defaultName(colour: Colour): string {
  return COLOUR_NAMES[colour];
}
