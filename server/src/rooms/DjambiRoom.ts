/**
 * The `djambi` room: the Colyseus adapter of a `Table`. It opens the table's game (a new one, or
 * one re-opened from the log), admits joins, passes each message through its handler to the
 * table, sends what the table publishes (seat keys, evictions, the schema patch, deliveries),
 * keeps a dropped connection's place for its grace period, and closes. No game rule lives here.
 */
import { creatorOf, creatorOption, DEFAULT_QUOTA, QuotaTicket, RoomQuota } from '../games/quota.js';
import { roomCensus } from '../obs/census.js';
import { CLOSE_CODES, CODE_ALPHABET, CODE_LENGTH, type Colour, isPlainObject, seatsOf } from '@djambi/shared';
import { Match, type Phase } from '../match/match.js';
import type { PressVisibility } from '../press/types.js';
import type { GameStore } from '../store/types.js';
import type { Connections } from '../table/connections.js';
import { botConfigOf, type BotDriver, type BotSettings, creationBots, DEFAULT_BOT_SETTINGS, seatCreationBots } from '../table/bots.js';
import { CREATE_KEYS, parseRoomConfig, type RoomDefaults } from '../match/config.js';
import { randomInt } from 'node:crypto';
import {
  type AuthContext,
  type Client,
  type Deferred,
  getMessageBytes,
  matchMaker,
  type Presence,
  Protocol,
  type RoomException,
  ServerError,
} from '@colyseus/core';
import { JoinRefused, type Rejection } from '../errors.js';
import { type GameCodes, Journal } from '../table/journal.js';
import type { Rematch } from '../table/rematch.js';
import { type Publication, Table } from '../table/table.js';
import { idleLifetime } from '../table/timers.js';
import { handlerContext, registerHandlers } from './handlers.js';
import {
  type AdmissionLimits,
  type AuthData,
  authorise,
  type BudgetLimits,
  colyseusCap,
  DEFAULT_ADMISSION,
  DEFAULT_BUDGET,
  Door,
  FrameGate,
  joinError,
} from './admission.js';
import { Mirror } from './mirror.js';
import { DjambiState } from './schema.js';
import { checkJoinOptions } from './validate.js';
import { VendorRoom } from './vendor.js';
import { restoreRequest, ROOM_NAME } from '../games/directory.js';

/** The create options a room accepts: the clients' (`CREATE_KEYS`) and the maker's address, set by server code. */
const SERVER_CREATE_KEYS: readonly string[] = [...CREATE_KEYS, 'creator'];

/** Server-side settings of the room class (see `createServer`). */
export interface DjambiRoomSettings extends RoomDefaults {
  /** Public base URL for invite links, e.g. `http://localhost:2567`; null = not known. */
  readonly publicUrl: string | null;
  /** The clock of the room, epoch ms (`Date.now`; tests move it forward). */
  readonly now: () => number;
  /** Live rooms one process holds at most; a create beyond it is refused with `server_full`. */
  readonly maxRooms: number;
  /** Every live room's ticket: `maxRooms`, the share of rooms nobody sat at, per address (`games/quota.ts`). */
  readonly quota: RoomQuota;
  /** Seconds a room that nobody ever joined is kept. */
  readonly unjoinedSeconds: number;
  /** Seat, spectator and reservation caps. */
  readonly admission: AdmissionLimits;
  /** The message budget of every connection. */
  readonly budget: BudgetLimits;
  /** The game log (null: games live in memory only). */
  readonly store: GameStore | null;
  /**
   * A per-process secret that only server code knows: a create with `{ restore: { code, token } }`
   * re-opens a stored game (clients cannot ask for that).
   */
  readonly restoreToken: string;
  /** Where the rooms count what happens (the process's `/metrics`); null: not counted. */
  readonly metrics: RoomMetrics | null;
  /** How the rooms' computer players think and how fast they answer (see `bots.ts`). */
  readonly bots: BotSettings;
}

/** What the rooms report to the process's metrics (see `obs/metrics.ts`). */
export interface RoomMetrics {
  /** A client's message was refused with `code`. */
  rejected(code: string): void;
  /** A turn was accepted (saved, applied and published). */
  turnAccepted(): void;
  /** From a turn's arrival to the patch that shows it, in ms. */
  observeTurnToPatch(ms: number): void;
  /** A room hit an internal error in `where` (see `DjambiRoom.fault`). */
  fault(where: string): void;
}

