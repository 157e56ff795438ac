/**
 * One live game, apart from its transport: the journal (persist, then apply), who holds which
 * seat, the spectators, the flag timer, the computer players and the rematch. Every intent, from
 * a person, a bot or a timer, takes one path: `submit` saves it, applies it and hands what to
 * publish to the host as data (seat keys to send, connections to evict, deliveries by session
 * id, whether the listing changed). The host (the Colyseus room) only sends it.
 */
import type { Colour, JoinOptions } from '@djambi/shared';
import { JoinRefused, type Rejection } from '../errors.js';
import { hashSeatKey } from '../match/seats.js';
import type { Accepted, Intent, Match } from '../match/match.js';
import type { MemberId } from '../press/types.js';
import { BotDriver, type BotSettings, seedOfCode } from './bots.js';
import { Connections } from './connections.js';
import type { Journal } from './journal.js';
import { Rematch } from './rematch.js';
import { Alarms } from './timers.js';

/** A seat's key, for its holder only. */
export interface SeatNotice {
  readonly sessionId: string;
  readonly colour: Colour;
  readonly seatKey: string;
}

/** A connection that loses its seat: reclaimed from another device, or freed by the host. */
export interface Eviction {
  readonly sessionId: string;
  readonly colour: Colour;
  readonly reason: 'reclaimed' | 'removed';
}

/** A message for exactly these connections. */
export interface Addressed {
  readonly sessionIds: readonly string[];
  readonly type: string;
  readonly payload: unknown;
}

/** What the host sends after a change, in this order: seats, evictions, the state, the deliveries. */
export interface Publication {
  readonly seats: readonly SeatNotice[];
  readonly evictions: readonly Eviction[];
  /** The public listing changed too. */
  readonly listing: boolean;
  readonly deliveries: readonly Addressed[];
  /** The table's next deadline (epoch ms; null: none): the host calls `tick(alarm)` once it is reached. */
  readonly alarm: number | null;
}

/** What a table asks of its host. */
export interface TableHost {
  /** Sends a publication (after every accepted intent, and whenever the table's presence changed). */
  publish(publication: Publication): void;
  /** Answers a refused intent to the connection that sent it. */
  reply(sessionId: string, type: string, rejection: Rejection): void;
  /** Another process appended to this game's log: this copy must close. */
  fenced(): void;
  /** A bug was thrown on the way: nothing thrown reaches the caller of `act`. */
  fault(error: unknown): void;
  /** Whether nobody is connected or on the way back (for the idle timer). */
  empty(): boolean;
  /** Seconds an empty room is kept. */
  idleSeconds(): number;
  /** The room stayed empty for its idle lifetime (seen at a `tick`). */
  expire(): void;
  /** Sends a message to one connection, and to every connection. */
  send(sessionId: string, type: string, payload: unknown): void;
  broadcast(type: string, payload: unknown): void;
  /** Creates another game (a rematch) with these create options: its code and its rematch. */
  createGame(options: Record<string, unknown>): Promise<{ readonly code: string; readonly rematch: Rematch }>;
}

/** The table's settings: its clock, its computer players, and what it reports. */
export interface TableSettings {
  readonly now: () => number;
  readonly bots: BotSettings;
  /** A turn was accepted and took `ms` from its arrival to its publication. */
  readonly turnPublished?: (ms: number) => void;
}

/** Who sent an intent: its connection and the message type to answer a refusal as. */
export interface Sender {
  readonly sessionId: string;
  readonly type: string;
}

/** Optional callbacks of one `submit`: a refusal (a join), an acceptance before it is published. */
export interface SubmitHooks {
  readonly refused?: (rejection: Rejection) => void;
  readonly accepted?: (out: Accepted) => void;
}

const EMPTY: Omit<Publication, 'alarm'> = Object.freeze({ seats: [], evictions: [], listing: false, deliveries: [] });

/** One live game. */
export class Table {
  readonly links: Connections;
  /** Session ids of the connected spectators (their press member ids). */
  readonly spectatorIds = new Set<string>();
  private readonly alarms: Alarms;
  readonly bots: BotDriver;
  readonly rematch: Rematch;
  /** The room went: intents still in the journal are saved, but nothing is published any more. */
  private disposed = false;
  /** The room closed because it stayed empty for its idle lifetime (not a restart, not a fault). */
  expired = false;

