/**
 * The `djambi` room: a thin adapter between Colyseus, the engine and the press (negotiation).
 * It maps connections to seats and press members, dispatches validated messages to
 * `handlers/`, publishes the model through `mirror`, and sends the press's deliveries to
 * exactly the connections they name. No game or press rule lives here.
 */
import { getMessageBytes, Protocol, Room, ServerError, type Client, type Deferred, type Delayed } from '@colyseus/core';
import { seatsOf, type Colour, type Position } from '@djambi/shared';
import { JOIN_ERROR_STATUS, type JoinErrorCode, type Rejection } from '../errors.js';
import { Press } from '../press/index.js';
import type { Delivery, DrawOfferView, MemberId, PressVisibility } from '../press/types.js';
import { GameClock } from './clock.js';
import { releaseCode, reserveCode } from './codes.js';
import type { Handler, RoomContext } from './context.js';
import { Game, type Applied } from './game.js';
import { shareHandshake } from './handshake.js';
import { HANDLERS } from './handlers/index.js';
import { mirror, type Phase } from './mirror.js';
import { CREATE_KEYS, parseRoomConfig, type RoomConfig, type RoomDefaults } from './options.js';
import { DjambiState } from './schema.js';
import { SeatTable, type Seat } from './seats.js';
import { checkJoinOptions, type JoinOptions } from './validate.js';

/** 4 seats plus at least 100 spectators (reserved reconnection seats count too). */
export const MAX_CLIENTS = 120;

/** Server-side settings of the room class (see `createServer`). */
export interface DjambiRoomSettings extends RoomDefaults {
  /** Public base URL for invite links, e.g. `http://localhost:2567`; null = not known. */
  readonly publicUrl: string | null;
  /** The clock of the room, epoch ms (`Date.now`; tests move it forward). */
  readonly now: () => number;
}

/** Public description of a room (listing metadata and `GET /api/rooms/CODE`). */
export interface RoomListing {
  readonly code: string;
  readonly phase: Phase;
  readonly visibility: 'private' | 'public';
  readonly press_visibility: PressVisibility;
  readonly reveal_press_after_game: boolean;
  readonly players: number;
  readonly seats: { colour: Colour; name: string; presence: string }[];
  readonly seatsTaken: number;
  readonly spectators: number;
  readonly clock: { initialSeconds: number; incrementSeconds: number } | null;
  readonly rules: Record<string, unknown>;
  readonly moves: number;
  readonly createdAt: number;
}

interface AuthData {
  readonly join: JoinOptions;
}

function joinError(code: JoinErrorCode, message: string): ServerError {
  return new ServerError(JOIN_ERROR_STATUS[code], `${code}: ${message}`);
}

/** The `rejected` reply: the refused message type, the code, a text, and `retryAfterMs` for `rate_limited`. */
interface RejectedMessage extends Rejection {
  readonly type: string;
}

export class DjambiRoom extends Room<DjambiState> implements RoomContext {
  /** Set by `createServer` through a subclass. */
  static settings: DjambiRoomSettings = { graceSeconds: 20, idleSeconds: 600, publicUrl: null, now: Date.now };

  override maxClients = MAX_CLIENTS;
  override autoDispose = false;
  override state = new DjambiState();

  config!: RoomConfig;
  seats!: SeatTable;
  game!: Game;
  gameClock: GameClock | null = null;
  press!: Press;
  phase: Phase = 'waiting';
  code = '';
  private createdAt = 0;
  private readonly spectatorIds = new Set<string>();
  private readonly reconnecting = new Map<string, Deferred<Client>>();
  private flagTimer: Delayed | null = null;
  private idleTimer: Delayed | null = null;

  override async onCreate(options: unknown): Promise<void> {
    const settings = (this.constructor as typeof DjambiRoom).settings;
    const join = checkJoinOptions(options, CREATE_KEYS);
    if (!join.ok) this.failCreate(joinError('bad_options', join.error.message));
    const parsed = parseRoomConfig(options, settings);
    if (!parsed.ok) this.failCreate(joinError(parsed.code, parsed.message));
    this.config = parsed.value;
    try {
      this.code = await reserveCode(this.presence);
    } catch (e) {
      this.failCreate(new ServerError(500, `internal_error: ${(e as Error).message}`));
    }
    this.roomId = this.code;
    this.createdAt = this.now();
    const colours = seatsOf(this.config.rules);
    this.seats = new SeatTable(colours);
    this.game = new Game(this.config.rules);
    this.gameClock = this.config.clock ? new GameClock(this.config.clock, colours) : null;
    this.press = new Press({ seats: colours, ...this.config.press });

    for (const [type, handler] of Object.entries(HANDLERS)) {
      this.onMessage(type, (client, message) => this.dispatch(type, handler, client, message));
    }
    this.onMessage('*', (client, type) => {
      // `type` comes from the client: a string or a number (or anything, for the type "*").
      const name = typeof type === 'string' || typeof type === 'number' ? String(type).slice(0, 64) : '?';
      this.reply(client, name, { code: 'unknown_message', message: `unknown message type "${name}"` });
    });
    // Colyseus's own fallback key: a client could name it explicitly.
    this.onMessage('__no_message_handler', (client) => {
      this.reply(client, '__no_message_handler', { code: 'unknown_message', message: 'unknown message type' });
    });

    if (this.config.visibility === 'private') {
      await this.setPrivate(true).catch(async (e: Error) => {
        await releaseCode(this.presence, this.code);
        this.failCreate(new ServerError(500, `internal_error: ${e.message}`));
      });
    }
    shareHandshake(this);
    mirror(this, this.state);
    this.updateListing();
    this.armIdleTimer();
  }

