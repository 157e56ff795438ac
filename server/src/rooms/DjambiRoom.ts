/**
 * The `djambi` room: a thin adapter between Colyseus, the engine and the press (negotiation).
 * It maps connections to seats and press members, dispatches validated messages to
 * `handlers/`, publishes the model through `mirror`, and sends the press's deliveries to
 * exactly the connections they name. No game or press rule lives here.
 */
import { type AuthContext, type Client, type Deferred, matchMaker, ServerError } from '@colyseus/core';
import { seatsOf, type Colour, type Position } from '@djambi/shared';
import { normaliseAddress, rateKey } from '../http/address.js';
import { JOIN_ERROR_STATUS, type JoinErrorCode, type Rejection } from '../errors.js';
import { Press } from '../press/index.js';
import type { Delivery, DrawOfferView, MemberId, PressVisibility } from '../press/types.js';
import { Admission, colyseusCap, DEFAULT_ADMISSION, type AdmissionLimits, type Request } from './admission.js';
import { DEFAULT_BUDGET, frameCost, MessageBudget, type BudgetLimits } from './budget.js';
import { GameClock } from './clock.js';
import { releaseCode, reserveCode } from './codes.js';
import type { Handler, RoomContext } from './context.js';
import { Game, type Applied } from './game.js';
import { type Frame, GuardedRoom } from './internals.js';
import { checkMsgpack } from './msgpackGuard.js';
import { HANDLERS } from './handlers/index.js';
import { mirror, type Phase } from './mirror.js';
import { CREATE_KEYS, parseRoomConfig, type RoomConfig, type RoomDefaults } from './options.js';
import { DjambiState } from './schema.js';
import { SeatTable, type Seat } from './seats.js';
import { RoomTimers, type Cancel } from './timers.js';
import { checkJoinOptions, type JoinOptions } from './validate.js';

/** Colyseus's client cap: never reached, admission (seats apart from spectators) decides first. */
export const MAX_CLIENTS = colyseusCap(DEFAULT_ADMISSION);
/** Patch interval while a room has clients (patches also go out right after every change). */
const PATCH_MS = 50;

/** Server-side settings of the room class (see `createServer`). */
export interface DjambiRoomSettings extends RoomDefaults {
  /** Public base URL for invite links, e.g. `http://localhost:2567`; null = not known. */
  readonly publicUrl: string | null;
  /** The clock of the room, epoch ms (`Date.now`; tests move it forward). */
  readonly now: () => number;
  /** Live rooms one process holds at most; a create beyond it is refused with `server_full`. */
  readonly maxRooms: number;
  /** Seconds a room that nobody ever joined is kept. */
  readonly unjoinedSeconds: number;
  /** Seat, spectator and reservation caps. */
  readonly admission: AdmissionLimits;
  /** The message budget of every connection. */
  readonly budget: BudgetLimits;
}

/** Defaults of the room settings (see `createServer`). */
export const DEFAULT_ROOM_SETTINGS: DjambiRoomSettings = Object.freeze({
  graceSeconds: 20,
  idleSeconds: 600,
  publicUrl: null,
  now: Date.now,
  maxRooms: 5000,
  unjoinedSeconds: 120,
  admission: DEFAULT_ADMISSION,
  budget: DEFAULT_BUDGET,
});

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

/** What the matchmaker's `onAuth` hands to the reservation and the join. */
interface AuthData {
  readonly join: JoinOptions;
  /** The client's address (the socket's, or the trusted proxy's forwarded one). */
  readonly address: string;
}

function joinError(code: JoinErrorCode, message: string): ServerError {
  return new ServerError(JOIN_ERROR_STATUS[code], `${code}: ${message}`);
}

/** The `rejected` reply: the refused message type, the code, a text, and `retryAfterMs` for `rate_limited`. */
interface RejectedMessage extends Rejection {
  readonly type: string;
}

export class DjambiRoom extends GuardedRoom<DjambiState> implements RoomContext {
  /** Set by `createServer` through a subclass. */
  static settings: DjambiRoomSettings = DEFAULT_ROOM_SETTINGS;

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
  private readonly timers = new RoomTimers();
  private flagTimer: Cancel | null = null;
  private idleTimer: Cancel | null = null;
  private admission!: Admission;
  private readonly budgets = new WeakMap<Client, MessageBudget>();
  private everJoined = false;

  private get settings(): DjambiRoomSettings {
    return (this.constructor as typeof DjambiRoom).settings;
  }

