/**
 * Who is in the press of one room: the seats (fixed for the game), which of them are still
 * active, the spectators and the key their limits are counted under, the phase and the number of
 * turns played. Also the room-wide sequence that orders every press event for the after-game
 * story (never sent during the game).
 */
import { COLOURS, activePlayers, type Colour, type Position } from '@djambi/shared';
import type { MemberId, PressPhase, SpectatorId } from './types.js';

/** Longest limit key accepted from the room. */
export const MAX_LIMIT_KEY_CHARS = 128;

function isLimitKey(key: unknown): key is string {
  return typeof key === 'string' && key.length > 0 && key.length <= MAX_LIMIT_KEY_CHARS && !(COLOURS as readonly string[]).includes(key);
}

/** The participants of one room's press. */
export class Roster {
  readonly seats: readonly Colour[];
  phase: PressPhase = 'waiting';
  /** Turns played so far (the position's `ply`). */
  ply = 0;
  private active: ReadonlySet<Colour>;
  /** The position's `activeMask` that `active` was last taken from (-1: not taken from one). */
  private syncedMask = -1;
  private readonly spectators = new Map<SpectatorId, string>();
  /** The limit key of each spectator that came with a valid one (else its id is its key). */
  private readonly limitKeys = new Map<SpectatorId, string>();
  private seq = 0;

  constructor(seats: readonly Colour[]) {
    this.seats = COLOURS.filter((c) => seats.includes(c));
    this.active = new Set(this.seats);
  }

  /** The next number of the room-wide event order. */
  nextSeq(): number {
    return ++this.seq;
  }

  /** True for a seat of this game. */
  isSeat(member: unknown): member is Colour {
    return typeof member === 'string' && (this.seats as readonly string[]).includes(member);
  }

  /** True for a registered spectator. */
  isSpectator(member: MemberId): boolean {
    return this.spectators.has(member);
  }

  /** A seat or a registered spectator. */
  isKnown(member: MemberId): boolean {
    return this.isSeat(member) || this.spectators.has(member);
  }

  /** Display name of a spectator ('' if none). */
  spectatorName(id: SpectatorId): string {
    return this.spectators.get(id) ?? '';
  }

  /**
   * Registers a spectator (false for a colour or an empty id). `limitKey` (e.g. `addr:<client
   * address>`) is what its rate limits and author caps are counted under, so that they survive a
   * rejoin; without a valid one (a string of 1..MAX_LIMIT_KEY_CHARS, not a colour) its id is used.
   */
  addSpectator(id: SpectatorId, name: string, limitKey?: string): boolean {
    if (typeof id !== 'string' || id.length === 0 || (COLOURS as readonly string[]).includes(id)) return false;
    this.spectators.set(id, name);
    if (isLimitKey(limitKey)) this.limitKeys.set(id, limitKey);
    else this.limitKeys.delete(id);
    return true;
  }

  /** Forgets a spectator (not what was counted under its limit key). */
  removeSpectator(id: SpectatorId): boolean {
    this.limitKeys.delete(id);
    return this.spectators.delete(id);
  }

  /** The key `member`'s rate limits and author caps are counted under: a seat's colour, a spectator's limit key or id. */
  limitKeyOf(member: MemberId): string {
    if (this.isSeat(member)) return member;
    return this.limitKeys.get(member) ?? member;
  }

  /** Still in the game (before the start every seat counts as active). */
  isActive(colour: Colour): boolean {
    return this.active.has(colour);
  }

  /** A seat that has left the game (eliminated or resigned). */
  isEliminated(member: MemberId): boolean {
    return this.isSeat(member) && !this.active.has(member);
  }

  /** Active seats in seat order. */
  activeSeats(): Colour[] {
    return this.seats.filter((c) => this.active.has(c));
  }

  /** Every seat and every spectator: the audience of the table. */
  everyone(): MemberId[] {
    return [...this.seats, ...this.spectators.keys()];
  }

  /** Spectator ids. */
  spectatorIds(): SpectatorId[] {
    return [...this.spectators.keys()];
  }

  /** Takes the active players and the ply from a position; returns the seats that left the game. */
  sync(pos: Position): Colour[] {
    this.ply = pos.ply;
    // Most turns eliminate nobody: the same players, nothing to rebuild.
    if (pos.activeMask === this.syncedMask) return [];
    this.syncedMask = pos.activeMask;
    const now = new Set(activePlayers(pos).filter((c) => this.isSeat(c)));
    const gone = this.seats.filter((c) => this.active.has(c) && !now.has(c));
    this.active = now;
    this.ply = pos.ply;
    return gone;
  }
}