  /**
   * Colyseus 0.16 does not dispose a room whose onCreate fails, and its patch interval would
   * keep the process alive: stop it before failing.
   */
  private failCreate(error: ServerError): never {
    this.patchRate = null as unknown as number;
    this.clock.clear();
    this.clock.stop();
    throw error;
  }

  override onAuth(_client: Client, options: unknown): AuthData {
    const join = checkJoinOptions(options, CREATE_KEYS);
    if (!join.ok) throw joinError('bad_options', join.error.message);
    return { join: join.value };
  }

  override onJoin(client: Client, _options: unknown, auth: AuthData): void {
    const opts = auth.join;
    const now = this.now();
    if (opts.spectate) {
      this.spectatorIds.add(client.sessionId);
      this.safely('spectator join', () => {
        this.press.addSpectator(client.sessionId, opts.name);
        this.deliver([this.press.historyDelivery(client.sessionId)]);
      });
    } else if (opts.seatKey !== undefined) {
      const res = this.seats.reclaim(opts.seatKey, client.sessionId, now, opts.name);
      if (!res) throw joinError('bad_seat_key', 'no seat has this key');
      if (res.replaced !== null) this.evict(res.replaced, res.seat.colour);
      this.sendSeat(res.seat);
    } else {
      if (this.phase !== 'waiting') {
        throw joinError('game_started', 'the game has started; join with { spectate: true } to watch or { seatKey } to return');
      }
      const res = this.seats.take(client.sessionId, opts.name, opts.colour, now);
      if (!res.ok) throw joinError(res.code === 'no_free_seat' ? 'no_free_seat' : 'seat_taken', res.message);
      this.sendSeat(res.value);
    }
    this.clearIdleTimer();
    this.commit();
    this.updateListing();
  }

  override async onLeave(client: Client, consented: boolean): Promise<void> {
    const sid = client.sessionId;
    if (this.spectatorIds.delete(sid)) {
      this.safely('spectator leave', () => this.press.removeSpectator(sid));
      this.commit();
      this.updateListing();
      this.armIdleTimer();
      return;
    }
    const seat = this.seats.bySession(sid);
    if (!seat) {
      this.armIdleTimer();
      return; // replaced by a reclaim, or a join that failed
    }
    if (consented || this.config.graceSeconds <= 0) {
      if (consented && this.phase === 'waiting') this.seats.release(sid, this.now());
      else this.seats.away(sid, this.now());
      this.commit();
      this.updateListing();
      this.armIdleTimer();
      return;
    }
    // A network drop: the seat shows as away; the same connection may come back for a while.
    this.seats.dropped(sid, this.now());
    this.commit();
    let reconnection: Deferred<Client>;
    try {
      reconnection = this.allowReconnection(client, this.config.graceSeconds);
    } catch {
      this.seats.away(sid, this.now());
      this.commit();
      return;
    }
    this.reconnecting.set(sid, reconnection);
    try {
      await reconnection;
      this.reconnecting.delete(sid);
      const again = this.seats.reconnected(sid, this.now());
      if (again) this.sendSeat(again);
      this.clearIdleTimer();
    } catch {
      this.reconnecting.delete(sid);
      this.seats.away(sid, this.now()); // no-op if the seat was reclaimed meanwhile
      this.armIdleTimer();
    }
    this.commit();
    this.updateListing();
  }

  override async onDispose(): Promise<void> {
    this.clearFlagTimer();
    this.clearIdleTimer();
    // Colyseus 0.16 does not clear the timers of reconnections still pending at dispose (nor of
    // one that ends early), which keeps a closing process alive for the grace period.
    for (const timer of Object.values(this.reservedSeatTimeouts)) clearTimeout(timer);
    if (this.code) await releaseCode(this.presence, this.code);
  }

