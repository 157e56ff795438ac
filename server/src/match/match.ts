/**
 * A match: the game, its clocks, the press (negotiation), the phase and the seats' game-level
 * state, with no transport, no timers and no clock of its own. `apply(intent, now)` validates an
 * intent against the current state and either refuses it (changing nothing) or accepts it,
 * returning the record event (one serialisable value), the deliveries (who gets which message;
 * a message for everyone is a delivery to every member) and whether the public listing
 * changed. `Match.restore(config, events)` replays a list of events through the same `apply` and
 * gives back an identical match.
 *
 * What is not deterministic is drawn when an intent is first accepted and kept in its event: a
 * new seat key (only its hash is kept; the key itself goes to its holder in a delivery) and the
 * ids of new pacts.
 */
import { randomBytes } from 'node:crypto';
import { type Colour, type Position, seatsOf, type Turn } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import { Press, PRESS_CLIENT_MESSAGES, type PressClientMessage } from '../press/index.js';
import type { Delivery, MemberId, SpectatorId } from '../press/types.js';
import type { RoomConfig } from '../rooms/options.js';
import { GameClock } from './clock.js';
import { type Applied, Game } from './game.js';
import { hashSeatKey, newSeatKey, type SeatMove, SeatTable } from './seats.js';

/** Match phase: before the start, during the game, after its result. */
export type Phase = 'waiting' | 'playing' | 'over';

/**
 * What a participant asks for. `colour` is the sender's seat (null when it holds none: the match
 * answers `not_seated`); `member` is its press member (its colour, or its spectator id).
 */
export type Intent =
  | { readonly type: 'take_seat'; readonly name?: string; readonly colour?: Colour }
  | { readonly type: 'leave_seat'; readonly colour: Colour }
  | { readonly type: 'swap'; readonly colour: Colour | null; readonly to: Colour }
  | { readonly type: 'ready'; readonly colour: Colour | null; readonly ready: boolean }
  | { readonly type: 'rename'; readonly colour: Colour | null; readonly name: string }
  /** `creatorConnected`: whether the creator's seat is held by a live connection (the room knows). */
  | { readonly type: 'start'; readonly colour: Colour | null; readonly creatorConnected: boolean }
  | { readonly type: 'turn'; readonly colour: Colour | null; readonly turn: Turn; readonly version?: number }
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
  | { readonly type: 'resume' };

/** An accepted intent: the record event the log keeps. */
export interface MatchEvent {
  /** Server time, epoch ms. */
  readonly at: number;
  readonly intent: Intent;
  /** `take_seat`: the SHA-256 of the key made for the seat. */
  readonly keyHash?: string;
  /** Ids drawn while the intent was applied (new pacts), in order. */
  readonly ids?: readonly string[];
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

function refuse(code: Rejection['code'], message: string): Outcome {
  return { ok: false, rejection: { code, message } };
}

const PRESS_TYPES: ReadonlySet<string> = new Set(PRESS_CLIENT_MESSAGES);

/** Where the non-deterministic values of an intent come from: drawn live, or read back from its event. */
interface Source {
  seatKey(): { key: string; hash: string };
  id(): string;
  readonly drawn: string[];
}

function liveSource(): Source {
  const drawn: string[] = [];
  return {
    seatKey: () => {
      const key = newSeatKey();
      return { key, hash: hashSeatKey(key) };
    },
    id: () => {
      const id = randomBytes(6).toString('base64url');
      drawn.push(id);
      return id;
    },
    drawn,
  };
}

function replaySource(event: MatchEvent): Source {
  const ids = [...(event.ids ?? [])];
  return {
    seatKey: () => {
      if (event.keyHash === undefined) throw new Error('replay: a take_seat event without its key hash');
      return { key: '', hash: event.keyHash };
    },
    id: () => {
      const id = ids.shift();
      if (id === undefined) throw new Error('replay: an event draws more ids than it recorded');
      return id;
    },
    drawn: [],
  };
}

/** One match. */
export class Match {
  readonly seats: SeatTable;
  readonly game: Game;
  readonly clock: GameClock | null;
  readonly press: Press;
  /** Every accepted event, in order (the storage seam: what a log keeps). */
  readonly events: MatchEvent[] = [];
  private started = false;
  private source: Source | null = null;

