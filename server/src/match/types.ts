/**
 * The match's vocabulary: what a participant asks for (`Intent`), what the log keeps of an
 * accepted one (`MatchEvent`), and what the match answers (`Accepted`, `Outcome`).
 */
import type { BotLevel, Colour, TurnInput } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import type { PressClientMessage } from '../press/index.js';
import type { Delivery, MemberId, SpectatorId } from '../press/types.js';
import type { SeatMove } from './seats.js';

/** Match phase: before the start, during the game, after its result. */
export type Phase = 'waiting' | 'playing' | 'over';

/**
 * What a participant asks for. `colour` is the sender's seat (null when it holds none: the match
 * answers `not_seated`); `member` is its press member (its colour, or its spectator id).
 */
export type Intent =
  /** `hostTokenHash`: the SHA-256 of the host token the taker joined with, if any. */
  /** `deviceHash`: the SHA-256 of the taker's `device` join option (a player the host removed is barred by it). */
  | { readonly type: 'take_seat'; readonly name?: string; readonly colour?: Colour; readonly hostTokenHash?: string; readonly deviceHash?: string }
  | { readonly type: 'leave_seat'; readonly colour: Colour }
  | { readonly type: 'swap'; readonly colour: Colour | null; readonly to: Colour }
  | { readonly type: 'ready'; readonly colour: Colour | null; readonly ready: boolean }
  /** `spectator`: a spectator renames itself (the sender holds no seat). */
  | { readonly type: 'rename'; readonly colour: Colour | null; readonly name: string; readonly spectator?: SpectatorId }
  /**
   * Only the host starts (`creatorConnected` is kept in logs written before the host existed);
   * `auto`: the room starts a game whose every seat is a bot (set by the room, never by a client).
   */
  | { readonly type: 'start'; readonly colour: Colour | null; readonly creatorConnected?: boolean; readonly auto?: true }
  /**
   * Before the start, the host (`colour`) seats a bot of `level` on the free seat `target`;
   * `atCreation`: a `bots` create option, taken by the room before any other event.
   */
  | { readonly type: 'add_bot'; readonly colour: Colour | null; readonly target: Colour; readonly level: BotLevel; readonly atCreation?: true }
  /** Before the start, the host (`colour`) frees the bot seat `target`. */
  | { readonly type: 'remove_bot'; readonly colour: Colour | null; readonly target: Colour }
  /** Before the start, the host (`colour`) frees the seat of `target`. */
  | { readonly type: 'remove_seat'; readonly colour: Colour | null; readonly target: Colour }
  /** The host's seat `colour` was left for good (its grace period ran out): the next seated player hosts. */
  | { readonly type: 'pass_host'; readonly colour: Colour }
  /** `standIn`: a bot played this turn for its absent player (kept in the record; judged like any turn). */
  | { readonly type: 'turn'; readonly colour: Colour | null; readonly turn: TurnInput; readonly version?: number; readonly standIn?: true }
  | { readonly type: 'resign'; readonly colour: Colour | null }
  /** A clock ran out: the match checks which (sent by the room's timer). */
  | { readonly type: 'flag' }
  | { readonly type: 'press'; readonly member: MemberId; readonly message: PressClientMessage; readonly payload: unknown }
  | { readonly type: 'spectate'; readonly id: SpectatorId; readonly name?: string; readonly limitKey: string }
  | { readonly type: 'unspectate'; readonly id: SpectatorId }
  /**
   * The match was restored after the server was down: the running clock restarts now, so the
   * player to move is not charged for the time since the last accepted event.
   */
  | { readonly type: 'resume' }
  /** A seated player of the finished game offers a rematch (its acceptance too; with an offer open, it accepts that one). */
  | { readonly type: 'rematch_offer'; readonly colour: Colour | null }
  /** A seated player answers the open rematch offer. */
  | { readonly type: 'rematch_answer'; readonly colour: Colour | null; readonly accept: boolean }
  /** The rematch of this finished game was created under `code` (set by the room, never by a client). */
  | { readonly type: 'rematch_created'; readonly code: string };

/** An accepted intent: the record event the log keeps. */
export interface MatchEvent {
  /** Server time, epoch ms. */
  readonly at: number;
  readonly intent: Intent;
  /** `take_seat`: the SHA-256 of the key made for the seat. */
  readonly keyHash?: string;
  /** Ids drawn while the intent was applied (new pacts), in order. */
  readonly ids?: readonly string[];
  /**
   * `remove_seat`: the hashes barred from taking a seat again in this game (the removed seat's key
   * hash and the device hash it was taken with), so that the bar outlives a restart.
   */
  readonly barred?: readonly string[];
}

/**
 * Where a game's log stops being valid: the seq (1-based) of its first event that is missing (a
 * gap), unreadable, invalid or refused by the match, and why. The events before it are the log's
 * longest valid prefix.
 */
export interface LogBreak {
  readonly seq: number;
  /** Names fields and limits, never what a player wrote (it goes to the operator's log). */
  readonly reason: string;
}

/** What an accepted intent did. */
export interface Accepted {
  readonly ok: true;
  /** The record event (null when the intent changed nothing that must be kept, e.g. a flag check with no flag). */
  readonly event: MatchEvent | null;
  /** Messages to exactly the members they name (a seat by its colour). */
  readonly deliveries: Delivery[];
  /** The room's public listing changed (seats, phase, result…). */
  readonly listingChanged: boolean;
  /** Holders that moved seat (swaps): the room moves their connections. */
  readonly moves: readonly SeatMove[];
  /** `remove_seat`: the seat the host freed (the room tells its holder and drops its link). */
  readonly removed?: Colour;
  /** `take_seat`: the seat taken and its key (to send to the taker only; never recorded). */
  readonly seat?: { readonly colour: Colour; readonly key: string };
  /**
   * A clock had run out when the intent came: the flag fell (that is what happened), then the
   * intent itself was refused for this reason (answer it to its sender).
   */
  readonly refused?: Rejection;
}

/** The answer to an intent. */
export type Outcome = Accepted | { readonly ok: false; readonly rejection: Rejection };