  // ---- RoomContext -------------------------------------------------------------------------

  now(): number {
    return (this.constructor as typeof DjambiRoom).settings.now();
  }

  seatOf(client: Client): Seat | undefined {
    return this.seats.bySession(client.sessionId);
  }

  /** Sends `seat` to the seat's holder, then its `press_history` (the press member is the colour). */
  sendSeat(seat: Seat): void {
    if (seat.sessionId === null || seat.key === null) return;
    const client = this.clientById(seat.sessionId);
    if (!client) return;
    client.send('seat', { colour: seat.colour, seatKey: seat.key });
    this.safely('history', () => this.deliver([this.press.historyDelivery(seat.colour)]));
  }

  startGame(): void {
    this.phase = 'playing';
    const now = this.now();
    const entries: Applied[] = [];
    this.safely('start', () => this.press.start(this.game.position));
    if (this.gameClock) this.gameClock.start(this.game.position.toMove, now);
    this.applied(entries, this.game.position);
    this.scheduleFlag();
    this.commit();
    this.updateListing();
  }

  checkFlag(): void {
    if (!this.gameClock || this.phase !== 'playing' || this.game.over) return;
    const now = this.now();
    if (!this.gameClock.flagged(now)) return;
    const colour = this.gameClock.running!;
    const before = this.game.position;
    const res = this.game.resign(colour, now, true);
    if (res.ok) this.applied(res.value, before);
  }

