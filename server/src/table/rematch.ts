/**
 * The rematch of a finished game (docs/PROTOCOL.md, "Rematch"). A seated player offers it
 * (`rematch { action: 'offer' }`, which is also its acceptance); every other seated player
 * accepts or declines; bots accept at once. When every asked player has answered, or
 * `REMATCH_SECONDS` have passed with at least one acceptance, the room creates the new game
 * through the matchmaker exactly as `POST /api/rooms` does (same create options, a host token
 * whose hash only the new room keeps), seats each accepter one colour further in turn order
 * there (a `take_seat` through the new room's own pipeline, so the key is drawn and logged like
 * any join), and sends each accepter its new seat key privately (`rematch_seat`). Everyone gets
 * `rematch_state` on every change, and again on joining or coming back (`joined`). The options
 * repeated are the stored config's, so a game re-opened from the log repeats them too. No create
 * option is added: the seats are claimed on the new room object itself, which only server code
 * can reach. Every offer and answer is an event of this game's log (`rematch_offer`,
 * `rematch_answer`, see `match/rematchVote.ts`), so an offer still open survives a restart with
 * its answers and deadline; so is the created rematch (`rematch_created`), so the finished game
 * links to it for good (`GET /api/games/CODE` → `rematch`). Only the new seat keys live in
 * memory (keys are never stored): an accepter away until a restart does not get its key.
 */
import { type BotSeatOption, type Colour, type RematchSeatMessage, type RematchStateMessage, type RematchStatus, rematchColour, seatsOf } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import type { Accepted, Intent, Match } from '../match/match.js';
import { type RematchVote, voteClosed } from '../match/rematchVote.js';
import { defaultName, hashSeatKey, newSeatKey } from '../match/seats.js';
import type { Connections } from './connections.js';
import { hostOption } from '../match/config.js';

/** How often an open offer checks its deadline against the room's clock, ms. */
const POLL_MS = 1000;

/** What the rematch needs of its table and the table's host. */
export interface RematchRoom {
  readonly code: string;
  readonly match: Match;
  readonly links: Connections;
  /** Server time, epoch ms. */
  now(): number;
  /** Sends a message to one connection. */
  send(sessionId: string, type: string, message: unknown): void;
  /** Sends a message to every connection. */
  broadcast(type: string, message: unknown): void;
  /** Creates the new game with these create options (as `POST /api/rooms` does): its code, and its rematch to claim seats in. */
  createGame(options: Record<string, unknown>): Promise<{ readonly code: string; readonly rematch: Rematch }>;
}

/**
 * Passes an intent through the table; `taken` runs once it is accepted, before it is
 * published; a refusal is answered to `sessionId`, if any.
 */
export type RematchStep = (intent: Intent, taken: (out: Accepted) => void, sessionId?: string) => Promise<Accepted | null>;

/** A seat to claim in the new game for an accepter. */
export interface RematchClaim {
  readonly colour: Colour;
  readonly name?: string;
  /** The SHA-256 of the new game's host token: this seat hosts. */
  readonly hostTokenHash?: string;
}

/** What only this process knows of a vote of the log: the new game being made, or its failure. */
interface Making {
  /** The vote's `round`. */
  readonly round: number;
  status: 'creating' | 'failed';
}

function refuse(code: Rejection['code'], message: string): Rejection {
  return { code, message };
}

/** The rematch offer of one room, and the claiming of seats when this room is the rematch. */
export class Rematch {
  private making: Making | null = null;
  private poll: ReturnType<typeof setInterval> | null = null;
  /** The new seats, by the accepter's colour here (sent again when its holder joins). */
  private readonly seats = new Map<Colour, RematchSeatMessage>();

  constructor(
    private readonly room: RematchRoom,
    private readonly step: RematchStep,
  ) {}

