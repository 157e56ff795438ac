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
import { boardOf, type Colour, type Position, type RecordInfo, seatsOf } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import { Press, PRESS_CLIENT_MESSAGES } from '../press/index.js';
import type { Delivery, MemberId } from '../press/types.js';
import type { RoomConfig } from './config.js';
import { GameClock } from './clock.js';
import { EventLog, TurnEvent } from './eventLog.js';
import { type Applied, Game } from './game.js';
import { answerVote, openVote, type RematchVote, voteClosed } from './rematchVote.js';
import { hashSeatKey, newSeatKey, type SeatMove, SeatTable } from './seats.js';

import { invalidEventReason } from './checkEvent.js';
import type { Accepted, Intent, LogBreak, MatchEvent, Outcome, Phase } from './types.js';

export type { Accepted, Intent, LogBreak, MatchEvent, Outcome, Phase };

/** `T` with its fields assignable (to build one field by field). */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

function refuse(code: Rejection['code'], message: string): Outcome {
  return { ok: false, rejection: { code, message } };
}

const PRESS_TYPES: ReadonlySet<string> = new Set(PRESS_CLIENT_MESSAGES);

/**
 * Where the non-deterministic values of an intent come from: drawn live, or read back from the
 * event being replayed. One per match, reset by every `apply` (no closures per intent: a restore
 * replays thousands of events).
 */
class Source {
  /** The event being replayed, or null (live). */
  private replay: MatchEvent | null = null;
  /** Replay: the next recorded id to hand out, and the first not yet taken into an event. */
  private next = 0;
  private taken = 0;
  private active = false;
  /** Ids drawn live since the last `take`. */
  private readonly drawn: string[] = [];

  /** Starts an intent: live, or replaying `event`. */
  begin(event: MatchEvent | null): void {
    this.replay = event;
    this.next = 0;
    this.taken = 0;
    this.drawn.length = 0;
    this.active = true;
  }

  /** True while an event of the log is replayed (its intent was validated when first accepted). */
  get replaying(): boolean {
    return this.replay !== null;
  }

  /** Ends the intent: nothing can be drawn until the next `begin`. */
  end(): void {
    this.replay = null;
    this.active = false;
  }

  seatKey(): { key: string; hash: string } {
    this.check();
    if (this.replay === null) {
      const key = newSeatKey();
      return { key, hash: hashSeatKey(key) };
    }
    if (this.replay.keyHash === undefined) throw new Error('replay: a take_seat event without its key hash');
    return { key: '', hash: this.replay.keyHash };
  }

  /** Replay: the hashes a `remove_seat` event barred (null live, or for a log written before bars). */
  barred(): readonly string[] | null {
    this.check();
    return this.replay?.barred ?? null;
  }

  id(): string {
    this.check();
    if (this.replay === null) {
      const id = randomBytes(6).toString('base64url');
      this.drawn.push(id);
      return id;
    }
    const id = this.replay.ids?.[this.next];
    if (id === undefined) throw new Error('replay: an event draws more ids than it recorded');
    this.next++;
    return id;
  }

  /** The ids drawn since the last call (what the accepted event records), then none. */
  take(): readonly string[] | null {
    if (this.replay !== null) {
      const ids = this.next > this.taken ? this.replay.ids!.slice(this.taken, this.next) : null;
      this.taken = this.next;
      return ids;
    }
    if (this.drawn.length === 0) return null;
    const ids = [...this.drawn];
    this.drawn.length = 0;
    return ids;
  }

  private check(): void {
    if (!this.active) throw new Error('match: a value was drawn outside apply()');
  }
}

