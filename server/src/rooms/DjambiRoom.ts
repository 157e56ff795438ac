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
import { type AuthContext, type Client, type Deferred, getMessageBytes, matchMaker, Protocol, type RoomException, ServerError } from '@colyseus/core';
import type { Rejection } from '../errors.js';
import type { Match } from '../match/match.js';
import { arrive } from './arrivals.js';
import type { BotDriver } from './bots.js';
import { closeAfterFault, closeFenced, closeForRestart, release } from './closing.js';
import type { Connections } from './connections.js';
import { depart } from './departures.js';
import { handlerContext, registerHandlers } from './dispatch.js';
import { authorise, type Door } from './door.js';
import type { FrameGate } from './gate.js';
import type { AuthData } from './join.js';
import type { Journal } from './journal.js';
import { assemble, creationError, type Opened, openGame, settle } from './opening.js';
import type { Outbox } from './outbox.js';
import { Mirror } from './mirror.js';
import type { Pipeline } from './pipeline.js';
import { Rematch } from './rematch.js';
import type { RoomPort } from './port.js';
import { DjambiState } from './schema.js';
import { DEFAULT_ROOM_SETTINGS, type DjambiRoomSettings, describeRoom, MAX_CLIENTS, type RoomListing } from './settings.js';
import { Alarms, idleLifetime } from './timers.js';
import { VendorRoom } from './vendor.js';

export { DEFAULT_ROOM_SETTINGS, type DjambiRoomSettings, type RoomListing } from './settings.js';

/**
 * No patch interval: a patch goes out right after every accepted intent (`commit`, the only
 * writer of the state), so an interval would find nothing to send. The room's timers are plain
 * Node timers (`timers.ts`); its Colyseus clock is not used.
 */
export class DjambiRoom extends VendorRoom<DjambiState> {
  /** Set by `createServer` through a subclass. */
  static settings: DjambiRoomSettings = DEFAULT_ROOM_SETTINGS;

  /** The settings of the server that made this room (its class's static). */
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
  private gate!: FrameGate;
  /** The room's computer players (see `bots.ts`). */
  bots: BotDriver | null = null;
  readonly rematch: Rematch = new Rematch(this, (intent, taken, client) =>
    this.pipeline.step(intent, client, client ? 'rematch' : intent.type, undefined, taken),
  );
  private createdAt = 0;
  private everJoined = false;
  /** Writes the match into the state at each commit; null until the room has a state. */
  private mirror: Mirror | null = null;
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
      const settings = this.settings;
      const opened = await openGame(options, settings, this.presence, () => settings.now());
      this.setup(opened);
      this.everJoined = await settle(opened, options, this.port);
      this.roomId = this.code;
      registerHandlers((type, listener) => this.onMessage(type, listener), {
        context: (client) => handlerContext(this.match, this.links, client),
        act: (intent, client, type) => this.pipeline.act(intent, client, type),
        reply: (client, type, rejection) => this.outbox.reply(client, type, rejection),
        rematch: this.rematch.listener(),
      });
      if (this.match.config.visibility === 'private') await this.setPrivate(true);
      this.patchRate = 0; // patches follow each commit: no interval (see the note above the class)
      this.port.commit(true);
      this.alarms.scheduleFlag();
      this.alarms.armIdle();
      this.rematch.resume();
    } catch (e) {
      this.patchRate = 0;
      this.clock.clear();
      this.clock.stop();
      await release(this.alarms, this.presence, this.code).catch(() => undefined);
      throw creationError(e);
    }
  }

  /** Builds the parts of the room around its opened game (see `opening.ts` `assemble`). */
  private setup({ journal, createdAt }: Opened): void {
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
    ({ links: this.links, outbox: this.outbox, door: this.door, gate: this.gate, pipeline: this.pipeline, bots: this.bots, port: this.port } = parts);
    this.alarms.readFlagFrom(() => journal.match.msToFlag(this.now()));
  }

  /** Every message frame spends its connection's budget before it is decoded (see `vendor.ts`). */
  protected admitFrame(client: Client, frame: Buffer): boolean {
    try {
      // No message before the room's parts exist (nobody can join before).
      return this.gate?.admit(client, frame, this.now(), (c: Client, type: string, r: Rejection) => this.outbox.reply(c, type, r)) ?? false;
    } catch (e) {
      this.fault(e, 'frame');
      return false;
    }
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

  /** Admission decides every reservation (see `vendor.ts`): seat key holders always get in. */
  protected admitReservation(sessionId: string, authData: unknown): boolean {
    if (!this.door.admits(authData)) return false;
    this.door.reserved(sessionId, authData);
    return true;
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
    const mirror = this.mirror ?? this.startState();
    if (mirror) {
      mirror.write({ code: this.code, match: this.match, links: this.links, spectators: this.spectatorIds.size, standIns: this.bots?.standingIn });
      this.broadcastPatch();
    }
    if (listing) this.setMetadata(this.describe()).catch(() => undefined);
  }

  /**
   * The schema, made at the first commit with somebody connected: a room nobody has joined yet
   * (a game re-opened at boot, say) builds none, and its first client gets the whole state then.
   */
  private startState(): Mirror | null {
    if (this.clients.length === 0) return null;
    this.state = new DjambiState();
    this.ownPatches();
    this.mirror = new Mirror(this.state);
    return this.mirror;
  }

  /** Sends one message to several clients, encoded once (queued like `client.send` for joining clients). */
  private sendEach(clients: Iterable<Client>, type: string, payload: unknown): void {
    let bytes: Uint8Array | null = null;
    for (const client of clients) {
      bytes ??= getMessageBytes.raw(Protocol.ROOM_DATA, type, payload);
      client.enqueueRaw(bytes);
    }
  }
}
