/**
 * Who is in the press of one room: the seats (fixed for the game), which of them are still
 * active, the spectators, the phase and the number of turns played. Also the room-wide sequence
 * that orders every press event for the after-game story (never sent during the game).
 */
import { COLOURS, activePlayers, type Colour, type Position } from '@djambi/shared';
import type { MemberId, PressPhase, SpectatorId } from './types.js';

/** The participants of one room's press. */
export class Roster {
  readonly seats: readonly Colour[];
  phase: PressPhase = 'waiting';
  /** Turns played so far (the position's `ply`). */
  ply = 0;
  private active: ReadonlySet<Colour>;
  private readonly spectators = new Map<SpectatorId, string>();
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

  /** Registers a spectator (false for a colour or an empty id). */
  addSpectator(id: SpectatorId, name: string): boolean {
    if (typeof id !== 'string' || id.length === 0 || (COLOURS as readonly string[]).includes(id)) return false;
    this.spectators.set(id, name);
    return true;
  }

  /** Forgets a spectator. */
  removeSpectator(id: SpectatorId): boolean {
    return this.spectators.delete(id);
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
    const now = new Set(activePlayers(pos).filter((c) => this.isSeat(c)));
    const gone = this.seats.filter((c) => this.active.has(c) && !now.has(c));
    this.active = now;
    this.ply = pos.ply;
    return gone;
  }
}