  constructor(
    readonly journal: Journal,
    private readonly settings: TableSettings,
    private readonly host: TableHost,
    seats: readonly Colour[],
  ) {
    this.links = new Connections(seats);
    this.alarms = new Alarms({
      now: () => this.now(),
      msToFlag: () => this.match.msToFlag(this.now()),
      flag: () => this.act({ type: 'flag' }),
      empty: () => host.empty(),
      idleSeconds: () => host.idleSeconds(),
      expire: () => {
        this.expired = true;
        host.expire();
      },
    });
    this.bots = new BotDriver(
      {
        match: () => this.match,
        links: this.links,
        // Never rejects: a bug while publishing goes to the host's fault handler (the bot's intent is then lost with the room).
        submit: (intent, refused) =>
          this.submit(intent, undefined, { refused }).catch((e: unknown) => {
            host.fault(e);
            return null;
          }),
        now: () => this.now(),
        seed: seedOfCode(journal.code),
        fault: (e) => host.fault(e),
      },
      settings.bots,
    );
    const table = this;
    this.rematch = new Rematch(
      {
        code: journal.code,
        get match() {
          return table.match;
        },
        links: this.links,
        now: () => this.now(),
        send: (sessionId, type, payload) => host.send(sessionId, type, payload),
        broadcast: (type, payload) => host.broadcast(type, payload),
        createGame: (options) => host.createGame(options),
      },
      (intent, taken, sessionId) => this.submit(intent, sessionId === undefined ? undefined : { sessionId, type: 'rematch' }, { accepted: taken }),
    );
  }

  /** The game code. */
  get code(): string {
    return this.journal.code;
  }

  /** The match, as every saved intent left it. */
  get match(): Match {
    return this.journal.match;
  }

  /** Server time, epoch ms. */
  now(): number {
    return this.settings.now();
  }

  /** `submit` for a caller that does not wait: never throws, a bug goes to the host's `fault`. */
  act(intent: Intent, from?: Sender): void {
    this.submit(intent, from).catch((e) => this.host.fault(e));
  }

  /**
   * One intent: saved, applied, then published; a refusal is answered to `from` (and to
   * `hooks.refused`). Resolves with what the match accepted, or null.
   */
  async submit(intent: Intent, from?: Sender, hooks: SubmitHooks = {}): Promise<Accepted | null> {
    const arrived = intent.type === 'turn' && this.settings.turnPublished ? performance.now() : -1;
    const entry = await this.journal.submit(intent);
    if (!entry.ok) {
      if (from) this.host.reply(from.sessionId, from.type, entry.rejection);
      if (entry.fenced) this.host.fenced();
      hooks.refused?.(entry.rejection);
      return null;
    }
    const out = entry.out;
    hooks.accepted?.(out);
    this.publishAccepted(out);
    // An accepted entry may be a flag fall with the turn itself refused (`out.refused`): not a turn.
    if (arrived >= 0 && !out.refused) this.settings.turnPublished?.(performance.now() - arrived);
    if (out.refused && from) this.host.reply(from.sessionId, from.type, out.refused);
    return out;
  }

  /** Publishes what the table shows now (presence changed, a seat was reconnected...). */
  refresh(listing: boolean): void {
    this.publish({ ...EMPTY, listing });
  }

  /** The table is open: its clock's deadline and, if nobody is here, its expiry; then everything is published. */
  opened(): void {
    this.alarms.scheduleFlag();
    this.alarms.armIdle();
    this.refresh(true);
  }

  /** The host's timer reached the deadline `at` of a publication: runs what is due; the next deadline. */
  tick(at: number): number | null {
    return this.disposed ? null : this.alarms.tick(at);
  }

  /** Somebody joined: the room does not expire. */
  joined(): void {
    this.alarms.clearIdle();
  }

  /** A connection went that held no seat any more (replaced by a reclaim, or a join that failed): the room may expire. */
  vacated(): void {
    this.alarms.armIdle();
    this.refresh(false);
  }

