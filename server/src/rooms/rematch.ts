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
 * can reach. The offer lives in memory only: an offer still open does not survive a restart. A
 * created rematch is an event of this game's log (`rematch_created`), so the finished game links
 * to it for good (`GET /api/games/CODE` → `rematch`).
 */
import { type Client, matchMaker } from '@colyseus/core';
import {
  type BotSeatOption,
  type Colour,
  check,
  REMATCH_SECONDS,
  RematchMessage,
  type RematchSeatMessage,
  type RematchStateMessage,
  type RematchStatus,
  rematchColour,
  seatsOf,
} from '@djambi/shared';
import type { Rejection } from '../errors.js';
import { ROOM_NAME } from '../games/directory.js';
import type { Accepted, Intent, Match } from '../match/match.js';
import { defaultName, hashSeatKey, newSeatKey } from '../match/seats.js';
import type { Connections } from './connections.js';
import { hostOption } from './options.js';
import { checkSize } from './validate.js';

/** How often an open offer checks its deadline against the room's clock, ms. */
const POLL_MS = 1000;

/** What the rematch needs of its room (the `DjambiRoom` itself). */
export interface RematchRoom {
  readonly code: string;
  readonly match: Match;
  readonly links: Connections;
  readonly clients: Iterable<Client> & { getById(sessionId: string): Client | undefined };
  broadcast(type: string, message?: unknown): void;
  /** Server time, epoch ms. */
  now(): number;
}

/** Passes an intent through the room's pipeline; `taken` runs once it is accepted, before it is published. */
export type RematchStep = (intent: Intent, taken: (out: Accepted) => void) => Promise<Accepted | null>;

/** A seat to claim in the new game for an accepter. */
export interface RematchClaim {
  readonly colour: Colour;
  readonly name?: string;
  /** The SHA-256 of the new game's host token: this seat hosts. */
  readonly hostTokenHash?: string;
}

interface Offer {
  status: RematchStatus;
  readonly by: Colour;
  readonly asked: readonly Colour[];
  readonly accepted: Colour[];
  readonly declined: Colour[];
  readonly deadline: number;
  code: string | null;
  open: Colour[];
}

function refuse(code: Rejection['code'], message: string): Rejection {
  return { code, message };
}

/** The rematch offer of one room, and the claiming of seats when this room is the rematch. */
export class Rematch {
  private offer: Offer | null = null;
  private poll: ReturnType<typeof setInterval> | null = null;
  /** The new seats, by the accepter's colour here (sent again when its holder joins). */
  private readonly seats = new Map<Colour, RematchSeatMessage>();

  constructor(
    private readonly room: RematchRoom,
    private readonly step: RematchStep,
  ) {}

  /** The `rematch` message listener (the options the rematch repeats are the stored config's, see `createOptions`). */
  listener(): (client: Client, message: unknown) => Rejection | null {
    return (client, message) => this.handle(client.sessionId, message);
  }

  /** A `rematch` message from the connection `sessionId`: null when taken, else the rejection. */
  handle(sessionId: string, message: unknown): Rejection | null {
    const size = checkSize(message);
    if (!size.ok) return size.error;
    const m = check(RematchMessage, message);
    if (!m.ok) return m.error.path === undefined ? refuse('bad_payload', m.error.message) : { ...refuse('bad_payload', m.error.message), path: m.error.path };
    const match = this.room.match;
    const colour = this.room.links.colourOf(sessionId);
    const seat = colour ? match.seats.get(colour) : undefined;
    if (!colour || !seat?.keyHash || seat.bot !== null) return refuse('not_seated', 'only a seated player can ask for a rematch');
    if (match.phase !== 'over') return refuse('not_finished', 'a rematch can be asked once the game is over');
    const offer = this.offer;
    const { action } = m.value;
    // A cancelled or failed offer may be made again.
    if (!offer || offer.status === 'cancelled' || offer.status === 'failed') {
      if (action !== 'offer') return refuse('no_rematch', 'no rematch is offered: send { action: "offer" }');
      this.open(colour);
      return null;
    }
    if (offer.status !== 'open') return refuse('rematch_closed', `the rematch offer is ${offer.status}`);
    this.answer(offer, colour, action !== 'decline');
    return null;
  }

