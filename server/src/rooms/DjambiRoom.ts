/**
 * The `djambi` room: a thin adapter between Colyseus and a `Match`. It keeps the lifecycle
 * (create, join, leave, reconnect, dispose), the connection ↔ seat/member mapping, dispatch of
 * validated messages to the match, the schema (written by `mirror` only), sending what the match
 * returns to exactly the connections it names, and the timers that call back into the match.
 * Each step lives in its own module: `opening` (create, re-open, the parts, the bots), `door`
 * (onAuth, reservations), `arrivals` (join), `departures` (leave, reconnect), `closing` (restart,
 * fence, dispose), `dispatch` (message → handler → intent), `pipeline` (intent → journal →
 * publish), `timers`, and `bots` (the computer players' driver). No game or press rule lives here.
 */
import { type AuthContext, type Client, type Deferred, matchMaker, type RoomException, ServerError } from '@colyseus/core';
import type { Rejection } from '../errors.js';
import type { Match } from '../match/match.js';
import { arrive } from './arrivals.js';
import type { BotDriver } from './bots.js';
import { closeAfterFault, closeFenced, closeForRestart, release } from './closing.js';
import type { Connections } from './connections.js';
import { depart } from './departures.js';
import { handlerContext, listen } from './dispatch.js';
import { authorise, type Door } from './door.js';
import { type FrameGuard, GuardedRoom } from './internals.js';
import type { AuthData } from './join.js';
import type { Journal } from './journal.js';
import { assemble, creationError, type Opened, openGame, settle } from './opening.js';
import type { Outbox } from './outbox.js';
import { Patcher } from './patcher.js';
import type { Pipeline } from './pipeline.js';
import { Rematch } from './rematch.js';
import type { RoomPort } from './port.js';
import { DjambiState } from './schema.js';
import { DEFAULT_ROOM_SETTINGS, type DjambiRoomSettings, describeRoom, MAX_CLIENTS, type RoomListing } from './settings.js';
import { Alarms, idleLifetime } from './timers.js';

export { DEFAULT_ROOM_SETTINGS, type DjambiRoomSettings, type RoomListing } from './settings.js';

/**
 * No patch interval: a patch goes out right after every accepted intent (`commit`, the only
 * writer of the state), so Colyseus's interval would find nothing to send. A 1 s heartbeat on
 * every room cost about 0.75 % of a core per 1,000 rooms, busy or idle (each room's data visited
 * once a second, cold in the cache, and a timer list per room's 0–99 ms of spread); the room's
 * timers are plain Node timers (`timers.ts`), so its Colyseus clock, which only that interval
 * ticked, is not used.
 */
export class DjambiRoom extends GuardedRoom<DjambiState> {
  /** Set by `createServer` through a subclass. */
  static settings: DjambiRoomSettings = DEFAULT_ROOM_SETTINGS;

  /** The settings of the server that made this room (its class's static), read once: `now()` alone reads them several times per turn. */
  private readonly settings: DjambiRoomSettings = (this.constructor as typeof DjambiRoom).settings;

  override maxClients = MAX_CLIENTS;
  override autoDispose = false;
  /** The synced state: undefined until the first join (see `commit`; Colyseus sends none before). */
  declare state: DjambiState;

  code = '';
  links!: Connections;
  readonly spectatorIds = new Set<string>();
  readonly reconnecting = new Map<string, Deferred<Client>>();
  private journal!: Journal;
  private outbox!: Outbox;
  private door!: Door;
  private pipeline!: Pipeline;
  private port!: RoomPort;
  /** The room's computer players (see `bots.ts`). */
  bots: BotDriver | null = null;
  readonly rematch: Rematch = new Rematch(this, (intent, taken, client) =>
    this.pipeline.step(intent, client, client ? 'rematch' : intent.type, undefined, taken),
  );
  private createdAt = 0;
  private everJoined = false;
  /** Mirrors and patches after each commit (`patcher.ts`); null until the room has a state. */
  private patcher: Patcher | null = null;
  /** The room hit an internal error and is closing (`fault`). */
  private faulted = false;
  /** The flag timer and the idle timer (plain timers: no room runs a patch interval, so its Colyseus clock never ticks). */
  private readonly alarms = new Alarms({
    flag: () => this.pipeline.act({ type: 'flag' }),
    empty: () => this.clients.length === 0 && this.reconnecting.size === 0,
    idleSeconds: () => idleLifetime(this.match.config.idleSeconds, this.settings.unjoinedSeconds, this.everJoined, this.match.phase === 'over'),
    expire: () => this.disconnect().catch(() => undefined),
    fault: (e) => this.fault(e, 'timer'),
  });

