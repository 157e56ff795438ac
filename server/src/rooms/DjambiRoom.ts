/**
 * The `djambi` room: a thin adapter between Colyseus and a `Match`. It keeps the lifecycle
 * (create, join, leave, reconnect, dispose), the connection ↔ seat/member mapping, dispatch of
 * validated messages to the match, the schema (written by `mirror` only), sending what the match
 * returns to exactly the connections it names, and the timers that call back into the match.
 * No game or press rule lives here.
 */
import { type AuthContext, type Client, type Deferred, matchMaker, ServerError } from '@colyseus/core';
import { seatsOf } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import { type Accepted, type Intent, Match } from '../match/match.js';
import type { MemberId } from '../press/types.js';
import { Admission } from './admission.js';
import { releaseCode } from './codes.js';
import { Connections } from './connections.js';
import { Journal } from './journal.js';
import { Outbox } from './outbox.js';
import { isRejection } from './context.js';
import { FrameGate } from './gate.js';
import { HANDLERS } from './handlers/index.js';
import { type Frame, GuardedRoom } from './internals.js';
import { type AuthData, clientAddress, joinError, joinedRoomId, joinKind } from './join.js';
import { mirror } from './mirror.js';
import { CLOSE_FENCED, CLOSE_RESTART, restoreRequest } from './persistence.js';
import { CREATE_KEYS, parseRoomConfig } from './options.js';
import { DjambiState } from './schema.js';
import { DEFAULT_ROOM_SETTINGS, type DjambiRoomSettings, describeRoom, MAX_CLIENTS, type RoomListing } from './settings.js';
import { type Cancel, RoomTimers } from './timers.js';
import { checkJoinOptions } from './validate.js';

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
  private journal!: Journal;
  links!: Connections;
  private outbox!: Outbox;
  private admission!: Admission;
  private gate!: FrameGate;
  private createdAt = 0;
  private everJoined = false;
  readonly spectatorIds = new Set<string>();
  readonly reconnecting = new Map<string, Deferred<Client>>();
  private readonly timers = new RoomTimers();
  private flagTimer: Cancel | null = null;
  private idleTimer: Cancel | null = null;

  private get settings(): DjambiRoomSettings {
    return (this.constructor as typeof DjambiRoom).settings;
  }

  /** Any throw while creating cleans up: Colyseus 0.16 does not dispose a room whose onCreate fails. */
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
    const restore = restoreRequest(options, settings.restoreToken);
    const now = () => this.now();
    if (restore) {
      const { journal, createdAt } = await Journal.reopen(restore, this.presence, settings.store, now);
      this.setup(journal, createdAt);
      await this.resume();
    } else {
      const join = checkJoinOptions(options, CREATE_KEYS);
      if (!join.ok) throw joinError('bad_options', join.error.message);
      const parsed = parseRoomConfig(options, settings);
      if (!parsed.ok) throw joinError(parsed.error.code, parsed.error.message);
      this.setup(await Journal.create(new Match(parsed.value), this.now(), this.presence, settings.store, now), this.now());
    }
    this.roomId = this.code;
    for (const [type, handler] of Object.entries(HANDLERS)) {
      this.onMessage(type, (client, message) => {
        const intent = handler(this.handlerContext(client), message);
        if (isRejection(intent)) this.outbox.reply(client, type, intent);
        else this.act(intent, client, type);
      });
    }
    this.onMessage('*', (client, type) => {
      // `type` comes from the client: a string or a number (or anything, for the type "*").
      const name = typeof type === 'string' || typeof type === 'number' ? String(type).slice(0, 64) : '?';
      this.outbox.reply(client, name, { code: 'unknown_message', message: `unknown message type "${name}"` });
    });
    // Colyseus's own fallback key: a client could name it explicitly.
    this.onMessage('__no_message_handler', (client) =>
      this.outbox.reply(client, '__no_message_handler', { code: 'unknown_message', message: 'unknown message type' }),
    );
    if (this.match.config.visibility === 'private') await this.setPrivate(true);
    this.setPatchRate(null); // no patch interval while nobody is connected (see `clientsChanged`)
    this.shareHandshake();
    this.commit(true);
    this.scheduleFlag();
    this.armIdleTimer();
  }

  private setup(journal: Journal, createdAt: number): void {
    this.journal = journal;
    this.code = journal.code;
    this.createdAt = createdAt;
    this.links = new Connections(seatsOf(journal.match.config.rules));
    this.outbox = new Outbox({
      code: this.code,
      links: this.links,
      spectatorIds: this.spectatorIds,
      reconnecting: this.reconnecting,
      clients: () => this.clients,
      match: () => this.match,
      sendEach: (clients, type, payload) => this.sendEach(clients, type, payload),
    });
    this.admission = new Admission(this.settings.admission);
    this.gate = new FrameGate(this.settings.budget);
  }

  /**
   * A game re-opened from the log: the seats show `away` until their holders come back with
   * their keys, spectators of the dead process are gone, and the running clock restarts now.
   */
  private async resume(): Promise<void> {
    this.everJoined = true;
    const match = this.match;
    for (const seat of match.seats.seats.values()) if (seat.keyHash !== null) this.links.absent(seat.colour, this.now());
    const intents: Intent[] = match.press.roster.spectatorIds().map((id) => ({ type: 'unspectate', id }));
    if (match.phase === 'playing') intents.push({ type: 'resume' });
    for (const intent of intents) {
      const entry = await this.journal.submit(intent);
      if (!entry.ok) throw joinError('storage_unavailable', entry.rejection.message);
    }
    await this.journal.finishIfOver();
  }

  /** The match (as every saved intent left it). */
  get match(): Match {
    return this.journal.match;
  }

  /**
   * Join options are checked by the matchmaker before any reservation; the answer carries the
   * client's address. When the room lives in this process, admission is asked here too, so that a
   * refusal reaches the client with its code (`spectators_full`, `too_many_joins`...).
   */
  static override async onAuth(_token: string, options: unknown, context: AuthContext): Promise<AuthData> {
    const join = checkJoinOptions(options, CREATE_KEYS);
    if (!join.ok) throw joinError('bad_options', join.error.message);
    const address = clientAddress(context);
    const roomId = joinedRoomId(context);
    const room = roomId ? matchMaker.getLocalRoomById(roomId) : undefined;
    if (room instanceof DjambiRoom) {
      const kind = joinKind(room.match, join.value);
      if ('code' in kind) throw joinError(kind.code, kind.message);
      const refusal = room.admission.check(kind, address, (sid) => room.hasReservation(sid));
      if (refusal) throw joinError(refusal.code, refusal.message);
    }
    return { join: join.value, address };
  }

  /** Admission decides every reservation (see `internals.ts`): seat key holders always get in. */
  protected admitReservation(_sessionId: string, authData: unknown): boolean {
    const auth = authData as AuthData | undefined;
    const kind = auth?.join ? joinKind(this.match, auth.join) : null;
    return kind !== null && !('code' in kind) && this.admission.check(kind, auth!.address, (sid) => this.hasReservation(sid)) === null;
  }

  protected reservationGranted(sessionId: string, authData: unknown): void {
    const auth = authData as AuthData;
    const kind = joinKind(this.match, auth.join);
    if (!('code' in kind)) this.admission.reserved(sessionId, kind, auth.address);
  }

  protected admitFrame(client: Client, frame: Frame): boolean {
    return this.gate.admit(client, frame, this.now(), (c, type, rejection) => this.outbox.reply(c, type, rejection));
  }

  override async onJoin(client: Client, _options: unknown, auth: AuthData): Promise<void> {
    const opts = auth.join;
    const sid = client.sessionId;
    this.everJoined = true;
    this.admission.joined(sid, opts.spectate ? auth.address : null);
    this.clientsChanged();
    this.clearIdleTimer();
    if (opts.spectate) {
      this.spectatorIds.add(sid);
      const out = await this.step({ type: 'spectate', id: sid, name: opts.name, limitKey: `addr:${auth.address}` }, undefined, 'join', this.joinFailure);
      if (!out) this.spectatorIds.delete(sid);
      return;
    }
    if (opts.seatKey !== undefined) {
      await this.journal.settled(); // the seat as every earlier intent left it
      const seat = this.match.seats.byKey(opts.seatKey);
      if (!seat) throw joinError('bad_seat_key', 'no seat has this key');
      const replaced = this.links.connect(seat.colour, sid, opts.seatKey, this.now());
      if (replaced !== null) this.outbox.evict(replaced, seat.colour);
      this.outbox.sendSeat(seat.colour);
      if (opts.name && opts.name !== seat.name) await this.step({ type: 'rename', colour: seat.colour, name: opts.name });
      this.commit(true);
      return;
    }
    await this.step({ type: 'take_seat', name: opts.name, colour: opts.colour }, undefined, 'join', this.joinFailure, (out) => {
      if (out.seat) this.links.connect(out.seat.colour, sid, out.seat.key, this.now());
    });
    const colour = this.links.colourOf(sid);
    if (colour) this.outbox.sendSeat(colour);
  }

  /** A join the match or the store refused: the SDK's promise rejects with the join error code. */
  private readonly joinFailure = (rejection: Rejection): never => {
    const code = rejection.code;
    throw joinError(
      code === 'no_free_seat' || code === 'storage_unavailable' ? code : code === 'already_started' ? 'game_started' : 'seat_taken',
      rejection.message,
    );
  };

  override async onLeave(client: Client, consented: boolean): Promise<void> {
    const sid = client.sessionId;
    this.clientsChanged();
    if (this.spectatorIds.delete(sid)) {
      this.admission.left(sid);
      this.act({ type: 'unspectate', id: sid });
      this.armIdleTimer();
      return;
    }
    const colour = this.links.colourOf(sid);
    if (colour === null) return this.armIdleTimer(); // replaced by a reclaim, or a join that failed
    if (consented || this.match.config.graceSeconds <= 0) {
      if (consented && this.match.phase === 'waiting') {
        this.links.free(colour, this.now());
        this.act({ type: 'leave_seat', colour });
      } else {
        this.links.away(sid, this.now());
        this.commit(true);
      }
      return this.armIdleTimer();
    }
    // A network drop: the same connection may come back for a while.
    this.links.dropped(sid, this.now());
    this.commit(false);
    try {
      const reconnection = this.allowReconnection(client, this.match.config.graceSeconds);
      this.reconnecting.set(sid, reconnection);
      await reconnection;
      const again = this.links.reconnected(sid, this.now());
      if (again) this.outbox.sendSeat(again);
      this.clearIdleTimer();
    } catch {
      this.links.away(sid, this.now()); // no-op if the seat was reclaimed meanwhile
      this.armIdleTimer();
    } finally {
      this.reconnecting.delete(sid);
    }
    this.commit(true);
  }

  /**
   * The process is stopping (SIGTERM): once the intents in progress are saved, every client is
   * told `server_restart` and closed with `CLOSE_RESTART` (not 4000, a voluntary leave). Nothing
   * is lost: the game is in the log, and clients come back to wherever it is re-opened.
   */
  override onBeforeShutdown(): void {
    void this.journal.settled().then(() => {
      this.broadcast('server_restart', { code: this.code });
      return this.disconnect(CLOSE_RESTART);
    });
  }

  override async onDispose(): Promise<void> {
    this.timers.clearAll();
    this.clearReservationTimers(); // 0.16 leaves pending reconnections' timers running
    if (this.code) await releaseCode(this.presence, this.code);
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

  // ---- internals ---------------------------------------------------------------------------

  private handlerContext(client: Client) {
    const colour = this.links.colourOf(client.sessionId);
    return {
      match: this.match,
      colour,
      member: (colour ?? client.sessionId) as MemberId,
      creatorConnected: () => {
        const creator = this.match.seats.creatorColour();
        return creator !== null && this.links.of(creator).presence === 'connected';
      },
    };
  }

  /** Applies an intent to the match and publishes what happened; a refusal goes to `client`. */
  private act(intent: Intent, client?: Client, type: string = intent.type): void {
    void this.step(intent, client, type);
  }

  /**
   * One intent, in the room's chain (one at a time, each judged against the state every earlier
   * one left): the match decides; what it accepted is appended to the log; only then does anybody
   * see it. A failed append undoes the intent (the match is rebuilt from the log without it) and
   * answers `storage_unavailable`; a fenced append (another process holds the game) closes the room.
   */
  /**
   * One intent through the journal (saved before anybody sees it), then published; a refusal
   * goes to `client`, or to `refused` (a join).
   */
  private async step(
    intent: Intent,
    client?: Client,
    type: string = intent.type,
    refused?: (r: Rejection) => void,
    accepted?: (out: Accepted) => void,
  ): Promise<Accepted | null> {
    const entry = await this.journal.submit(intent);
    if (!entry.ok) {
      if (client) this.outbox.reply(client, type, entry.rejection);
      if (entry.fenced) this.fenced();
      refused?.(entry.rejection);
      return null;
    }
    accepted?.(entry.out);
    this.publish(entry.out);
    if (entry.out.refused && client) this.outbox.reply(client, type, entry.out.refused);
    return entry.out;
  }

  /** Another process appended to this game's log: this copy is stale and closes its clients. */
  private fenced(): void {
    console.error(`[djambi ${this.code}] fenced: another process holds this game; closing this copy`);
    this.broadcast('server_moved', { code: this.code });
    this.disconnect(CLOSE_FENCED).catch(() => undefined);
  }

  /** Sends what an accepted intent returned: seat moves, the patch, deliveries, listing. */
  private publish(out: Accepted): void {
    if (out.moves.length > 0) {
      this.links.move(out.moves, this.now());
      for (const m of out.moves) this.outbox.sendSeat(m.to, false);
    }
    this.commit(out.listingChanged);
    this.outbox.deliver(out.deliveries);
    this.scheduleFlag();
    if (this.match.phase === 'over') this.armIdleTimer();
  }

  /** Mirrors the match into the schema and sends the patch now (and the listing when it changed). */
  private commit(listing: boolean): void {
    mirror({ code: this.code, match: this.match, links: this.links, spectators: this.spectatorIds.size }, this.state);
    this.broadcastPatch();
    if (listing) this.setMetadata(this.describe()).catch(() => undefined);
  }

  /** The flag timer: fires when the running clock runs out, and asks the match to check. */
  private scheduleFlag(): void {
    this.flagTimer?.();
    this.flagTimer = null;
    const ms = this.match.msToFlag(this.now());
    if (ms === null) return;
    this.flagTimer = this.timers.later(ms + 1, () => {
      this.flagTimer = null;
      this.act({ type: 'flag' });
      if (this.flagTimer === null) this.scheduleFlag();
    });
  }

  /** The patch interval runs only while somebody is connected (patches also follow every change). */
  private clientsChanged(): void {
    const wanted = this.clients.length > 0 ? PATCH_MS : null;
    if (this.patchRate !== wanted) this.setPatchRate(wanted);
  }

  private armIdleTimer(): void {
    if (this.clients.length > 0 || this.reconnecting.size > 0) return;
    this.clearIdleTimer();
    const idle = this.everJoined ? this.match.config.idleSeconds : Math.min(this.settings.unjoinedSeconds, this.match.config.idleSeconds);
    const seconds = this.match.phase === 'over' ? Math.min(60, idle) : idle;
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