  applied(entries: readonly Applied[], before: Position): void {
    const now = this.now();
    // The press first (the draw offer it lapses is mirrored below), its deliveries after the patch.
    const deliveries = entries.length > 0 ? this.pressAfter(before, entries, now) : [];
    const clock = this.gameClock;
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
      this.scheduleFlag();
    }
    if (this.game.over && this.phase !== 'over') {
      this.phase = 'over';
      this.clearFlagTimer();
    }
    if (entries.length > 0) {
      this.broadcast(
        'played',
        entries.map((e) => ({ index: e.index, kind: e.kind, colour: e.colour, text: e.text, effects: e.effects })),
        { afterNextPatch: true },
      );
    }
    this.commit();
    this.deliver(deliveries);
    if (this.phase === 'over' || entries.some((e) => e.kind !== 'turn' && e.kind !== 'pass')) this.updateListing();
  }

  memberOf(client: Client): MemberId {
    return this.seatOf(client)?.colour ?? client.sessionId;
  }

  deliver(deliveries: readonly Delivery[]): void {
    if (deliveries.length === 0) return;
    let bySession: Map<string, Client> | null = null;
    for (const d of deliveries) {
      try {
        let bytes: Buffer | null = null;
        for (const member of d.to) {
          bySession ??= new Map(this.clients.map((c) => [c.sessionId, c]));
          const sessionId = this.sessionOf(member);
          const client = sessionId === null ? undefined : bySession.get(sessionId);
          if (!client) continue; // not connected: its history has it
          // Encoded once per delivery, then queued like `client.send` (held until a joining client is ready).
          bytes ??= getMessageBytes.raw(Protocol.ROOM_DATA, d.type, d.payload);
          client.enqueueRaw(bytes);
        }
      } catch (e) {
        console.error(`[djambi ${this.code}] could not deliver "${d.type}":`, e);
      }
    }
  }

  commit(): void {
    mirror(this, this.state);
    this.broadcastPatch();
  }

  /** Public description of the room. */
  describe(): RoomListing {
    const seats = [...this.seats.seats.values()];
    const clock = this.config.clock;
    return {
      code: this.code,
      phase: this.phase,
      visibility: this.config.visibility,
      press_visibility: this.config.press.press_visibility,
      reveal_press_after_game: this.config.press.reveal_press_after_game,
      players: this.config.rules.players,
      seats: seats.map((s) => ({ colour: s.colour, name: s.name, presence: s.presence })),
      seatsTaken: this.seats.takenCount(),
      spectators: this.spectatorIds.size,
      clock: clock ? { initialSeconds: clock.initialMs / 1000, incrementSeconds: clock.incrementMs / 1000 } : null,
      rules: { ...this.config.rules },
      moves: this.game.length,
      createdAt: this.createdAt,
    };
  }

  updateListing(): void {
    this.setMetadata(this.describe()).catch(() => undefined);
  }

  /** The game record as text (for `GET /api/rooms/CODE/record`; called through the matchmaker). */
  recordText(): string {
    return this.game.recordText();
  }

  /** Serialisable snapshot for durable storage: config, seats (with keys) and the record. */
  snapshot(): { config: RoomConfig; phase: Phase; seats: ReturnType<SeatTable['toRecord']>; record: ReturnType<Game['record']> } {
    return { config: this.config, phase: this.phase, seats: this.seats.toRecord(), record: this.game.record() };
  }

  /** Number of spectators (read by `mirror`). */
  get spectators(): number {
    return this.spectatorIds.size;
  }

  /** The press's open draw offer (read by `mirror`; offers are public). */
  get drawOffer(): DrawOfferView | null {
    return this.press.draws.current();
  }

  // ---- internals ---------------------------------------------------------------------------

  private dispatch(type: string, handler: Handler, client: Client, message: unknown): void {
    let rejection: Rejection | null;
    try {
      rejection = handler(this, client, message);
    } catch (e) {
      console.error(`[djambi ${this.code}] handler "${type}" threw:`, e);
      rejection = { code: 'internal_error', message: 'the server could not process this message' };
    }
    if (rejection) this.reply(client, type, rejection);
  }

  private reply(client: Client, type: string, rejection: Rejection): void {
    const msg: RejectedMessage =
      rejection.retryAfterMs === undefined
        ? { type, code: rejection.code, message: rejection.message }
        : { type, code: rejection.code, message: rejection.message, retryAfterMs: rejection.retryAfterMs };
    try {
      client.send('rejected', msg);
    } catch (e) {
      console.error(`[djambi ${this.code}] could not send a rejection:`, e);
    }
  }

  /**
   * The press's deliveries for the entries of one game call. A throw from the press is logged and
   * never blocks the entries, which are applied already; the press is then brought back in line
   * with the game as far as it can be (active players, and the reveal if the game is over).
   */
  private pressAfter(before: Position, entries: readonly Applied[], now: number): Delivery[] {
    try {
      return this.press.afterEntries(before, entries, now);
    } catch (e) {
      console.error(`[djambi ${this.code}] press failed after ${entries.map((x) => x.move).join(', ')}:`, e);
      try {
        this.press.roster.sync(this.game.position);
        return this.game.over ? this.press.endGame(now, this.game.position) : [];
      } catch (e2) {
        console.error(`[djambi ${this.code}] press could not catch up with the game:`, e2);
        return [];
      }
    }
  }

  /** Runs a press call whose failure must not stop the room (logged). */
  private safely(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      console.error(`[djambi ${this.code}] press ${what} failed:`, e);
    }
  }

  /** The session id of a press member's connection: a seat's holder, or the spectator itself. */
  private sessionOf(member: MemberId): string | null {
    const seat = this.seats.seats.get(member as Colour);
    if (seat) return seat.sessionId;
    return this.spectatorIds.has(member) ? member : null;
  }

  private clientById(sessionId: string): Client | undefined {
    for (const c of this.clients) if (c.sessionId === sessionId) return c;
    return undefined;
  }

  /** Disconnects the connection a seat reclaim replaced (or cancels its reconnection). */
  private evict(sessionId: string, colour: Colour): void {
    const pending = this.reconnecting.get(sessionId);
    if (pending) {
      this.reconnecting.delete(sessionId);
      pending.reject(new Error('seat reclaimed'));
    }
    const old = this.clientById(sessionId);
    if (old) {
      old.send('seat_lost', { colour, reason: 'reclaimed' });
      old.leave(4000);
    }
  }

  private scheduleFlag(): void {
    this.clearFlagTimer();
    const clock = this.gameClock;
    if (!clock || this.phase !== 'playing') return;
    const ms = clock.msToFlag(this.now());
    if (ms === null) return;
    this.flagTimer = this.clockTimer(ms + 1);
  }

  private clockTimer(ms: number): Delayed {
    return this.clockSetTimeout(() => {
      this.flagTimer = null;
      try {
        this.checkFlag();
        if (this.flagTimer === null) this.scheduleFlag();
      } catch (e) {
        console.error(`[djambi ${this.code}] clock timer failed:`, e);
      }
    }, ms);
  }

  private clockSetTimeout(cb: () => void, ms: number): Delayed {
    return this.clock.setTimeout(cb, ms);
  }

  private clearFlagTimer(): void {
    this.flagTimer?.clear();
    this.flagTimer = null;
  }

  private armIdleTimer(): void {
    if (this.clients.length > 0 || this.reconnecting.size > 0) return;
    this.clearIdleTimer();
    const seconds = this.phase === 'over' ? Math.min(60, this.config.idleSeconds) : this.config.idleSeconds;
    this.idleTimer = this.clockSetTimeout(() => {
      this.idleTimer = null;
      if (this.clients.length === 0 && this.reconnecting.size === 0) this.disconnect().catch(() => undefined);
    }, seconds * 1000);
  }

  private clearIdleTimer(): void {
    this.idleTimer?.clear();
    this.idleTimer = null;
  }
}