/** Defaults of the room settings (see `createServer`). */
export const DEFAULT_ROOM_SETTINGS: DjambiRoomSettings = Object.freeze({
  graceSeconds: 20,
  idleSeconds: 600,
  publicUrl: null,
  now: Date.now,
  maxRooms: 5000,
  quota: new RoomQuota({ maxRooms: 5000, ...DEFAULT_QUOTA }),
  unjoinedSeconds: 120,
  admission: DEFAULT_ADMISSION,
  budget: DEFAULT_BUDGET,
  store: null,
  restoreToken: '',
  metrics: null,
  bots: DEFAULT_BOT_SETTINGS,
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

/** The listing of a room. */
export function describeRoom(code: string, match: Match, links: Connections, spectators: number, createdAt: number): RoomListing {
  const config = match.config;
  const clock = config.clock;
  return {
    code,
    phase: match.phase,
    visibility: config.visibility,
    press_visibility: config.press.press_visibility,
    reveal_press_after_game: config.press.reveal_press_after_game,
    players: config.rules.players,
    seats: [...match.seats.seats.values()].map((s) => ({ colour: s.colour, name: s.name, presence: links.of(s.colour).presence })),
    seatsTaken: match.seats.takenCount(),
    spectators,
    clock: clock ? { initialSeconds: clock.initialMs / 1000, incrementSeconds: clock.incrementMs / 1000 } : null,
    rules: { ...config.rules },
    moves: match.game.length,
    createdAt,
  };
}

/**
 * Room codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L; in shared, so
 * the client checks codes alike), reserved through Colyseus presence so they stay unique across
 * processes sharing a presence. The set holding the codes in use:
 */
const CODES_KEY = 'djambi:codes';

/** A random code. */
function randomCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Reserves a fresh code in presence (released by `releaseCode` when the room is disposed). */
async function reserveCode(presence: Presence): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const code = randomCode();
    if (await presence.sismember(CODES_KEY, code)) continue;
    // A shared (Redis) presence answers how many members were added: 0 means another process won.
    const added = await presence.sadd(CODES_KEY, code);
    if (added === 0) continue;
    return code;
  }
  throw new Error('could not find a free room code');
}

/** Releases a code. */
async function releaseCode(presence: Presence, code: string): Promise<void> {
  await presence.srem(CODES_KEY, code);
}

/**
 * No patch interval: a patch goes out right after every publication of the table, so an
 * interval would find nothing to send. The table's timers are plain Node timers; the room's
 * Colyseus clock is not used.
 */
export class DjambiRoom extends VendorRoom<DjambiState> {
  /** Set by `createServer` through a subclass. */
  static settings: DjambiRoomSettings = DEFAULT_ROOM_SETTINGS;

  /** The settings of the server that made this room (its class's static). */
  private readonly settings: DjambiRoomSettings = (this.constructor as typeof DjambiRoom).settings;

  /** Colyseus's client cap, never reached (admission decides first): set from the room's settings when it opens. */
  override maxClients = colyseusCap(DEFAULT_ADMISSION);
  override autoDispose = false;
  /**
   * No patch interval (0 is Colyseus's "none", like null): patches follow each publication (see
   * the note above the class). Declared on the class, not in onCreate: Colyseus starts the
   * interval in `__init`, before `onCreate`, and a create it refuses before `onCreate` (options
   * it cannot merge) never reaches the room's cleanup; with no interval, that room holds nothing.
   */
  override patchRate = 0;

  constructor() {
    super();
    roomCensus.built++;
  }
  /** The synced state: undefined until the first join (Colyseus sends none before). */
  declare state: DjambiState;

  /** The game; undefined until `onCreate` has opened it. */
  private table!: Table;
  private door!: Door;
  private gate!: FrameGate;
  /** Dropped seat holders' connections that may still come back, by session id. */
  private readonly reconnecting = new Map<string, Deferred<Client>>();
  private createdAt = 0;
  /** The room's place in the process's quota (released at dispose). */
  private ticket: QuotaTicket | null = null;
  private everJoined = false;
  /** The room's one timer, for the table's next deadline (`alarmAt`, epoch ms). */
  private alarmTimer: NodeJS.Timeout | undefined;
  private alarmAt: number | null = null;
  /** Writes the match into the state at each publication; null until the room has a state. */
  private mirror: Mirror | null = null;
  /** The room hit an internal error and is closing (`fault`). */
  private faulted = false;