  /** The seat key notice of `colour` for its holder, with its press history (none if nobody holds it here). */
  seatWithHistory(colour: Colour): Omit<Publication, 'alarm'> {
    return { ...EMPTY, seats: this.notices([colour]), deliveries: this.address([this.match.historyDelivery(colour)]) };
  }

  /** Sends `publication` with the bots' seats shown first, and lets the bots act on it afterwards (nothing once disposed). */
  publish(publication: Omit<Publication, 'alarm'>): void {
    if (this.disposed) return;
    this.bots.sync();
    this.host.publish({ ...publication, alarm: this.alarms.next });
    this.bots.afterCommit();
  }

  /**
   * A game re-opened from the log: the seats show `away` until their holders come back with
   * their keys, spectators of the dead process are gone, and the running clock restarts now.
   */
  async resume(): Promise<void> {
    const match = this.match;
    for (const seat of match.seats.seats.values()) if (seat.keyHash !== null) this.links.absent(seat.colour, this.now());
    const intents: Intent[] = match.press.roster.spectatorIds().map((id) => ({ type: 'unspectate', id }));
    if (match.phase === 'playing') intents.push({ type: 'resume' });
    for (const intent of intents) {
      const entry = await this.journal.submit(intent);
      if (!entry.ok) throw new JoinRefused('storage_unavailable', entry.rejection.message);
    }
    await this.journal.finishIfOver();
  }

  /**
   * A connection joins as its (checked) join options ask: as a spectator, as a seat's holder
   * coming back with its key (from this device or another one, whose connection is then
   * evicted), or as a newcomer taking a free seat. Throws `JoinRefused`.
   */
  async arrive(sessionId: string, join: JoinOptions, address: string): Promise<void> {
    if (join.spectate) {
      this.spectatorIds.add(sessionId);
      const out = await this.submit({ type: 'spectate', id: sessionId, name: join.name, limitKey: `addr:${address}` }, undefined, { refused: joinFailure });
      if (!out) this.spectatorIds.delete(sessionId);
      return;
    }
    if (join.seatKey !== undefined) {
      await this.journal.settled(); // the seat as every earlier intent left it
      const seat = this.match.seats.byKey(join.seatKey);
      if (!seat && this.match.isBarred(hashSeatKey(join.seatKey))) throw new JoinRefused('removed', 'the host removed you from this game: you may watch it');
      if (!seat) throw new JoinRefused('bad_seat_key', 'no seat has this key');
      const replaced = this.links.connect(seat.colour, sessionId, join.seatKey, this.now());
      const evictions: Eviction[] = replaced === null ? [] : [{ sessionId: replaced, colour: seat.colour, reason: 'reclaimed' }];
      this.publish({ ...this.seatWithHistory(seat.colour), evictions });
      if (join.name && join.name !== seat.name) await this.submit({ type: 'rename', colour: seat.colour, name: join.name });
      this.refresh(true);
      return;
    }
    // The host token itself is never kept: the seat it takes is the host's when its hash matches.
    const host = join.hostToken === undefined ? {} : { hostTokenHash: hashSeatKey(join.hostToken) };
    // Nor is the device token: its hash is what bars a removed player (`removed`).
    const device = join.device === undefined ? {} : { deviceHash: hashSeatKey(join.device) };
    await this.submit({ type: 'take_seat', name: join.name, colour: join.colour, ...host, ...device }, undefined, {
      refused: joinFailure,
      accepted: (out) => {
        if (out.seat) this.links.connect(out.seat.colour, sessionId, out.seat.key, this.now());
      },
    });
    const colour = this.links.colourOf(sessionId);
    if (colour) this.publish(this.seatWithHistory(colour));
  }

  /** A spectator's connection went. */
  spectatorLeft(sessionId: string): void {
    this.spectatorIds.delete(sessionId);
    this.alarms.armIdle(); // published with the unspectate
    this.act({ type: 'unspectate', id: sessionId });
  }