  /**
   * A connection joined, or came back within the grace (it missed the broadcasts meanwhile): it
   * gets the offer, and its new seat if it accepted.
   */
  joined(client: Client): void {
    if (!this.offer) return;
    client.send('rematch_state', this.view(this.offer));
    const colour = this.room.links.colourOf(client.sessionId);
    const seat = colour ? this.seats.get(colour) : undefined;
    if (seat) client.send('rematch_seat', seat);
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

  private open(by: Colour): void {
    const asked: Colour[] = [];
    for (const seat of this.room.match.seats.seats.values()) if (seat.keyHash !== null && seat.bot === null) asked.push(seat.colour);
    this.offer = { status: 'open', by, asked, accepted: [by], declined: [], deadline: this.room.now() + REMATCH_SECONDS * 1000, code: null, open: [] };
    this.poll = setInterval(() => {
      if (this.offer?.status === 'open' && this.room.now() >= this.offer.deadline) void this.close(this.offer);
    }, POLL_MS);
    this.poll.unref?.();
    this.settle(this.offer);
  }

  private answer(offer: Offer, colour: Colour, yes: boolean): void {
    const drop = (list: Colour[]) => {
      const at = list.indexOf(colour);
      if (at >= 0) list.splice(at, 1);
    };
    drop(offer.accepted);
    drop(offer.declined);
    (yes ? offer.accepted : offer.declined).push(colour);
    this.settle(offer);
  }

  /** Closes the offer once every asked player answered; else tells everyone where it stands. */
  private settle(offer: Offer): void {
    if (offer.accepted.length + offer.declined.length >= offer.asked.length) void this.close(offer);
    else this.publish(offer);
  }

  /** The answers are in (or time is up): the new game for the accepters, or nothing. */
  private async close(offer: Offer): Promise<void> {
    this.stopPoll();
    if (offer.accepted.length === 0) {
      offer.status = 'cancelled';
      this.publish(offer);
      return;
    }
    offer.status = 'creating';
    this.publish(offer);
    try {
      await this.create(offer);
      offer.status = 'created';
    } catch (e) {
      console.error('[djambi] rematch failed:', e);
      offer.status = 'failed';
    }
    this.publish(offer);
  }

  /** Creates the new game as `POST /api/rooms` does and claims the accepters' rotated seats there. */
  private async create(offer: Offer): Promise<void> {
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
    const listing = await matchMaker.createRoom(ROOM_NAME, { ...this.createOptions(), bots, ...hostOption(hashSeatKey(hostToken)) });
    const next = (matchMaker.getLocalRoomById(listing.roomId) as { rematch?: unknown } | undefined)?.rematch;
    if (!(next instanceof Rematch)) throw new Error(`rematch: the new room ${listing.roomId} is not in this process`);
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
    offer.code = listing.roomId;
    // This game's log keeps the link, so its page shows the rematch after the room is gone.
    if (!(await this.step({ type: 'rematch_created', code: listing.roomId }, () => undefined))) {
      console.error(`[djambi ${this.room.code}] the rematch ${listing.roomId} could not be recorded in this game's log`);
    }
    offer.open = offer.asked.filter((c) => !offer.accepted.includes(c)).map((c) => rematchColour(c, colours));
    for (const c of order) {
      const colour = rematchColour(c, colours);
      const seat: RematchSeatMessage = { code: listing.roomId, colour, seatKey: keys.get(colour)! };
      this.seats.set(c, seat);
      const sid = this.room.links.of(c).sessionId;
      const client = sid === null ? undefined : this.room.clients.getById(sid);
      client?.send('rematch_seat', seat);
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

  private publish(offer: Offer): void {
    this.room.broadcast('rematch_state', this.view(offer));
  }

  private view(o: Offer): RematchStateMessage {
    return {
      status: o.status,
      by: o.by,
      asked: [...o.asked],
      accepted: [...o.accepted],
      declined: [...o.declined],
      deadline: o.deadline,
      code: o.code,
      open: [...o.open],
    };
  }

  private stopPoll(): void {
    if (this.poll !== null) clearInterval(this.poll);
    this.poll = null;
  }
}