/** One match. */
export class Match {
  readonly seats: SeatTable;
  readonly game: Game;
  readonly clock: GameClock | null;
  readonly press: Press;
  /** Every accepted event, in order (the storage seam: what a log keeps; `eventLog.ts`). */
  private readonly log: EventLog;
  private started = false;
  /** Spectators who joined so far (their default names count from it: "Spectator 3"). */
  private spectatorsSeen = 0;
  private rematchCode: string | null = null;
  /** Hashes (seat keys, devices) of players the host removed: none of them takes a seat again in this game. */
  private readonly barredHashes = new Set<string>();
  /** The device hash each seat was taken with, by the seat's key hash (a key follows its holder through swaps). */
  private readonly devices = new Map<string, string>();
  private vote: RematchVote | null = null;
  private readonly source = new Source();

  constructor(readonly config: RoomConfig) {
    const colours = seatsOf(config.rules);
    this.seats = new SeatTable(colours, config.hostHash ?? null);
    this.game = new Game(config.rules);
    this.log = new EventLog(this.game);
    this.clock = config.clock ? new GameClock(config.clock, colours) : null;
    this.press = new Press({ seats: colours, ...config.press, newId: () => this.drawId() });
  }

  /**
   * Rebuilds a match from its events (a log this server wrote), through the same code path that
   * accepted them; their turns were validated then, so the engine applies them without its
   * legality search (`applyTrusted`, same outcome).
   */
  static restore(config: RoomConfig, events: readonly MatchEvent[]): Match {
    const match = new Match(config);
    for (const event of events) {
      const out = match.apply(event.intent, event.at, event);
      if (!out.ok) throw new Error(`replay: event ${match.log.length} refused: ${out.rejection.code} ${out.rejection.message}`);
    }
    return match;
  }

  /**
   * Rebuilds a match from the longest valid prefix of a log read from a store: the replay stops
   * at the first event that is not one this server could have accepted (`checkEvent.ts`: its
   * shape, a seat colour of the game, the live limits on names and press text), that the match
   * refuses, or whose replay throws or records anything but that one event. Returns the match of
   * the events before it and, when there is one, that event's seq (`events[i]` is seq `i + 1`)
   * and why. A log this server wrote replays whole, as with `restore`.
   */
  static restoreValid(config: RoomConfig, events: readonly unknown[]): { match: Match; broken: LogBreak | null } {
    const match = new Match(config);
    const seats = new Set<string>(match.seats.seats.keys());
    for (let i = 0; i < events.length; i++) {
      const reason = invalidEventReason(events[i], seats) ?? match.replayOne(events[i] as MatchEvent);
      if (reason === null) continue;
      // A refused or thrown replay may have left part of its work behind: the prefix is replayed again.
      return { match: Match.restore(config, events.slice(0, i) as MatchEvent[]), broken: { seq: i + 1, reason } };
    }
    return { match, broken: null };
  }

