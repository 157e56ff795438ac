/**
 * The seats of a match, game-level state only: who took which colour (name, the SHA-256 of its
 * secret key), swap requests, readiness, the creator and the host. Connections (which session holds a
 * seat, presence) are the room's. A seat key leaves the server only to its holder, once, when it
 * is made; only its hash is kept (and recorded).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type BotLevel, COLOUR_NAMES, type Colour } from '@djambi/shared';

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
  /** The level of the computer player holding the seat, or null (a person, or free). */
  bot: BotLevel | null;
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

/** The name of a bot's seat: "Blue (bot, normal)". */
export function botName(colour: Colour, level: BotLevel): string {
  return `${COLOUR_NAMES[colour]} (bot, ${level})`;
}

/** The default name of a seat (its colour's name). */
export function defaultName(colour: Colour): string {
  return COLOUR_NAMES[colour];
}

/** The seats of one match, in seat order. */
export class SeatTable {
  readonly seats: ReadonlyMap<Colour, Seat>;
  /** Key hash of the creator (the first participant to take a seat). */
  creatorHash: string | null = null;
  /**
   * SHA-256 of the host token made at creation (`POST /api/rooms`), until the host's seat is
   * taken with it or the host leaves for good; null when the room was made without one.
   */
  hostTokenHash: string | null;
  /** Key hash of the host's seat (who may start and remove players), or null. */
  hostHash: string | null = null;

  constructor(colours: readonly Colour[], hostTokenHash: string | null = null) {
    this.hostTokenHash = hostTokenHash;
    const seats = new Map<Colour, Seat>();
    for (const colour of colours) seats.set(colour, { colour, name: '', keyHash: null, swapWith: null, ready: false, bot: null });
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

  /** True when every seat is held by a bot. */
  allBots(): boolean {
    for (const seat of this.seats.values()) if (seat.bot === null) return false;
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

  /**
   * Gives the free `seat` to a holder whose key hashes to `keyHash`. While the host token is
   * unused, only its holder (`tokenHash`, the SHA-256 of the token it joined with) becomes the
   * host; in a room made without one (or once the host has left), the first to sit when nobody
   * hosts does.
   */
  take(seat: Seat, keyHash: string, name: string | undefined, tokenHash?: string): void {
    seat.keyHash = keyHash;
    seat.name = name || defaultName(seat.colour);
    seat.swapWith = null;
    seat.ready = false;
    if (this.creatorHash === null) this.creatorHash = keyHash;
    const token = this.hostTokenHash;
    if (token !== null && tokenHash !== undefined && sameHash(token, tokenHash)) {
      this.hostHash = keyHash;
      this.hostTokenHash = null;
    } else if (token === null && this.hostColour() === null) {
      this.hostHash = keyHash;
    }
  }

  /**
   * Gives the free `seat` to a bot of `level` (always ready; named "Blue (bot, normal)"). A bot
   * is never the creator nor the host; its key (`keyHash`) is never handed to anyone.
   */
  takeBot(seat: Seat, keyHash: string, level: BotLevel): void {
    seat.keyHash = keyHash;
    seat.name = botName(seat.colour, level);
    seat.swapWith = null;
    seat.ready = true;
    seat.bot = level;
  }

  /** Colour of the host's seat, or null (the host holds no seat yet, or has left). */
  hostColour(): Colour | null {
    if (this.hostHash === null) return null;
    for (const seat of this.seats.values()) if (seat.keyHash === this.hostHash) return seat.colour;
    return null;
  }

  /**
   * The host (holding `colour`) left for good: the next seated player in seat order becomes the
   * host. False when `colour` is not the host's seat.
   */
  passHost(colour: Colour): boolean {
    if (this.hostColour() !== colour) return false;
    const order = [...this.seats.keys()];
    const at = order.indexOf(colour);
    this.hostHash = null;
    for (let i = 1; i < order.length; i++) {
      const next = this.seats.get(order[(at + i) % order.length]);
      if (next?.keyHash && next.bot === null) {
        this.hostHash = next.keyHash;
        break;
      }
    }
    return true;
  }

  /**
   * Before the start, a holder that leaves on purpose (or that the host removes) frees its seat
   * (its key stops working); a host that leaves hands over to the next seated player.
   */
  release(colour: Colour): void {
    const seat = this.seats.get(colour);
    if (!seat) return;
    this.passHost(colour);
    this.clearSwapsInvolving(colour);
    seat.keyHash = null;
    seat.name = '';
    seat.ready = false;
    seat.bot = null;
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