  /**
   * A checked `rematch` message from `sessionId`: null when passed on to the log, else the
   * rejection. The match judges the offer or answer (seat, phase, open vote:
   * `match/rematchVote.ts`); only the new game being made is this process's to refuse.
   */
  request(sessionId: string, action: 'offer' | 'accept' | 'decline'): Rejection | null {
    if (this.status() === 'creating') return refuse('rematch_closed', 'the rematch offer is creating');
    const colour = this.room.links.colourOf(sessionId);
    this.submit(action === 'offer' ? { type: 'rematch_offer', colour } : { type: 'rematch_answer', colour, accept: action === 'accept' }, sessionId);
    return null;
  }

  /**
   * A connection joined, or came back within the grace (it missed the broadcasts meanwhile): it
   * gets the offer, and its new seat if it accepted.
   */
  joined(sessionId: string): void {
    const view = this.view();
    if (!view) return;
    this.room.send(sessionId, 'rematch_state', view);
    const colour = this.room.links.colourOf(sessionId);
    const seat = colour ? this.seats.get(colour) : undefined;
    if (seat) this.room.send(sessionId, 'rematch_seat', seat);
  }

  /**
   * The room was opened on a log (a restart, or another process's game): an offer it left open
   * waits for its deadline again, and one whose answers were all in is closed now.
   */
  resume(): void {
    const status = this.status();
    if (status === 'open' || status === 'creating') this.startPoll();
  }

  /** This room is the rematch: takes `claims` in order (kept away until their holders join); their keys by new colour. */
  async claim(claims: readonly RematchClaim[]): Promise<Map<Colour, string>> {
    const keys = new Map<Colour, string>();
    for (const c of claims) {
      const intent: Intent = {
        type: 'take_seat',
        colour: c.colour,
        ...(c.name ? { name: c.name } : {}),
        ...(c.hostTokenHash ? { hostTokenHash: c.hostTokenHash } : {}),
      };
      const out = await this.step(intent, () => this.room.links.absent(c.colour, this.room.now()));
      if (!out?.seat) throw new Error(`rematch: the ${c.colour} seat could not be claimed`);
      keys.set(out.seat.colour, out.seat.key);
    }
    return keys;
  }

  /** Stops the deadline check (the room is disposed). */
  dispose(): void {
    this.stopPoll();
  }

  /**
   * Where the vote stands (null: no offer was made): from the log (`created`, the answers, the
   * deadline), and from this process for the new game being made (`creating`, `failed`).
   */
  private status(): RematchStatus | null {
    const match = this.room.match;
    const vote = match.rematchVote;
    if (match.rematch !== null) return 'created';
    if (!vote) return null;
    if (this.making?.round === vote.round) return this.making.status;
    if (!voteClosed(vote, this.room.now())) return 'open';
    // Closed: cancelled without an acceptance; else its new game is about to be made (`closable`).
    return vote.accepted.length === 0 ? 'cancelled' : 'creating';
  }

  /** The vote is closed with an acceptance and nothing is making its game yet. */
  private closable(): boolean {
    const match = this.room.match;
    const vote = match.rematchVote;
    return vote !== null && match.rematch === null && this.making?.round !== vote.round && vote.accepted.length > 0 && voteClosed(vote, this.room.now());
  }

  /** An offer or answer through the room's log (a refusal there is answered to `client`); then where it stands. */
  private submit(intent: Intent, sessionId: string): void {
    this.step(intent, () => undefined, sessionId)
      .then((out) => {
        if (out) this.settle();
      })
      .catch((e) => console.error('[djambi] rematch:', e));
  }

  /** After an answer: closes the vote once every asked player answered; else tells everyone where it stands. */
  private settle(): void {
    if (this.closable()) void this.close();
    else {
      if (this.status() === 'open') this.startPoll();
      else this.stopPoll();
      this.publish();
    }
  }

  /** The answers are in (or time is up) with an acceptance: the new game for the accepters. */
  private async close(): Promise<void> {
    this.stopPoll();
    const vote = this.room.match.rematchVote;
    if (!vote) return;
    const making: Making = { round: vote.round, status: 'creating' };
    this.making = making;
    this.publish();
    try {
      await this.create(vote);
    } catch (e) {
      console.error('[djambi] rematch failed:', e);
      making.status = 'failed';
    }
    this.publish();
  }

