/**
 * The `djambi` room: a thin adapter between Colyseus and a `Match`. It keeps the lifecycle
 * (create, join, leave, reconnect, dispose), the connection ↔ seat/member mapping, dispatch of
 * validated messages to the match, the schema (written by `mirror` only), sending what the match
 * returns to exactly the connections it names, and the timers that call back into the match.
 * Each step lives in its own module: `opening` (create, re-open), `door` (onAuth, reservations),
 * `arrivals` (join), `departures` (leave, reconnect), `closing` (restart, fence, dispose),
 * `dispatch` (message → handler → intent), `pipeline` (intent → journal → publish) and `timers`.
 * No game or press rule lives here.
 */
import { type AuthContext, type Client, type Deferred, matchMaker } from '@colyseus/core';
import { seatsOf } from '@djambi/shared';
import type { Match } from '../match/match.js';
import { arrive } from './arrivals.js';
import { BotDriver, seatCreationBots, seedOfCode } from './bots.js';
import { closeFenced, closeForRestart, release } from './closing.js';
import { Connections } from './connections.js';
import { depart } from './departures.js';
import { handlerContext, listen } from './dispatch.js';
import { authorise, Door } from './door.js';
import { FrameGate } from './gate.js';
import { type Frame, GuardedRoom } from './internals.js';
import type { AuthData } from './join.js';
import type { Journal } from './journal.js';
import { mirror } from './mirror.js';
import { creationError, type Opened, openGame, resume } from './opening.js';
import { Outbox } from './outbox.js';
import { Pipeline } from './pipeline.js';
import type { RoomPort, RoomParts } from './port.js';
import { DjambiState } from './schema.js';
import { DEFAULT_ROOM_SETTINGS, type DjambiRoomSettings, describeRoom, MAX_CLIENTS, type RoomListing } from './settings.js';
import { Alarms, idleLifetime } from './timers.js';

export { DEFAULT_ROOM_SETTINGS, type DjambiRoomSettings, type RoomListing } from './settings.js';

/**
 * Patch interval while a room has clients: a 1 s heartbeat only, since a patch goes out right
 * after every accepted intent (`commit`). Empty rooms run none (`clientsChanged`).
 */
const PATCH_MS = 1000;

export class DjambiRoom extends GuardedRoom<DjambiState> {
  /** Set by `createServer` through a subclass. */
  static settings: DjambiRoomSettings = DEFAULT_ROOM_SETTINGS;

  override maxClients = MAX_CLIENTS;
  override autoDispose = false;
  override state = new DjambiState();

  code = '';
  links!: Connections;
  readonly spectatorIds = new Set<string>();
  readonly reconnecting = new Map<string, Deferred<Client>>();
  private journal!: Journal;
  private outbox!: Outbox;
  private door!: Door;
  private gate!: FrameGate;
  private pipeline!: Pipeline;
  private port!: RoomPort;
  /** The room's computer players (see `bots.ts`). */
  bots: BotDriver | null = null;
  private createdAt = 0;
  private everJoined = false;
  /** The flag timer and the idle timer (plain timers: an empty room runs no patch interval). */
  private readonly alarms = new Alarms({
    msToFlag: () => this.match.msToFlag(this.now()),
    flag: () => this.pipeline.act({ type: 'flag' }),
    empty: () => this.clients.length === 0 && this.reconnecting.size === 0,
    idleSeconds: () => idleLifetime(this.match.config.idleSeconds, this.settings.unjoinedSeconds, this.everJoined, this.match.phase === 'over'),
    expire: () => this.disconnect().catch(() => undefined),
  });

  private get settings(): DjambiRoomSettings {
    return (this.constructor as typeof DjambiRoom).settings;
  }