  /** Any throw while creating cleans up: Colyseus 0.16 does not dispose a room whose onCreate fails. */
  override async onCreate(options: unknown): Promise<void> {
    try {
      // The journal reads the time on every intent: from the settings, not through the room object.
      const settings = this.settings;
      const opened = await openGame(options, settings, this.presence, () => settings.now());
      const admit = this.setup(opened);
      this.everJoined = await settle(opened, options, this.port);
      this.roomId = this.code;
      // Every message reads these: from the closure, not from the room object (a hash lookup each: see `patcher.ts`).
      const { journal, links, pipeline, outbox } = this;
      const deliver = listen({
        context: (client) => handlerContext(journal.match, links, client),
        act: (intent, client, type) => pipeline.act(intent, client, type),
        reply: (client, type, rejection) => outbox.reply(client, type, rejection),
        rematch: this.rematch.listener(),
      });
      // One plain object read once per frame (see `GuardedRoom.frames`).
      this.frames = { admit, deliver, fault: (e, where) => this.fault(e, where) };
      if (this.match.config.visibility === 'private') await this.setPrivate(true);
      this.setPatchRate(null); // patches follow each commit: no interval (see the note above the class)
      this.port.commit(true);
      this.alarms.scheduleFlag();
      this.alarms.armIdle();
      this.rematch.resume();
    } catch (e) {
      this.setPatchRate(null);
      this.clock.clear();
      this.clock.stop();
      await release(this.alarms, this.presence, this.code).catch(() => undefined);
      throw creationError(e);
    }
  }

  /** Builds the parts of the room around its opened game (see `opening.ts` `assemble`); returns the frame gate's check. */
  private setup({ journal, createdAt }: Opened): FrameGuard['admit'] {
    this.journal = journal;
    this.code = journal.code;
    this.createdAt = createdAt;
    const parts = assemble(journal, this.settings, this.alarms, this.spectatorIds, this.reconnecting, {
      clients: () => this.clients,
      sendEach: (clients, type, payload) => this.sendEach(clients, type, payload),
      hasReservation: (sid) => this.hasReservation(sid),
      commit: (listing) => this.commit(listing),
      fenced: () => closeFenced(this),
      holdFor: (client, seconds) => this.holdFor(client, seconds),
      fault: (e) => this.fault(e, 'intent'),
    });
    ({ links: this.links, outbox: this.outbox, door: this.door, pipeline: this.pipeline, bots: this.bots, port: this.port } = parts);
    const { gate, outbox } = parts;
    const settings = this.settings;
    this.alarms.readFlagFrom(() => journal.match.msToFlag(settings.now()));
    // One function for every refused frame, not a closure each.
    const refuse = (client: Client, type: string, rejection: Rejection): void => outbox.reply(client, type, rejection);
    return (client, frame) => gate.admit(client, frame, settings.now(), refuse);
  }

  /** Keeps a dropped connection's place for `seconds`; one that comes back gets the rematch offer again (it missed its broadcasts). */
  private holdFor(client: Client, seconds: number): Deferred<Client> {
    const back = this.allowReconnection(client, seconds);
    back.then((again) => this.rematch.joined(again)).catch(() => undefined);
    return back;
  }