  /**
   * Any throw while creating cleans up: Colyseus 0.16 does not dispose a room whose onCreate
   * fails, and its patch interval and timers would keep it alive for good.
   */
  override async onCreate(options: unknown): Promise<void> {
    try {
      await this.create(options);
    } catch (e) {
      this.setPatchRate(null);
      this.clock.clear();
      this.clock.stop();
      this.timers.clearAll();
      if (this.code) await releaseCode(this.presence, this.code).catch(() => undefined);
      if (e instanceof ServerError) throw e;
      console.error('[djambi] room creation failed:', e);
      throw joinError('internal_error', 'the room could not be created');
    }
  }

  private async create(options: unknown): Promise<void> {
    const settings = this.settings;
    if (matchMaker.stats.local.roomCount >= settings.maxRooms) throw joinError('server_full', 'this server holds as many games as it can; try again later');
    const join = checkJoinOptions(options, CREATE_KEYS);
    if (!join.ok) throw joinError('bad_options', join.error.message);
    const parsed = parseRoomConfig(options, settings);
    if (!parsed.ok) throw joinError(parsed.code, parsed.message);
    this.config = parsed.value;
    this.admission = new Admission(settings.admission);
    this.code = await reserveCode(this.presence);
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

    if (this.config.visibility === 'private') await this.setPrivate(true);
    // No patch interval while nobody is connected (see `clientsChanged`).
    this.setPatchRate(null);
    this.shareHandshake();
    mirror(this, this.state);
    this.updateListing();
    this.armIdleTimer();
  }

  /**
   * Join options are checked by the matchmaker before any reservation (so a bad one costs the
   * room nothing); the answer carries the client's address for the admission and press limits.
   * When the room lives in this process, admission is asked here too, so that a refusal reaches
   * the client with its code (`spectators_full`, `too_many_joins`, `game_started`...).
   */
  static override async onAuth(_token: string, options: unknown, context: AuthContext): Promise<AuthData> {
    const join = checkJoinOptions(options, CREATE_KEYS);
    if (!join.ok) throw joinError('bad_options', join.error.message);
    const address = clientAddress(context);
    const roomId = /\/matchmake\/joinById\/([A-Za-z0-9_-]+)/.exec(context.req?.url ?? '')?.[1];
    const room = roomId ? matchMaker.getLocalRoomById(roomId) : undefined;
    if (room instanceof DjambiRoom) {
      const refusal = room.admit(join.value);
      if ('code' in refusal) throw joinError(refusal.code, refusal.message);
      const pending = room.admission.check(refusal, address, (sid) => room.hasReservation(sid));
      if (pending) throw joinError(pending.code, pending.message);
    }
    return { join: join.value, address };
  }

  /**
   * The authority on admission (Colyseus's reservation, see `internals.ts`), also for joins that
   * came through another process. A seat key holder always gets in; spectators and newcomers
   * are capped apart from the seats.
   */
  protected admitReservation(_sessionId: string, authData: unknown): boolean {
    const auth = authData as AuthData | undefined;
    if (!auth?.join) return false;
    const request = this.admit(auth.join);
    return !('code' in request) && this.admission.check(request, auth.address, (sid) => this.hasReservation(sid)) === null;
  }

  protected reservationGranted(sessionId: string, authData: unknown): void {
    const auth = authData as AuthData;
    const request = this.admit(auth.join);
    if (!('code' in request)) this.admission.reserved(sessionId, request, auth.address);
  }

  /** The kind of a join, or why it cannot be admitted at all. */
  private admit(join: JoinOptions): Request | { code: JoinErrorCode; message: string } {
    if (join.spectate) return { kind: 'spectate' };
    if (join.seatKey !== undefined) {
      const seat = this.seats.byKey(join.seatKey);
      return seat ? { kind: 'reclaim', seat: seat.colour } : { code: 'bad_seat_key', message: 'no seat has this key' };
    }
    if (this.phase !== 'waiting') {
      return { code: 'game_started', message: 'the game has started; join with { spectate: true } to watch or { seatKey } to return' };
    }
    if (this.seats.allTaken()) return { code: 'no_free_seat', message: 'every seat is taken; join with { spectate: true } to watch' };
    return { kind: 'take' };
  }