  /** Any throw while creating cleans up: Colyseus 0.16 does not dispose a room whose onCreate fails. */
  override async onCreate(options: unknown): Promise<void> {
    try {
      const restored = await this.open(options);
      this.roomId = this.code;
      registerHandlers((type, listener) => this.onMessage(type, listener), {
        context: (client) => handlerContext(this.match, this.table.links, client),
        act: (intent, client, type) => this.table.act(intent, { sessionId: client.sessionId, type }),
        reply: (client, type, rejection) => this.reply(client, type, rejection),
        rematch: (client, action) => this.table.rematch.request(client.sessionId, action),
        time: (client) => client.send('time', { now: this.now() }),
      });
      if (this.match.config.visibility === 'private') await this.setPrivate(true);
      if (restored) await this.table.resume();
      else await seatCreationBots(options, this.match, (intent) => this.table.submit(intent));
      this.table.opened();
      this.table.rematch.resume();
    } catch (e) {
      roomCensus.closed++;
      this.ticket?.release();
      clearTimeout(this.alarmTimer);
      this.clock.clear();
      this.clock.stop();
      this.table?.dispose();
      if (this.code) await releaseCode(this.presence, this.code).catch(() => undefined);
      throw creationError(e);
    }
  }

  /** Opens the game: a stored one re-opened from the log (server code only), or a new one from a client's create options. True when re-opened. */
  private async open(options: unknown): Promise<boolean> {
    const settings = this.settings;
    const presence = this.presence;
    const codes: GameCodes = {
      reserve: () => reserveCode(presence),
      release: (code) => releaseCode(presence, code),
      claim: async (code) => {
        await presence.sadd(CODES_KEY, code);
      },
    };
    const now = () => settings.now();
    const restore = restoreRequest(options, settings.restoreToken);
    let journal: Journal;
    if (restore) {
      const full = settings.quota.full();
      if (full) throw joinError(full.code, full.message);
      const reopened = await Journal.reopen(restore, codes, settings.store, now);
      journal = reopened.journal;
      this.createdAt = reopened.createdAt;
      // A game people sat at comes back within `maxRooms`; one nobody sat at, within the share of those.
      const ticket = settings.quota.take(
        journal.hasSeated,
        null,
        [...journal.match.seats.seats.values()].some((s) => s.bot !== null),
      );
      if (!(ticket instanceof QuotaTicket)) {
        await codes.release(restore).catch(() => undefined);
        throw joinError(ticket.code, ticket.message);
      }
      this.ticket = ticket;
    } else {
      const join = checkJoinOptions(options, SERVER_CREATE_KEYS);
      if (!join.ok) throw joinError('bad_options', join.error.message);
      const parsed = parseRoomConfig(options, settings);
      if (!parsed.ok) throw joinError(parsed.error.code, parsed.error.message);
      const ticket = settings.quota.take(false, creatorOf(options), Object.keys(creationBots(options)).length > 0);
      if (!(ticket instanceof QuotaTicket)) throw joinError(ticket.code, ticket.message);
      this.ticket = ticket;
      this.createdAt = now();
      // The bots' options are part of the stored config: a game re-opened before its start keeps them.
      const config = { ...parsed.value, bots: botConfigOf(options) };
      journal = await Journal.create(new Match(config), this.createdAt, codes, settings.store, now);
    }
    const metrics = settings.metrics;
    this.table = new Table(
      journal,
      {
        now,
        bots: settings.bots,
        turnPublished: metrics
          ? (ms) => {
              metrics.turnAccepted();
              metrics.observeTurnToPatch(ms);
            }
          : undefined,
      },
      {
        publish: (publication) => this.publish(publication),
        reply: (sessionId, type, rejection) => {
          const client = this.clients.getById(sessionId);
          if (client) this.reply(client, type, rejection);
        },
        fenced: () => this.closeFenced(),
        fault: (e) => this.fault(e, 'intent'),
        empty: () => this.clients.length === 0 && this.reconnecting.size === 0,
        idleSeconds: () => idleLifetime(this.match.config.idleSeconds, settings.unjoinedSeconds, this.everJoined, this.match.phase === 'over'),
        expire: () => this.disconnect().catch(() => undefined),
        send: (sessionId, type, payload) => this.clients.getById(sessionId)?.send(type, payload),
        broadcast: (type, payload) => this.broadcast(type, payload),
        createGame: (createOptions) => createGame(createOptions),
      },
      seatsOf(journal.match.config.rules),
    );
    this.door = new Door(settings.admission, journal, (sid) => this.hasReservation(sid), now);
    // Colyseus's own cap, above what admission lets in while unused reservations live their time.
    this.maxClients = colyseusCap(settings.admission, this.seatReservationTime);
    this.gate = new FrameGate(settings.budget);
    return restore !== null;
  }