  constructor(readonly config: RoomConfig) {
    const colours = seatsOf(config.rules);
    this.seats = new SeatTable(colours);
    this.game = new Game(config.rules);
    this.clock = config.clock ? new GameClock(config.clock, colours) : null;
    this.press = new Press({ seats: colours, ...config.press, newId: () => this.drawId() });
  }

  /** Rebuilds a match from its events, through the same code path that accepted them. */
  static restore(config: RoomConfig, events: readonly MatchEvent[]): Match {
    const match = new Match(config);
    for (const event of events) {
      const out = match.apply(event.intent, event.at, event);
      if (!out.ok) throw new Error(`replay: event ${match.events.length} refused: ${out.rejection.code} ${out.rejection.message}`);
    }
    return match;
  }

  /** The single source of the phase. */
  get phase(): Phase {
    if (!this.started) return 'waiting';
    return this.game.over ? 'over' : 'playing';
  }

  /** The current position. */
  get position(): Position {
    return this.game.position;
  }

  /**
   * Validates and applies `intent` at `now` (epoch ms, never going back). `replay` is the event
   * being replayed by `restore` (its recorded values are used instead of new ones).
   */
  apply(intent: Intent, now: number, replay?: MatchEvent): Outcome {
    this.source = replay ? replaySource(replay) : liveSource();
    try {
      const out = this.dispatch(intent, now);
      if (out.ok && out.event !== null) this.events.push(out.event);
      return out;
    } finally {
      this.source = null;
    }
  }

  /** Milliseconds from `now` until the running clock runs out (null: none runs). */
  msToFlag(now: number): number | null {
    if (!this.clock || this.phase !== 'playing') return null;
    return this.clock.msToFlag(now);
  }

  /** The press history of `member`, as a delivery (on join, reconnection and seat reclaim). */
  historyDelivery(member: MemberId): Delivery {
    return this.press.historyDelivery(member);
  }

  // ---- intents -----------------------------------------------------------------------------------

  private dispatch(intent: Intent, now: number): Outcome {
    switch (intent.type) {
      case 'take_seat':
        return this.takeSeat(intent, now);
      case 'leave_seat':
        if (this.phase !== 'waiting') return refuse('already_started', 'seats are fixed once the game has started');
        if (!this.seats.get(intent.colour)?.keyHash) return refuse('not_seated', 'this seat is free');
        this.seats.release(intent.colour);
        return this.accepted(intent, now, { listingChanged: true });
      case 'swap':
        return this.swap(intent, now);
      case 'ready': {
        const seat = intent.colour ? this.seats.get(intent.colour) : undefined;
        if (!seat) return refuse('not_seated', 'only a seated player can be ready');
        if (this.phase !== 'waiting') return refuse('already_started', 'the game has already started');
        seat.ready = intent.ready;
        return this.accepted(intent, now);
      }
      case 'rename': {
        const seat = intent.colour ? this.seats.get(intent.colour) : undefined;
        if (!seat?.keyHash) return refuse('not_seated', 'only a seated player has a name');
        seat.name = intent.name;
        return this.accepted(intent, now, { listingChanged: true });
      }
      case 'start':
        return this.start(intent, now);
      case 'turn':
      case 'resign':
        return this.play(intent, now);
      case 'flag':
        return this.flag(intent, now);
      case 'press':
        return this.pressIntent(intent, now);
      case 'spectate':
        if (!this.press.addSpectator(intent.id, intent.name, intent.limitKey)) return refuse('bad_payload', 'not a spectator id');
        return this.accepted(intent, now, { deliveries: [this.press.historyDelivery(intent.id)], listingChanged: true });
      case 'unspectate':
        this.press.removeSpectator(intent.id);
        return this.accepted(intent, now, { listingChanged: true });
      case 'resume':
        if (this.clock?.running) this.clock.startedAt = now;
        return this.accepted(intent, now);
    }
  }