  /**
   * Every frame a client sends passes the connection's message budget and a structural msgpack
   * check before Colyseus decodes it. A refusal is answered here; a flood closes with 1008.
   */
  protected admitFrame(client: Client, frame: Frame): boolean {
    let budget = this.budgets.get(client);
    if (!budget) {
      budget = new MessageBudget(this.settings.budget);
      this.budgets.set(client, budget);
    }
    const now = this.now();
    const verdict = budget.take(now, frameCost(frame.buffer.length));
    if (verdict === 'close') {
      client.leave(1008, 'message budget exceeded');
      return false;
    }
    const type = frame.type ?? '?';
    if (verdict === 'limited') {
      if (now - budget.lastWarned >= 1000) {
        budget.lastWarned = now;
        this.reply(client, type, { code: 'rate_limited', message: 'too many messages', retryAfterMs: budget.retryAfterMs() });
      }
      return false;
    }
    if (frame.type === null) return this.refuseFrame(client, type, 'bad_payload', 'undecodable message');
    if (frame.rawBytes) return this.refuseFrame(client, type, 'bad_payload', 'raw byte messages are not part of the protocol');
    const problem = checkMsgpack(frame.buffer, frame.payloadOffset);
    if (problem === 'too_deep') return this.refuseFrame(client, type, 'payload_too_large', 'payload nested too deeply');
    if (problem) return this.refuseFrame(client, type, 'bad_payload', `payload refused (${problem})`);
    return true;
  }

  private refuseFrame(client: Client, type: string, code: Rejection['code'], message: string): false {
    this.reply(client, type, { code, message });
    return false;
  }

  override onJoin(client: Client, _options: unknown, auth: AuthData): void {
    const opts = auth.join;
    const now = this.now();
    this.everJoined = true;
    this.admission.joined(client.sessionId, opts.spectate ? auth.address : null);
    this.clientsChanged();
    if (opts.spectate) {
      this.spectatorIds.add(client.sessionId);
      this.safely('spectator join', () => {
        this.press.addSpectator(client.sessionId, opts.name, `addr:${auth.address}`);
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
    this.clientsChanged();
    if (this.spectatorIds.delete(sid)) {
      this.admission.left(sid);
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
    this.timers.clearAll();
    // Colyseus 0.16 does not clear the timers of reconnections still pending at dispose (nor of
    // one that ends early), which keeps a closing process alive for the grace period.
    this.clearReservationTimers();
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
        const to: Client[] = [];
        for (const member of d.to) {
          bySession ??= new Map(this.clients.map((c) => [c.sessionId, c]));
          const sessionId = this.sessionOf(member);
          const client = sessionId === null ? undefined : bySession.get(sessionId);
          if (client) to.push(client); // not connected: its history has it
        }
        this.sendEach(to, d.type, d.payload);
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
    this.flagTimer = this.timers.later(ms + 1, () => {
      this.flagTimer = null;
      try {
        this.checkFlag();
        if (this.flagTimer === null) this.scheduleFlag();
      } catch (e) {
        console.error(`[djambi ${this.code}] clock timer failed:`, e);
      }
    });
  }

  private clearFlagTimer(): void {
    this.flagTimer?.();
    this.flagTimer = null;
  }

  /** The patch interval runs only while somebody is connected (patches also follow every change). */
  private clientsChanged(): void {
    const wanted = this.clients.length > 0 ? PATCH_MS : null;
    if (this.patchRate !== wanted) this.setPatchRate(wanted);
  }

  private armIdleTimer(): void {
    if (this.clients.length > 0 || this.reconnecting.size > 0) return;
    this.clearIdleTimer();
    const idle = this.everJoined ? this.config.idleSeconds : Math.min(this.settings.unjoinedSeconds, this.config.idleSeconds);
    const seconds = this.phase === 'over' ? Math.min(60, idle) : idle;
    this.idleTimer = this.timers.later(seconds * 1000, () => {
      this.idleTimer = null;
      if (this.clients.length === 0 && this.reconnecting.size === 0) this.disconnect().catch(() => undefined);
    });
  }

  private clearIdleTimer(): void {
    this.idleTimer?.();
    this.idleTimer = null;
  }
}

/**
 * The address a join came from. Colyseus reads `x-real-ip`/`x-forwarded-for` first; the HTTP
 * guard sets `x-real-ip` to the resolved address on every request (see `http/address.ts`).
 */
function clientAddress(context: AuthContext): string {
  const raw = context.ip ?? context.req?.socket?.remoteAddress ?? '';
  const first = (Array.isArray(raw) ? raw[0] : String(raw)).split(',')[0]?.trim() ?? '';
  const address = normaliseAddress(first.slice(0, 64));
  // IPv6 clients are grouped by /64, as the HTTP limits do.
  return address ? rateKey(address) : 'unknown';
}