  /** Replays one event of a log; null when it is accepted as exactly that one event, else why not. */
  private replayOne(event: MatchEvent): string | null {
    const before = this.log.length;
    let out: Outcome;
    try {
      out = this.apply(event.intent, event.at, event);
    } catch (e) {
      return `replay threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (!out.ok) return `refused by the match: ${out.rejection.code}`;
    if (out.refused) return `refused by the match after a flag fall: ${out.refused.code}`;
    if (this.log.length !== before + 1) return `replays as ${this.log.length - before} events, not 1`;
    return null;
  }

  /** Every accepted event, in order, made for the caller (O(events): see `eventCount` and `eventsFrom`). */
  get events(): MatchEvent[] {
    return this.log.slice(0);
  }

  /** The number of accepted events. */
  get eventCount(): number {
    return this.log.length;
  }

  /** The accepted events from `start` to `end` (not included; the last one by default). */
  eventsFrom(start: number, end?: number): MatchEvent[] {
    return this.log.slice(start, end);
  }

  /** The single source of the phase. */
  get phase(): Phase {
    if (!this.started) return 'waiting';
    return this.game.over ? 'over' : 'playing';
  }

  /** The code of this finished game's rematch, once one was created (kept in the log: it outlives the room). */
  get rematch(): string | null {
    return this.rematchCode;
  }

  /** The latest rematch offer of this finished game and its answers (null: none was made). */
  get rematchVote(): RematchVote | null {
    return this.vote;
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
    this.source.begin(replay ?? null);
    try {
      const out = this.dispatch(intent, now);
      if (out.ok && out.event !== null) this.log.push(out.event);
      return out;
    } finally {
      this.source.end();
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
        if (!intent.colour && intent.spectator !== undefined && this.press.roster.isSpectator(intent.spectator)) {
          this.press.roster.addSpectator(intent.spectator, intent.name);
          return this.accepted(intent, now, { listingChanged: true });
        }
        const seat = intent.colour ? this.seats.get(intent.colour) : undefined;
        if (!seat?.keyHash) return refuse('not_seated', 'only a seated player has a name');
        seat.name = intent.name;
        return this.accepted(intent, now, { listingChanged: true });
      }
      case 'start':
        return this.start(intent, now);
      case 'remove_seat':
        return this.removeSeat(intent, now);
      case 'add_bot':
      case 'remove_bot':
        return this.botSeat(intent, now);
      case 'pass_host':
        if (this.phase !== 'waiting') return refuse('already_started', 'the host matters before the start only');
        if (!this.seats.passHost(intent.colour)) return refuse('not_host', 'this seat is not the host');
        return this.accepted(intent, now, { listingChanged: true });
      case 'turn':
      case 'resign':
        return this.play(intent, now);
      case 'flag':
        return this.flag(intent, now);
      case 'press':
        return this.pressIntent(intent, now);
      case 'spectate':
        if (!this.press.addSpectator(intent.id, intent.name || `Spectator ${this.spectatorsSeen + 1}`, intent.limitKey)) {
          return refuse('bad_payload', 'not a spectator id');
        }
        this.spectatorsSeen++;
        return this.accepted(intent, now, { deliveries: [this.press.historyDelivery(intent.id)], listingChanged: true });
      case 'unspectate':
        this.press.removeSpectator(intent.id);
        return this.accepted(intent, now, { listingChanged: true });
      case 'resume':
        if (this.clock?.running) this.clock.startedAt = now;
        return this.accepted(intent, now);
      case 'rematch_offer':
      case 'rematch_answer':
        return this.rematchVoteIntent(intent, now);
      case 'rematch_created':
        if (this.phase !== 'over') return refuse('not_finished', 'a rematch comes after the game');
        if (this.rematchCode !== null) return refuse('rematch_closed', 'this game already has its rematch');
        this.rematchCode = intent.code;
        return this.accepted(intent, now);
    }
  }

  /** True when the host removed a player who held this seat key or device (their hashes). */
  isBarred(hash: string): boolean {
    return this.barredHashes.has(hash);
  }

  private takeSeat(intent: Extract<Intent, { type: 'take_seat' }>, now: number): Outcome {
    if (this.phase !== 'waiting') return refuse('already_started', 'the game has started');
    if (intent.deviceHash !== undefined && this.barredHashes.has(intent.deviceHash)) {
      return refuse('removed', 'the host removed you from this game: you may watch it');
    }
    const seat = this.seats.freeSeat(intent.colour);
    if ('code' in seat) return refuse(seat.code, seat.message);
    const { key, hash } = this.source.seatKey();
    this.seats.take(seat, hash, intent.name, intent.hostTokenHash);
    if (intent.deviceHash !== undefined) this.devices.set(hash, intent.deviceHash);
    return this.accepted(intent, now, { keyHash: hash, listingChanged: true, seat: { colour: seat.colour, key } });
  }

  private swap(intent: Extract<Intent, { type: 'swap' }>, now: number): Outcome {
    const seat = intent.colour ? this.seats.get(intent.colour) : undefined;
    if (!seat?.keyHash) return refuse('not_seated', 'only a seated player can change seats');
    if (this.phase !== 'waiting') return refuse('already_started', 'seats are fixed once the game has started');
    const res = this.seats.requestSwap(seat, intent.to);
    if (!res.ok) return refuse('seat_taken', res.message);
    this.press.moveSeats(res.moves);
    const deliveries = res.moves.map((m) => this.press.historyDelivery(m.to));
    return this.accepted(intent, now, { moves: res.moves, deliveries, listingChanged: res.moves.length > 0 });
  }

  /** What a record's tags say of this game besides its moves: the players' names by seat, `site` and `date` as given. */
  recordInfo(site?: string, date?: number): RecordInfo {
    const names: Partial<Record<Colour, string>> = {};
    for (const s of this.seats.seats.values()) if (s.name) names[s.colour] = s.name;
    return { ...(site ? { site } : {}), ...(date !== undefined ? { date } : {}), names };
  }

  private start(intent: Extract<Intent, { type: 'start' }>, now: number): Outcome {
    const seat = intent.colour ? this.seats.get(intent.colour) : undefined;
    const auto = intent.auto === true && this.seats.allBots();
    if (!seat?.keyHash && !auto) return refuse('not_seated', 'only a seated player can start the game');
    if (this.phase !== 'waiting') return refuse('already_started', 'the game has already started');
    if (!this.seats.allTaken()) return refuse('not_ready', 'every seat must be taken first');
    // A start already in the log was judged when it came (logs older than the host have none).
    if (!auto && !this.source.replaying && this.seats.hostColour() !== seat?.colour) return refuse('not_host', 'only the host can start the game');
    this.started = true;
    this.press.start(this.game.position);
    this.clock?.start(this.game.position.toMove, now);
    return this.accepted(intent, now, { listingChanged: true });
  }

  /** An offer or an answer of the rematch vote, from a seated player (no bot) of the finished game. */
  private rematchVoteIntent(intent: Extract<Intent, { type: 'rematch_offer' | 'rematch_answer' }>, now: number): Outcome {
    const seat = intent.colour ? this.seats.get(intent.colour) : undefined;
    if (!seat?.keyHash || seat.bot !== null) return refuse('not_seated', 'only a seated player can ask for a rematch');
    if (this.phase !== 'over') return refuse('not_finished', 'a rematch can be asked once the game is over');
    if (this.rematchCode !== null) return refuse('rematch_closed', 'this game already has its rematch');
    const vote = this.vote;
    const open = vote !== null && !voteClosed(vote, now);
    if (intent.type === 'rematch_offer') {
      // Two offers at once: the second finds the first open and accepts it.
      if (open) this.vote = answerVote(vote, seat.colour, true);
      else {
        const asked: Colour[] = [];
        for (const s of this.seats.seats.values()) if (s.keyHash !== null && s.bot === null) asked.push(s.colour);
        this.vote = openVote(vote, seat.colour, asked, now);
      }
      return this.accepted(intent, now);
    }
    if (!vote || (!open && vote.accepted.length === 0)) return refuse('no_rematch', 'no rematch is offered: send { action: "offer" }');
    if (!open) return refuse('rematch_closed', 'the rematch offer is closed');
    if (!vote.asked.includes(seat.colour)) return refuse('not_seated', 'this seat was not asked');
    this.vote = answerVote(vote, seat.colour, intent.accept);
    return this.accepted(intent, now);
  }

  private removeSeat(intent: Extract<Intent, { type: 'remove_seat' }>, now: number): Outcome {
    if (!intent.colour || !this.seats.get(intent.colour)?.keyHash) return refuse('not_seated', 'only a seated player can do this');
    if (this.phase !== 'waiting') return refuse('already_started', 'seats are fixed once the game has started');
    if (this.seats.hostColour() !== intent.colour) return refuse('not_host', 'only the host can remove a player');
    if (intent.target === intent.colour) return refuse('bad_payload', 'the host leaves its own seat with leave_seat');
    const keyHash = this.seats.get(intent.target)?.keyHash;
    if (!keyHash) return refuse('not_seated', `the ${intent.target} seat is free`);
    // A replay takes the bar the event recorded; live, the removed seat's key and its device.
    const device = this.devices.get(keyHash);
    const barred = this.source.barred() ?? (device === undefined ? [keyHash] : [keyHash, device]);
    for (const h of barred) this.barredHashes.add(h);
    this.seats.release(intent.target);
    return { ...this.accepted(intent, now, { listingChanged: true, barred }), removed: intent.target };
  }

  /**
   * `add_bot` / `remove_bot`: before the start, the host (or the room, for the `bots` create
   * option, before any other event) seats a bot on a free seat, or frees a bot's seat.
   */
  private botSeat(intent: Extract<Intent, { type: 'add_bot' | 'remove_bot' }>, now: number): Outcome {
    const creating = intent.type === 'add_bot' && intent.atCreation === true;
    if (creating) {
      if (this.events.some((e) => e.intent.type !== 'add_bot')) return refuse('already_started', 'bots of the create options are seated first');
    } else {
      if (!intent.colour || !this.seats.get(intent.colour)?.keyHash) return refuse('not_seated', 'only a seated player can do this');
      if (this.seats.hostColour() !== intent.colour) return refuse('not_host', 'only the host can add or remove bots');
    }
    if (this.phase !== 'waiting') return refuse('already_started', 'seats are fixed once the game has started');
    const target = this.seats.get(intent.target);
    if (!target) return refuse('seat_taken', `there is no ${intent.target} seat in this room`);
    if (intent.type === 'remove_bot') {
      if (target.bot === null) return refuse('not_a_bot', `the ${intent.target} seat holds no bot`);
      this.seats.release(intent.target);
      return this.accepted(intent, now, { listingChanged: true });
    }
    if (target.keyHash !== null) return refuse('seat_taken', `the ${intent.target} seat is taken`);
    const { hash } = this.source.seatKey();
    this.seats.takeBot(target, hash, intent.level);
    return this.accepted(intent, now, { keyHash: hash, listingChanged: true });
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
      // A replayed turn was validated when it was accepted: the engine applies it without its legality search.
      const res = intent.type === 'turn' ? this.game.play(colour, intent.turn, now, this.source.replaying) : this.game.resign(colour, now);
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
    if (flag.event) this.log.push(flag.event);
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
    // A replayed message passed its payload schema when it was accepted (`pressIntent` checked its type).
    const res = this.source.replaying
      ? this.press.replay(intent.member, intent.message, intent.payload, now)
      : this.press.handle(intent.member, intent.message, intent.payload, now);
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
    // A turn's first entry is the turn itself (passes that follow are replayed with it).
    return this.accepted(intent, now, { deliveries, listingChanged, move: intent.type === 'turn' ? entries[0] : undefined });
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
      barred?: readonly string[];
      deliveries?: Delivery[];
      listingChanged?: boolean;
      moves?: readonly SeatMove[];
      seat?: Accepted['seat'];
      /** A turn: its entry in the game (the event is kept as `TurnEvent`). */
      move?: Applied;
    } = {},
  ): Accepted {
    const ids = this.source.take();
    let event: Writable<MatchEvent>;
    if (parts.move !== undefined && intent.type === 'turn' && ids === null) {
      event = new TurnEvent(at, parts.move.move, parts.move.index, intent.standIn === true, boardOf(this.game.rules));
    } else {
      // Optional fields only when present (the event is stored as JSON), set without spreads.
      event = { at, intent };
      if (parts.keyHash !== undefined) event.keyHash = parts.keyHash;
      if (parts.barred !== undefined) event.barred = parts.barred;
      if (ids !== null) event.ids = ids;
    }
    const out: Writable<Accepted> = {
      ok: true,
      event,
      deliveries: parts.deliveries ?? [],
      listingChanged: parts.listingChanged ?? false,
      moves: parts.moves ?? [],
    };
    if (parts.seat) out.seat = parts.seat;
    return out;
  }

  private drawId(): string {
    return this.source.id();
  }
}