  /** The match (as every saved intent left it). */
  get match(): Match {
    return this.journal.match;
  }

  /** The matchmaker's check of a join, before any reservation (see `door.ts` `authorise`). */
  static override async onAuth(_token: string, options: unknown, context: AuthContext): Promise<AuthData> {
    return authorise(options, context, (roomId) => {
      const room = matchMaker.getLocalRoomById(roomId);
      return room instanceof DjambiRoom ? room.door : undefined;
    });
  }

  /** Admission decides every reservation (see `internals.ts`): seat key holders always get in. */
  protected admitReservation(_sessionId: string, authData: unknown): boolean {
    return this.door.admits(authData);
  }

  protected reservationGranted(sessionId: string, authData: unknown): void {
    this.door.reserved(sessionId, authData);
  }

  override async onJoin(client: Client, _options: unknown, auth: AuthData): Promise<void> {
    this.everJoined = true;
    if (!this.state) this.port.commit(false);
    this.door.joined(client.sessionId, auth);
    this.alarms.clearIdle();
    await arrive(this.port, client.sessionId, auth);
    this.rematch.joined(client);
  }

  override async onLeave(client: Client, consented: boolean): Promise<void> {
    // A faulted room records no departures: it is closing, and its game re-opens from the log.
    if (!this.faulted) await depart(this.port, client, consented);
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
   * and counted, and nothing else in the process is touched. Then the room closes
   * (`closeAfterFault`): its memory may be inconsistent, its log is not, and its clients rejoin by
   * code with their seat keys, which re-opens the game from the log. A throw in onCreate (the
   * create is refused) or onDispose (the room is going) is only logged; so is any throw in a room
   * without a store, which could not re-open its game.
   */
  fault(error: unknown, where: string): void {
    this.settings.metrics?.fault(where);
    this.logFault(error, where);
    if (this.faulted || where === 'onCreate' || where === 'onDispose' || !this.settings.store) return;
    this.faulted = true;
    closeAfterFault(this);
  }

  /** Logs a fault: the error and where, never a message's payload (`obs/rooms.ts` logs it as JSON). */
  protected logFault(error: unknown, where: string): void {
    console.error(`[djambi ${this.code}] internal error in ${where}:`, error);
  }

  /** The process is stopping (SIGTERM): see `closeForRestart`. */
  override onBeforeShutdown(): void {
    closeForRestart(this, this.journal.settled());
  }

  override async onDispose(): Promise<void> {
    this.bots?.dispose();
    this.rematch.dispose();
    this.clearReservationTimers(); // 0.16 leaves pending reconnections' timers running
    await release(this.alarms, this.presence, this.code);
  }

  /** Server time, epoch ms. */
  now(): number {
    return this.settings.now();
  }

  /** Public description of the room. */
  describe(): RoomListing {
    return describeRoom(this.code, this.match, this.links, this.spectatorIds.size, this.createdAt);
  }

  /** The game record as text (for `GET /api/rooms/CODE/record`; called through the matchmaker). */
  recordText(): string {
    return this.match.game.recordText();
  }

  /** Mirrors the match into the schema and sends the patch now (and the listing when it changed); `port.commit` adds the bots' hooks. */
  private commit(listing: boolean): void {
    (this.patcher ?? this.startPatches())?.patch();
    if (listing) this.setMetadata(this.describe()).catch(() => undefined);
  }

  /**
   * The schema and its patcher, made at the first commit with somebody connected: a room nobody
   * has joined yet (a game re-opened at boot, say) builds none, and its first client gets the
   * whole state mirrored then.
   */
  private startPatches(): Patcher | null {
    if (this.clients.length === 0) return null;
    this.state = new DjambiState();
    this.shareSerializer();
    const journal = this.journal;
    const source = { code: this.code, match: () => journal.match, links: this.links, spectatorIds: this.spectatorIds, standIns: this.bots?.standingIn };
    this.patcher = new Patcher(source, this.state, this.patchParts());
    return this.patcher;
  }
}
