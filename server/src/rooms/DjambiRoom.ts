/**
 * The `djambi` room: a thin adapter between Colyseus and a `Match`. It keeps the lifecycle
 * (create, join, leave, reconnect, dispose), the connection ↔ seat/member mapping, dispatch of
 * validated messages to the match, the schema (written by `mirror` only), sending what the match
 * returns to exactly the connections it names, and the timers that call back into the match.
 * No game or press rule lives here.
 */
import { type AuthContext, type Client, type Deferred, matchMaker, ServerError } from '@colyseus/core';
import { type Colour, seatsOf } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import { type Accepted, type Intent, Match, type Outcome } from '../match/match.js';
import type { Delivery, MemberId } from '../press/types.js';
import { isStoreError } from '../store/types.js';
import { Admission } from './admission.js';
import { CODES_KEY, releaseCode, reserveCode } from './codes.js';
import { Connections } from './connections.js';
import { isRejection } from './context.js';
import { FrameGate } from './gate.js';
import { HANDLERS } from './handlers/index.js';
import { type Frame, GuardedRoom } from './internals.js';
import { type AuthData, clientAddress, joinError, joinedRoomId, joinKind } from './join.js';
import { mirror } from './mirror.js';
import { CLOSE_FENCED, CLOSE_RESTART, restoreRequest, storageError, summaryOf } from './persistence.js';
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

  match!: Match;
  code = '';
  private links!: Connections;
  private admission!: Admission;
  private gate!: FrameGate;
  private createdAt = 0;
  private everJoined = false;
  private readonly spectatorIds = new Set<string>();
  private readonly reconnecting = new Map<string, Deferred<Client>>();
  private readonly timers = new RoomTimers();
  /** The intents in progress, one after another (see `step`). */
  private chain: Promise<void> = Promise.resolve();
  /** The store knows the game is finished. */
  private finished = false;
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
    if (restore) {
      await this.reopen(restore);
    } else {
      const join = checkJoinOptions(options, CREATE_KEYS);
      if (!join.ok) throw joinError('bad_options', join.error.message);
      const parsed = parseRoomConfig(options, settings);
      if (!parsed.ok) throw joinError(parsed.error.code, parsed.error.message);
      this.setup(new Match(parsed.value));
      this.createdAt = this.now();
      this.code = await this.claimCode();
    }
    this.roomId = this.code;
    for (const [type, handler] of Object.entries(HANDLERS)) {
      this.onMessage(type, (client, message) => {
        const intent = handler(this.handlerContext(client), message);
        if (isRejection(intent)) this.reply(client, type, intent);
        else this.act(intent, client, type);
      });
    }
    this.onMessage('*', (client, type) => {
      // `type` comes from the client: a string or a number (or anything, for the type "*").
      const name = typeof type === 'string' || typeof type === 'number' ? String(type).slice(0, 64) : '?';
      this.reply(client, name, { code: 'unknown_message', message: `unknown message type "${name}"` });
    });
    // Colyseus's own fallback key: a client could name it explicitly.
    this.onMessage('__no_message_handler', (client) =>
      this.reply(client, '__no_message_handler', { code: 'unknown_message', message: 'unknown message type' }),
    );
    if (this.match.config.visibility === 'private') await this.setPrivate(true);
    this.setPatchRate(null); // no patch interval while nobody is connected (see `clientsChanged`)
    this.shareHandshake();
    this.commit(true);
    this.armIdleTimer();
  }

  private setup(match: Match): void {
    this.match = match;
    this.links = new Connections(seatsOf(match.config.rules));
    this.admission = new Admission(this.settings.admission);
    this.gate = new FrameGate(this.settings.budget);
  }

  /** A fresh code, unique in presence and, with a store, in the log (its primary key). */
  private async claimCode(): Promise<string> {
    const store = this.settings.store;
    for (let attempt = 0; ; attempt++) {
      const code = await reserveCode(this.presence);
      if (!store) return code;
      try {
        await store.createGame(code, this.match.config, this.createdAt);
        return code;
      } catch (e) {
        await releaseCode(this.presence, code);
        if (!isStoreError(e, 'code_taken') || attempt >= 10) throw storageError(e);
      }
    }
  }

  /**
   * Re-opens a stored, unfinished game under its code: the match is replayed from its log,
   * the seats show `away` until their holders come back with their keys, spectators of the
   * dead process are gone, and the running clock restarts now (a `resume` event).
   */
  private async reopen(code: string): Promise<void> {
    const store = this.settings.store;
    const stored = store ? await store.load(code).catch((e) => Promise.reject(storageError(e))) : null;
    if (!stored || stored.status === 'finished') throw joinError('bad_options', `no unfinished game ${code} in the store`);
    this.setup(Match.restore(stored.config, stored.events));
    this.code = code;
    this.createdAt = stored.createdAt;
    this.everJoined = true;
    await this.presence.sadd(CODES_KEY, code);
    for (const seat of this.match.seats.seats.values()) if (seat.keyHash !== null) this.links.absent(seat.colour, this.now());
    for (const id of this.match.press.roster.spectatorIds()) await this.step({ type: 'unspectate', id });
    if (this.match.phase === 'playing') await this.step({ type: 'resume' });
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
    return this.gate.admit(client, frame, this.now(), (c, type, rejection) => this.reply(c, type, rejection));
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
      await this.chain; // the seat as every earlier intent left it
      const seat = this.match.seats.byKey(opts.seatKey);
      if (!seat) throw joinError('bad_seat_key', 'no seat has this key');
      const replaced = this.links.connect(seat.colour, sid, opts.seatKey, this.now());
      if (replaced !== null) this.evict(replaced, seat.colour);
      this.sendSeat(seat.colour);
      if (opts.name && opts.name !== seat.name) await this.step({ type: 'rename', colour: seat.colour, name: opts.name });
      this.commit(true);
      return;
    }
    await this.step({ type: 'take_seat', name: opts.name, colour: opts.colour }, undefined, 'join', this.joinFailure, (out) => {
      if (out.seat) this.links.connect(out.seat.colour, sid, out.seat.key, this.now());
    });
    const colour = this.links.colourOf(sid);
    if (colour) this.sendSeat(colour);
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
      if (again) this.sendSeat(again);
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
    void this.chain.then(() => {
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
  private step(
    intent: Intent,
    client?: Client,
    type: string = intent.type,
    refused?: (rejection: Rejection) => void,
    accepted?: (out: Accepted) => void,
  ): Promise<Accepted | null> {
    const run = this.chain.then(() => this.decide(intent, client, type, refused, accepted));
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async decide(
    intent: Intent,
    client: Client | undefined,
    type: string,
    refused?: (rejection: Rejection) => void,
    accepted?: (out: Accepted) => void,
  ): Promise<Accepted | null> {
    const before = this.match.events.length;
    let out: Outcome;
    try {
      out = this.match.apply(intent, this.now());
    } catch (e) {
      console.error(`[djambi ${this.code}] ${intent.type} threw:`, e);
      this.match = Match.restore(this.match.config, this.match.events.slice(0, before));
      out = { ok: false, rejection: { code: 'internal_error', message: 'the server could not process this message' } };
    }
    if (!out.ok) {
      if (client) this.reply(client, type, out.rejection);
      refused?.(out.rejection);
      return null;
    }
    const fresh = this.match.events.slice(before);
    const store = this.settings.store;
    if (store && fresh.length > 0) {
      try {
        await store.appendMany(this.code, before + 1, fresh);
        if (this.match.phase === 'over' && !this.finished) {
          this.finished = true;
          await store.finish(this.code, this.now(), summaryOf(this.match));
        }
      } catch (e) {
        this.match = Match.restore(this.match.config, this.match.events.slice(0, before));
        const rejection: Rejection = { code: 'storage_unavailable', message: 'the game could not be saved: nothing changed; try again' };
        if (client) this.reply(client, type, rejection);
        if (isStoreError(e, 'fenced')) this.fenced();
        else console.error(`[djambi ${this.code}] store append failed:`, e);
        refused?.(rejection);
        return null;
      }
    }
    accepted?.(out);
    this.publish(out);
    if (out.refused && client) this.reply(client, type, out.refused);
    return out;
  }

  /** Another process appended to this game's log: this copy is stale and closes its clients. */
  private fenced(): void {
    console.error(`[djambi ${this.code}] fenced: another process holds this game; closing this copy`);
    this.broadcast('server_moved', { code: this.code });
    this.disconnect(CLOSE_FENCED).catch(() => undefined);
  }

  /** Sends what an accepted intent returned: seat moves, the patch, broadcasts, deliveries, listing. */
  private publish(out: Accepted): void {
    if (out.moves.length > 0) {
      this.links.move(out.moves, this.now());
      for (const m of out.moves) this.sendSeat(m.to, false);
    }
    for (const b of out.broadcasts) this.broadcast(b.type, b.payload, { afterNextPatch: true });
    this.commit(out.listingChanged);
    this.deliver(out.deliveries);
    this.scheduleFlag();
    if (this.match.phase === 'over') this.armIdleTimer();
  }

  /** Sends `seat` to the seat's holder, then (unless told not to) its `press_history`. */
  private sendSeat(colour: Colour, history = true): void {
    const link = this.links.of(colour);
    const client = link.sessionId === null ? undefined : this.clientById(link.sessionId);
    if (!client || link.key === null) return;
    client.send('seat', { colour, seatKey: link.key });
    if (history) this.deliver([this.match.historyDelivery(colour)]);
  }

  private deliver(deliveries: readonly Delivery[]): void {
    if (deliveries.length === 0) return;
    const bySession = new Map(this.clients.map((c) => [c.sessionId, c]));
    for (const d of deliveries) {
      try {
        const to: Client[] = [];
        for (const member of d.to) {
          const sid = this.sessionOf(member);
          const client = sid === null ? undefined : bySession.get(sid);
          if (client) to.push(client); // not connected: its history has it
        }
        this.sendEach(to, d.type, d.payload);
      } catch (e) {
        console.error(`[djambi ${this.code}] could not deliver "${d.type}":`, e);
      }
    }
  }

  /** Mirrors the match into the schema and sends the patch now (and the listing when it changed). */
  private commit(listing: boolean): void {
    mirror({ code: this.code, match: this.match, links: this.links, spectators: this.spectatorIds.size }, this.state);
    this.broadcastPatch();
    if (listing) this.setMetadata(this.describe()).catch(() => undefined);
  }

  private reply(client: Client, type: string, rejection: Rejection): void {
    const { code, message, retryAfterMs, path } = rejection;
    try {
      client.send('rejected', { type, code, message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), ...(path === undefined ? {} : { path }) });
    } catch (e) {
      console.error(`[djambi ${this.code}] could not send a rejection:`, e);
    }
  }

  /** The session id of a press member's connection: a seat's holder, or the spectator itself. */
  private sessionOf(member: MemberId): string | null {
    if (this.match.seats.get(member as Colour)) return this.links.of(member as Colour).sessionId;
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
