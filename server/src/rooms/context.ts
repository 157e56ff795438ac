/**
 * What message handlers may use of a room. Handlers are small functions in `handlers/`;
 * they validate, call the model, and return a rejection or null. They never touch the schema.
 */
import type { Client } from '@colyseus/core';
import type { Colour, Position } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import type { Press } from '../press/index.js';
import type { Delivery, MemberId } from '../press/types.js';
import type { GameClock } from './clock.js';
import type { Applied, Game } from './game.js';
import type { Phase } from './mirror.js';
import type { RoomConfig } from './options.js';
import type { Seat, SeatTable } from './seats.js';

export interface RoomContext {
  readonly config: RoomConfig;
  readonly seats: SeatTable;
  readonly game: Game;
  readonly gameClock: GameClock | null;
  /** The negotiation of the room: channels, pacts, draw offers, the reveal. */
  readonly press: Press;
  readonly phase: Phase;
  /** Server time, epoch ms. */
  now(): number;
  /** The seat `client` holds, if any. */
  seatOf(client: Client): Seat | undefined;
  /** Sends `{ colour, seatKey }` to the seat's current holder. */
  sendSeat(seat: Seat): void;
  /** Starts the game (the handler has checked who may). */
  startGame(): void;
  /** Resigns a player whose clock has run out, if any; call before acting on the game. */
  checkFlag(): void;
  /** The press member a connection speaks for: its seat colour, else its session id. */
  memberOf(client: Client): MemberId;
  /** Sends press deliveries with `client.send` to exactly the connected members they name. */
  deliver(deliveries: readonly Delivery[]): void;
  /**
   * Takes the entries of one accepted game call (`before`: the position before that call):
   * press (betrayals, draw offer, reveal), clocks, phase, `played` broadcast, patch.
   */
  applied(entries: readonly Applied[], before: Position): void;
  /** Mirrors the model into the schema and sends the patch now. */
  commit(): void;
  /** Republishes the room listing metadata. */
  updateListing(): void;
}

/** A message handler: null when accepted, else the rejection to send back. */
export type Handler = (ctx: RoomContext, client: Client, message: unknown) => Rejection | null;

/** The seat of an active player that may act in the game now, or the rejection. */
export function requirePlayer(ctx: RoomContext, client: Client): { seat: Seat; colour: Colour } | Rejection {
  const seat = ctx.seatOf(client);
  if (!seat) return { code: 'not_seated', message: 'only a seated player can do this' };
  if (ctx.phase === 'waiting') return { code: 'game_not_started', message: 'the game has not started' };
  if (ctx.phase === 'over' || ctx.game.over) return { code: 'game_over', message: 'the game is over' };
  return { seat, colour: seat.colour };
}

/** True when a value is a rejection rather than a success value. */
export function isRejection(value: object): value is Rejection {
  return 'code' in value && 'message' in value;
}