  /** The game code. */
  get code(): string {
    return this.table?.code ?? '';
  }

  /** The match (as every saved intent left it). */
  get match(): Match {
    return this.table.match;
  }

  /** The room's computer players. */
  get bots(): BotDriver {
    return this.table.bots;
  }

  /** The seat a connection holds, if any. */
  seatOf(sessionId: string): Colour | null {
    return this.table?.links.colourOf(sessionId) ?? null;
  }

  /** The rematch offer of this game (and the seats to claim when this game is a rematch). */
  get rematch(): Rematch {
    return this.table.rematch;
  }

  /** Every message frame spends its connection's budget before it is decoded (see `vendor.ts`). */
  protected admitFrame(client: Client, frame: Buffer): boolean {
    try {
      // No message before the room's parts exist (nobody can join before).
      return this.gate?.admit(client, frame, this.now(), (c, type, r) => this.reply(c, type, r)) ?? false;
    } catch (e) {
      this.fault(e, 'frame');
      return false;
    }
  }

  /** The matchmaker's check of a join, before any reservation (see `door.ts` `authorise`). */
  static override async onAuth(_token: string, options: unknown, context: AuthContext): Promise<AuthData> {
    const auth = authorise(options, context, (roomId) => {
      const room = matchMaker.getLocalRoomById(roomId);
      return room instanceof DjambiRoom ? room.door : undefined;
    });
    // A create (`create`, `joinOrCreate`) hands these very options to the new room: its maker's
    // address goes with them, as a grant no client can send (see `games/quota.ts`).
    if (isPlainObject(options)) Object.assign(options, creatorOption(auth.address));
    return auth;
  }

  /** Admission decides every reservation (see `vendor.ts`): seat key holders always get in. */
  protected admitReservation(sessionId: string, authData: unknown): boolean {
    if (!this.door.admits(authData)) return false;
    this.door.reserved(sessionId, authData);
    return true;
  }

  override async onJoin(client: Client, _options: unknown, auth: AuthData): Promise<void> {
    // A spectator whose reservation outlived its count is refused if the room filled up meanwhile.
    const refusal = this.door.joined(client.sessionId, auth);
    if (refusal) throw joinError(refusal.code, refusal.message);
    this.everJoined = true;
    this.table.joined();
    try {
      await this.table.arrive(client.sessionId, auth.join, auth.address);
    } catch (e) {
      throw e instanceof JoinRefused ? refusalError(e) : e;
    }
    this.table.rematch.joined(client.sessionId);
  }

  /**
   * A connection goes: a spectator leaves; a seat holder leaves on purpose, or drops and may come
   * back through `client.reconnect` within the grace period, after which its seat shows as away.
   */
  override async onLeave(client: Client, consented: boolean): Promise<void> {
    // A faulted room records no departures: it is closing, and its game re-opens from the log.
    if (this.faulted) return;
    const table = this.table;
    const sid = client.sessionId;
    if (table.spectatorIds.has(sid)) {
      this.door.left(sid);
      return table.spectatorLeft(sid);
    }
    const colour = table.links.colourOf(sid);
    if (colour === null) return table.vacated(); // replaced by a reclaim, or a join that failed
    const graceSeconds = this.match.config.graceSeconds;
    if (consented || graceSeconds <= 0) return table.left(sid, colour, consented);
    table.dropped(sid);
    const reconnection = this.allowReconnection(client, graceSeconds);
    this.reconnecting.set(sid, reconnection);
    try {
      const again = await reconnection;
      table.back(sid);
      // It missed the broadcasts meanwhile: the rematch offer again.
      table.rematch.joined(again.sessionId);
    } catch {
      table.gone(sid, colour);
    } finally {
      this.reconnecting.delete(sid);
    }
  }