  /** The seat holder `sessionId` left on purpose (or dropped without a grace): before the start its seat is free, after it the seat waits for its key. */
  left(sessionId: string, colour: Colour, consented: boolean): void {
    if (consented && this.match.phase === 'waiting') {
      this.links.free(colour, this.now());
      this.alarms.armIdle(); // published with the leave
      this.act({ type: 'leave_seat', colour });
    } else {
      this.links.away(sessionId, this.now());
      this.alarms.armIdle();
      this.refresh(true);
      this.handOverHost(colour);
    }
  }

  /** The seat holder's connection dropped: it may come back within the grace period. */
  dropped(sessionId: string): void {
    this.links.dropped(sessionId, this.now());
    this.refresh(false);
  }

  /** A dropped connection came back within its grace. */
  back(sessionId: string): void {
    const again = this.links.reconnected(sessionId, this.now());
    this.alarms.clearIdle();
    this.publish({ ...(again ? this.seatWithHistory(again) : EMPTY), listing: true });
  }

  /** A dropped connection's grace ran out (or its reconnection was cancelled): its seat shows as away. */
  gone(sessionId: string, colour: Colour): void {
    this.links.away(sessionId, this.now()); // no-op if the seat was reclaimed meanwhile
    this.handOverHost(colour);
    this.alarms.armIdle();
    this.refresh(true);
  }

  /** Before the start, the host's seat `colour` that is away for good passes the host on. */
  private handOverHost(colour: Colour): void {
    const match = this.match;
    if (match.phase !== 'waiting' || match.seats.hostColour() !== colour || this.links.of(colour).presence !== 'away') return;
    this.act({ type: 'pass_host', colour });
  }

  /** Stops the table's timers and its bots (the room goes). */
  dispose(): void {
    this.disposed = true;
    this.bots.dispose();
    this.rematch.dispose();
    this.alarms.clearAll();
  }

  /** An accepted intent: seat moves and removals applied to the links, the deadlines set, then everything published. */
  private publishAccepted(out: Accepted): void {
    const now = this.now();
    const evictions: Eviction[] = [];
    if (out.moves.length > 0) this.links.move(out.moves, now);
    if (out.removed) {
      // The host freed this seat: its holder is told, then watches (its key no longer works).
      const sid = this.links.of(out.removed).sessionId;
      this.links.free(out.removed, now);
      if (sid !== null) evictions.push({ sessionId: sid, colour: out.removed, reason: 'removed' });
    }
    this.alarms.scheduleFlag();
    if (this.match.phase === 'over') this.alarms.armIdle();
    this.publish({
      seats: this.notices(out.moves.map((m) => m.to)),
      evictions,
      listing: out.listingChanged,
      deliveries: this.address(out.deliveries),
    });
  }

  /** The seat notices of these colours' connected holders. */
  private notices(colours: readonly Colour[]): SeatNotice[] {
    const out: SeatNotice[] = [];
    for (const colour of colours) {
      const link = this.links.of(colour);
      if (link.sessionId !== null && link.key !== null) out.push({ sessionId: link.sessionId, colour, seatKey: link.key });
    }
    return out;
  }

  /** Deliveries with the session ids of the connected members they name (the others find them in their history). */
  private address(deliveries: readonly { readonly to: readonly MemberId[]; readonly type: string; readonly payload: unknown }[]): Addressed[] {
    return deliveries.map((d) => ({ type: d.type, payload: d.payload, sessionIds: d.to.map((m) => this.sessionOf(m)).filter((s) => s !== null) }));
  }

  /** The session id of a press member's connection: a seat's holder, or the spectator itself. */
  private sessionOf(member: MemberId): string | null {
    if (this.match.seats.get(member as Colour)) return this.links.of(member as Colour).sessionId;
    return this.spectatorIds.has(member) ? member : null;
  }
}

/** A join the match or the store refused: the join error the SDK's promise rejects with. */
function joinFailure(rejection: Rejection): never {
  const code = rejection.code;
  throw new JoinRefused(
    code === 'no_free_seat' || code === 'storage_unavailable' || code === 'removed' ? code : code === 'already_started' ? 'game_started' : 'seat_taken',
    rejection.message,
  );
}