  private takeSeat(intent: Extract<Intent, { type: 'take_seat' }>, now: number): Outcome {
    if (this.phase !== 'waiting') return refuse('already_started', 'the game has started');
    const seat = this.seats.freeSeat(intent.colour);
    if ('code' in seat) return refuse(seat.code, seat.message);
    const { key, hash } = this.sourceOf().seatKey();
    this.seats.take(seat, hash, intent.name);
    return this.accepted(intent, now, { keyHash: hash, listingChanged: true, seat: { colour: seat.colour, key } });
  }

  private swap(intent: Extract<Intent, { type: 'swap' }>, now: number): Outcome {
    const seat = intent.colour ? this.seats.get(intent.colour) : undefined;
    if (!seat?.keyHash) return refuse('not_seated', 'only a seated player can change seats');
    if (this.phase !== 'waiting') return refuse('already_started', 'seats are fixed once the game has started');
    const res = this.seats.requestSwap(seat, intent.to);
    if (!res.ok) return refuse('seat_taken', res.message);
    const deliveries = res.moves.map((m) => this.press.historyDelivery(m.to));
    return this.accepted(intent, now, { moves: res.moves, deliveries, listingChanged: res.moves.length > 0 });
  }

  private start(intent: Extract<Intent, { type: 'start' }>, now: number): Outcome {
    const seat = intent.colour ? this.seats.get(intent.colour) : undefined;
    if (!seat?.keyHash) return refuse('not_seated', 'only a seated player can start the game');
    if (this.phase !== 'waiting') return refuse('already_started', 'the game has already started');
    if (!this.seats.allTaken()) return refuse('not_ready', 'every seat must be taken first');
    const creator = this.seats.creatorColour();
    if (creator !== null && creator !== seat.colour && intent.creatorConnected) {
      return refuse('not_creator', 'only the creator can start the game while connected');
    }
    this.started = true;
    this.press.start(this.game.position);
    this.clock?.start(this.game.position.toMove, now);
    return this.accepted(intent, now, { listingChanged: true });
  }

  /** The seat of an active player that may act in the game now, or the rejection. */
  private player(colour: Colour | null): Colour | Outcome {
    if (!colour || !this.seats.get(colour)?.keyHash) return refuse('not_seated', 'only a seated player can do this');
    if (this.phase === 'waiting') return refuse('game_not_started', 'the game has not started');
    if (this.phase === 'over') return refuse('game_over', 'the game is over');
    return colour;
  }

  private play(intent: Extract<Intent, { type: 'turn' | 'resign' }>, now: number): Outcome {
    const colour = this.player(intent.colour);
    if (typeof colour !== 'string') return colour;
    return this.afterFlag(now, () => {
      if (intent.type === 'turn' && intent.version !== undefined && intent.version !== this.game.length) {
        return refuse('stale', `the game is at version ${this.game.length}, not ${intent.version}`);
      }
      const before = this.game.position;
      const res = intent.type === 'turn' ? this.game.play(colour, intent.turn, now) : this.game.resign(colour, now);
      if (!res.ok) return refuse(res.error.code as never, res.error.message);
      return this.afterGame(intent, now, before, res.value);
    });
  }

  /**
   * An intent that arrives after a clock ran out: the flag falls first (an event of its own, so
   * the log replays in the same order), then `next` judges the intent against the new state. If
   * it is refused, the flag fall still stands: it is what happened.
   */
  private afterFlag(now: number, next: () => Outcome): Outcome {
    const flag = this.flagFall(now);
    if (!flag) return next();
    if (flag.event) this.events.push(flag.event);
    const out = next();
    if (!out.ok) return { ...flag, event: null, refused: out.rejection };
    return { ...out, deliveries: [...flag.deliveries, ...out.deliveries], listingChanged: true };
  }

  private flag(intent: Extract<Intent, { type: 'flag' }>, now: number): Outcome {
    const out = this.flagFall(now, intent);
    return out ?? { ok: true, event: null, deliveries: [], listingChanged: false, moves: [] };
  }