  /** Creates the new game as `POST /api/rooms` does and claims the accepters' rotated seats there. */
  private async create(offer: RematchVote): Promise<void> {
    const match = this.room.match;
    const colours = seatsOf(match.config.rules);
    // Each bot moves one colour on with its level and its personality (stored per seat colour).
    const bots: Partial<Record<Colour, BotSeatOption>> = {};
    for (const seat of match.seats.seats.values()) {
      if (seat.bot === null) continue;
      const personality = match.config.bots?.personalities[seat.colour];
      bots[rematchColour(seat.colour, colours)] = { level: seat.bot, ...(personality ? { personality } : {}) };
    }
    const hostToken = newSeatKey();
    const created = await this.room.createGame({ ...this.createOptions(), bots, ...hostOption(hashSeatKey(hostToken)) });
    const next = created.rematch;
    // The offerer hosts; if it declined after all, the first to accept does.
    const host = offer.accepted.includes(offer.by) ? offer.by : offer.accepted[0];
    const order = [host, ...offer.accepted.filter((c) => c !== host)];
    const claims = order.map((c): RematchClaim => {
      const name = match.seats.get(c)?.name;
      return {
        colour: rematchColour(c, colours),
        ...(name && name !== defaultName(c) ? { name } : {}),
        ...(c === host ? { hostTokenHash: hashSeatKey(hostToken) } : {}),
      };
    });
    const keys = await next.claim(claims);
    // This game's log keeps the link, so its page shows the rematch after the room is gone.
    if (!(await this.step({ type: 'rematch_created', code: created.code }, () => undefined))) {
      throw new Error(`the rematch ${created.code} could not be recorded in the log of ${this.room.code}`);
    }
    for (const c of order) {
      const colour = rematchColour(c, colours);
      const seat: RematchSeatMessage = { code: created.code, colour, seatKey: keys.get(colour)! };
      this.seats.set(c, seat);
      const sid = this.room.links.of(c).sessionId;
      if (sid !== null) this.room.send(sid, 'rematch_seat', seat);
    }
  }

  /**
   * The create options of this game, as a `POST /api/rooms` body, from its stored config (so a
   * game re-opened from the log repeats them too; one stored before the bots' options gets their defaults).
   */
  private createOptions(): Record<string, unknown> {
    const c = this.room.match.config;
    return {
      rules: c.rules,
      clock: c.clock ? { initialSeconds: c.clock.initialMs / 1000, incrementSeconds: c.clock.incrementMs / 1000 } : null,
      visibility: c.visibility,
      press_visibility: c.press.press_visibility,
      reveal_press_after_game: c.press.reveal_press_after_game,
      ...(c.bots ? { autostart: c.bots.autostart, stand_in: c.bots.standIn } : {}),
    };
  }

  private publish(): void {
    const view = this.view();
    if (view) this.room.broadcast('rematch_state', view);
  }

  /** The `rematch_state` of the latest offer (null: none was made). */
  private view(): RematchStateMessage | null {
    const match = this.room.match;
    const vote = match.rematchVote;
    const status = this.status();
    if (!vote || status === null) return null;
    const colours = seatsOf(match.config.rules);
    return {
      status,
      by: vote.by,
      asked: [...vote.asked],
      accepted: [...vote.accepted],
      declined: [...vote.declined],
      deadline: vote.deadline,
      code: match.rematch,
      // The new game's seats left free: of the players who did not accept, one colour on.
      open: status === 'created' ? vote.asked.filter((c) => !vote.accepted.includes(c)).map((c) => rematchColour(c, colours)) : [],
    };
  }

  /** Checks the deadline (and a vote left closable by a restart) every `POLL_MS`. */
  private startPoll(): void {
    if (this.poll !== null) return;
    this.poll = setInterval(() => {
      if (this.closable()) void this.close();
      else if (this.status() !== 'open') {
        // Time is up without an acceptance: cancelled.
        this.stopPoll();
        this.publish();
      }
    }, POLL_MS);
    this.poll.unref?.();
  }

  private stopPoll(): void {
    if (this.poll !== null) clearInterval(this.poll);
    this.poll = null;
  }
}