  /** Any throw while creating cleans up: Colyseus 0.16 does not dispose a room whose onCreate fails. */
  override async onCreate(options: unknown): Promise<void> {
    try {
      const opened = await openGame(options, this.settings, this.presence, () => this.now());
      this.setup(opened);
      if (!opened.restored) this.bots?.created(options);
      if (!opened.restored) await seatCreationBots(options, this.match, (intent) => this.pipeline.step(intent));
      if (opened.restored) {
        this.everJoined = true;
        await resume(this.journal, this.links, () => this.now());
      }
      this.roomId = this.code;
      listen({
        on: (type, listener) => this.onMessage(type, listener),
        onAny: (listener) => this.onMessage('*', listener),
        context: (client) => handlerContext(this.match, this.links, client.sessionId),
        act: (intent, client, type) => this.pipeline.act(intent, client, type),
        reply: (client, type, rejection) => this.outbox.reply(client, type, rejection),
      });
      if (this.match.config.visibility === 'private') await this.setPrivate(true);
      this.setPatchRate(null); // no patch interval while nobody is connected (see `clientsChanged`)
      this.shareHandshake();
      this.commit(true);
      this.alarms.scheduleFlag();
      this.alarms.armIdle();
    } catch (e) {
      this.setPatchRate(null);
      this.clock.clear();
      this.clock.stop();
      await release(this.alarms, this.presence, this.code).catch(() => undefined);
      throw creationError(e);
    }
  }

  /** Builds the parts of the room around its opened game. */
  private setup({ journal, createdAt }: Opened): void {
    this.journal = journal;
    this.code = journal.code;
    this.createdAt = createdAt;
    this.links = new Connections(seatsOf(journal.match.config.rules));
    const parts: RoomParts = { code: this.code, journal, links: this.links, spectatorIds: this.spectatorIds, reconnecting: this.reconnecting };
    this.outbox = new Outbox(parts, {
      clients: () => this.clients,
      sendEach: (clients, type, payload) => this.sendEach(clients, type, payload),
      rejected: this.settings.metrics ? (code) => this.settings.metrics?.rejected(code) : undefined,
    });
    this.door = new Door(this.settings.admission, journal, (sid) => this.hasReservation(sid));
    this.gate = new FrameGate(this.settings.budget);
    this.pipeline = new Pipeline(journal, this.links, this.outbox, this.alarms, {
      now: () => this.now(),
      commit: (listing) => this.commit(listing),
      fenced: () => closeFenced(this),
      turnPatched: this.settings.metrics ? (ms) => this.settings.metrics?.observeTurnToPatch(ms) : undefined,
    });
    this.bots = new BotDriver(
      {
        match: () => this.match,
        links: this.links,
        submit: (intent, refused) => this.pipeline.step(intent, undefined, intent.type, refused),
        now: () => this.now(),
        seed: seedOfCode(this.code),
      },
      this.settings.bots,
    );
    this.port = {
      ...parts,
      outbox: this.outbox,
      door: this.door,
      pipeline: this.pipeline,
      alarms: this.alarms,
      now: () => this.now(),
      commit: (listing) => this.commit(listing),
      holdFor: (client, seconds) => this.allowReconnection(client, seconds),
    };
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

  protected admitFrame(client: Client, frame: Frame): boolean {
    return this.gate.admit(client, frame, this.now(), (c, type, rejection) => this.outbox.reply(c, type, rejection));
  }

  override async onJoin(client: Client, _options: unknown, auth: AuthData): Promise<void> {
    this.everJoined = true;
    this.door.joined(client.sessionId, auth);
    this.clientsChanged();
    this.alarms.clearIdle();
    await arrive(this.port, client.sessionId, auth);
  }

  override async onLeave(client: Client, consented: boolean): Promise<void> {
    this.clientsChanged();
    await depart(this.port, client, consented);
  }

  /** The process is stopping (SIGTERM): see `closeForRestart`. */
  override onBeforeShutdown(): void {
    closeForRestart(this, this.journal.settled());
  }

  override async onDispose(): Promise<void> {
    this.bots?.dispose();
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

  /** Mirrors the match into the schema and sends the patch now (and the listing when it changed). */
  private commit(listing: boolean): void {
    this.bots?.sync();
    mirror({ code: this.code, match: this.match, links: this.links, spectators: this.spectatorIds.size, standIns: this.bots?.standingIn }, this.state);
    this.broadcastPatch();
    if (listing) this.setMetadata(this.describe()).catch(() => undefined);
    this.bots?.afterCommit();
  }

  /** The patch interval runs only while somebody is connected (patches also follow every change). */
  private clientsChanged(): void {
    const wanted = this.clients.length > 0 ? PATCH_MS : null;
    if (this.patchRate !== wanted) this.setPatchRate(wanted);
  }
}