  /** Resigns the player whose clock has run out at `now` (a `timeout`), if any. */
  private flagFall(now: number, intent: Intent = { type: 'flag' }): Accepted | null {
    const clock = this.clock;
    if (!clock || this.phase !== 'playing' || !clock.flagged(now)) return null;
    const colour = clock.running!;
    const before = this.game.position;
    const res = this.game.resign(colour, now, true);
    if (!res.ok) return null;
    return this.afterGame(intent, now, before, res.value) as Accepted;
  }

  private pressIntent(intent: Extract<Intent, { type: 'press' }>, now: number): Outcome {
    if (!PRESS_TYPES.has(intent.message)) return refuse('unknown_message', `unknown press message "${String(intent.message).slice(0, 32)}"`);
    return this.afterFlag(now, () => this.pressNow(intent, now));
  }

  private pressNow(intent: Extract<Intent, { type: 'press' }>, now: number): Outcome {
    const res = this.press.handle(intent.member, intent.message, intent.payload, now);
    if (!res.ok) return { ok: false, rejection: res.error };
    if (res.drawAgreed) {
      const before = this.game.position;
      const draw = this.game.agreeDraw(now);
      if (!draw.ok) return refuse(draw.error.code as never, draw.error.message);
      const out = this.afterGame(intent, now, before, draw.value);
      return out.ok ? { ...out, deliveries: [...res.deliveries, ...out.deliveries] } : out;
    }
    return this.accepted(intent, now, { deliveries: res.deliveries, listingChanged: false });
  }

  /**
   * After entries of one game call (`before`: the position before it): the press (betrayals,
   * draw offer, reveal) and the clocks (who is charged, who gets the increment).
   */
  private afterGame(intent: Intent, now: number, before: Position, entries: readonly Applied[]): Outcome {
    const deliveries = this.pressAfter(before, entries, now);
    const clock = this.clock;
    if (clock) {
      if (this.game.over) {
        clock.stop(now, false);
      } else {
        const mover = clock.running;
        const moved = entries.some((e) => e.colour === mover && (e.kind === 'turn' || e.kind === 'pass'));
        const toMove = this.game.position.toMove;
        if (moved || mover !== toMove) {
          clock.stop(now, moved);
          clock.start(toMove, now);
        }
      }
    }
    // No message of its own: the patch (the move list) is the one frame every client gets per turn.
    const listingChanged = this.game.over || entries.some((e) => e.kind !== 'turn' && e.kind !== 'pass');
    return this.accepted(intent, now, { deliveries, listingChanged });
  }

  /**
   * The press's deliveries for the entries of one game call. A throw from the press is logged
   * and never blocks the entries, which are applied already; the press is then brought back in
   * line with the game as far as it can be.
   */
  private pressAfter(before: Position, entries: readonly Applied[], now: number): Delivery[] {
    try {
      return this.press.afterEntries(before, entries, now);
    } catch (e) {
      console.error(`[match] press failed after ${entries.map((x) => x.move).join(', ')}:`, e);
      try {
        this.press.roster.sync(this.game.position);
        return this.game.over ? this.press.endGame(now, this.game.position) : [];
      } catch (e2) {
        console.error('[match] press could not catch up with the game:', e2);
        return [];
      }
    }
  }

  private accepted(
    intent: Intent,
    at: number,
    parts: {
      keyHash?: string;
      deliveries?: Delivery[];
      listingChanged?: boolean;
      moves?: readonly SeatMove[];
      seat?: Accepted['seat'];
    } = {},
  ): Accepted {
    const ids = this.sourceOf().drawn;
    const event: MatchEvent = {
      at,
      intent,
      ...(parts.keyHash !== undefined ? { keyHash: parts.keyHash } : {}),
      ...(ids.length > 0 ? { ids: [...ids] } : {}),
    };
    ids.length = 0;
    return {
      ok: true,
      event,
      deliveries: parts.deliveries ?? [],
      listingChanged: parts.listingChanged ?? false,
      moves: parts.moves ?? [],
      ...(parts.seat ? { seat: parts.seat } : {}),
    };
  }

  private sourceOf(): Source {
    if (!this.source) throw new Error('match: a value was drawn outside apply()');
    return this.source;
  }

  private drawId(): string {
    return this.sourceOf().id();
  }
}