  /**
   * Colyseus 0.16 calls this, once it is defined, for a throw in what it wraps: message handlers,
   * clock timers and the lifecycle (onCreate, onAuth, onJoin and onLeave rethrow to their caller
   * after it, which refuses that join or logs that leave).
   */
  override onUncaughtException(error: RoomException<this>, methodName: string): void {
    const cause = error.cause ?? error;
    // A refused join (or create) throws a `ServerError` on purpose: its caller answers it, no bug.
    if (cause instanceof ServerError) return;
    this.fault(cause, methodName);
  }

  /**
   * A bug thrown inside the room (`where`: the method, `intent`, `timer`, `frame`). It is logged
   * and counted, and nothing else in the process is touched. Then the room closes with
   * `CLOSE_CODES.roomFault`: its memory may be inconsistent, its log is not, and its clients rejoin by code
   * with their seat keys, which re-opens the game from the log. A throw in onCreate (the create is
   * refused) or onDispose (the room is going) is only logged; so is any throw in a room without a
   * store, which could not re-open its game.
   */
  fault(error: unknown, where: string): void {
    this.settings.metrics?.fault(where);
    this.logFault(error, where);
    if (this.faulted || where === 'onCreate' || where === 'onDispose' || !this.settings.store) return;
    this.faulted = true;
    try {
      this.disconnect(CLOSE_CODES.roomFault).catch(() => undefined);
    } catch {
      // Still in onCreate (Colyseus refuses to disconnect then): the create fails by itself.
    }
  }

  /** Logs a fault: the error and where, never a message's payload (`obs/rooms.ts` logs it as JSON). */
  protected logFault(error: unknown, where: string): void {
    console.error(`[djambi ${this.code}] internal error in ${where}:`, error);
  }

  /**
   * The process is stopping (SIGTERM): once the intents in progress are saved, every client is
   * told `server_restart` and closed with `CLOSE_CODES.serverRestart` (not 4000, a voluntary leave). Nothing
   * is lost: the game is in the log, and clients come back to wherever it is re-opened.
   */
  override onBeforeShutdown(): void {
    void this.table.journal.settled().then(() => {
      this.broadcast('server_restart', { code: this.code });
      return this.disconnect(CLOSE_CODES.serverRestart);
    });
  }

  override async onDispose(): Promise<void> {
    roomCensus.closed++;
    clearTimeout(this.alarmTimer);
    this.ticket?.release();
    this.table?.dispose();
    this.clearReservationTimers(); // 0.16 leaves pending reconnections' timers running
    // A room nobody sat at that stayed empty its lifetime leaves nothing in the log (not at a
    // restart or a fault: its creator may still be sharing the link).
    if (this.table?.expired) await this.table.journal.discardIfUnseated();
    if (this.code) await releaseCode(this.presence, this.code);
  }

  /** Server time, epoch ms. */
  now(): number {
    return this.settings.now();
  }

  /** Public description of the room. */
  describe(): RoomListing {
    return describeRoom(this.code, this.match, this.table.links, this.table.spectatorIds.size, this.createdAt);
  }

  /** The game record as text with its tags, `site` its address (for `GET /api/rooms/CODE/record`; called through the matchmaker). */
  recordText(site?: string): string {
    return this.match.game.recordText(this.match.recordInfo(typeof site === 'string' ? site : undefined, this.createdAt));
  }

  /** Another process appended to this game's log: this copy is stale and closes its clients. */
  private closeFenced(): void {
    console.error(`[djambi ${this.code}] fenced: another process holds this game; closing this copy`);
    this.broadcast('server_moved', { code: this.code });
    this.disconnect(CLOSE_CODES.fenced).catch(() => undefined);
  }

  /**
   * Sets the room's one timer for the table's next deadline (a publication's `alarm`); when it
   * fires, the table runs what is due and names the next one. A throw goes to `fault`.
   */
  private wakeAt(at: number | null): void {
    if (at === this.alarmAt) return;
    clearTimeout(this.alarmTimer);
    this.alarmAt = at;
    if (at === null) return;
    this.alarmTimer = setTimeout(
      () => {
        this.alarmAt = null;
        try {
          this.wakeAt(this.table.tick(at));
        } catch (e) {
          this.fault(e, 'timer');
        }
      },
      Math.min(Math.max(0, at - this.now()), 2 ** 31 - 1),
    );
  }

  /** Sends what the table published: seat keys, evictions, the state's patch (and the listing), then the deliveries. */
  private publish({ seats, evictions, listing, deliveries, alarm }: Publication): void {
    this.wakeAt(alarm);
    for (const s of seats) this.clients.getById(s.sessionId)?.send('seat', { colour: s.colour, seatKey: s.seatKey });
    for (const e of evictions) this.evict(e.sessionId, e.colour, e.reason);
    const mirror = this.mirror ?? this.startState();
    if (mirror) {
      const table = this.table;
      mirror.write({ code: this.code, match: this.match, links: table.links, spectators: table.spectatorIds.size, standIns: table.bots.standingIn });
      this.broadcastPatch();
    }
    if (listing) {
      this.setMetadata(this.describe()).catch(() => undefined);
      // Somebody sat here (a join, a rematch's claim): the room leaves the unseated quota.
      if (this.table.journal.hasSeated) this.ticket?.seat();
    }
    for (const d of deliveries) {
      try {
        this.sendEach(d.sessionIds, d.type, d.payload);
      } catch (e) {
        console.error(`[djambi ${this.code}] could not deliver "${d.type}":`, e);
      }
    }
  }

  /**
   * The schema, made at the first publication with somebody connected: a room nobody has joined
   * yet (a game re-opened at boot, say) builds none, and its first client gets the whole state then.
   */
  private startState(): Mirror | null {
    if (this.clients.length === 0) return null;
    this.state = new DjambiState();
    this.ownPatches();
    this.mirror = new Mirror(this.state);
    return this.mirror;
  }

  /** Disconnects the connection a seat reclaim replaced, or whose seat the host freed (or cancels its reconnection). */
  private evict(sessionId: string, colour: string, reason: 'reclaimed' | 'removed'): void {
    const pending = this.reconnecting.get(sessionId);
    if (pending) {
      this.reconnecting.delete(sessionId);
      pending.reject(new Error('seat reclaimed'));
    }
    const old = this.clients.getById(sessionId);
    if (old) {
      old.send('seat_lost', { colour, reason });
      old.leave(4000);
    }
  }

  /** The `rejected` answer to a refused message. */
  private reply(client: Client, type: string, rejection: Rejection): void {
    const { code, message, retryAfterMs, path } = rejection;
    this.settings.metrics?.rejected(code);
    try {
      client.send('rejected', { type, code, message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), ...(path === undefined ? {} : { path }) });
    } catch (e) {
      console.error(`[djambi ${this.code}] could not send a rejection:`, e);
    }
  }

  /** Sends one message to several connections, encoded once (queued like `client.send` for joining clients). */
  private sendEach(sessionIds: readonly string[], type: string, payload: unknown): void {
    let bytes: Uint8Array | null = null;
    for (const sid of sessionIds) {
      const client = this.clients.getById(sid);
      if (!client) continue;
      bytes ??= getMessageBytes.raw(Protocol.ROOM_DATA, type, payload);
      client.enqueueRaw(bytes);
    }
  }
}

/** Creates a rematch room in this process, as `POST /api/rooms` does: its code and its table's rematch. */
async function createGame(options: Record<string, unknown>): Promise<{ code: string; rematch: Rematch }> {
  const listing = await matchMaker.createRoom(ROOM_NAME, options);
  const room = matchMaker.getLocalRoomById(listing.roomId);
  if (!(room instanceof DjambiRoom)) throw new Error(`rematch: the new room ${listing.roomId} is not in this process`);
  return { code: listing.roomId, rematch: room.rematch };
}

/** What a create that threw answers: its own join error, or `internal_error` (logged). */
function creationError(e: unknown): ServerError {
  if (e instanceof ServerError) return e;
  if (e instanceof JoinRefused) return refusalError(e);
  console.error('[djambi] room creation failed:', e);
  return joinError('internal_error', 'the room could not be created');
}

/** A refusal of the table as the join error the SDK's promise rejects with. */
function refusalError(e: JoinRefused): ServerError {
  return joinError(e.code, e.message);
}
