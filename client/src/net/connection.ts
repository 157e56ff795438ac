/// <reference types="vite/client" />
/**
 * The connection to a game room: the only module that imports colyseus.js. It joins by code,
 * keeps the seat key in the browser, turns the synced state into plain snapshots, and after a
 * drop retries with backoff (reconnection token first, then the seat key).
 */
import { Client, type Room } from 'colyseus.js';
import {
  CLOSE_CODES,
  check,
  type AnySchema,
  type Colour,
  type Decoded,
  type JoinFailure,
  PRESS_SERVER_MESSAGES,
  PRESS_SERVER_SCHEMAS,
  type PressServerMessage,
  type PressServerMessages,
  parseJoinError,
  REMATCH_SERVER_MESSAGES,
  REMATCH_SERVER_SCHEMAS,
  RejectedMessage,
  SeatLostMessage,
  SeatMessage,
  TimeMessage,
  type Turn,
} from '@djambi/shared';
import { readSnapshot, type GameSnapshot } from '../game/snapshot.js';
import { backoffDelay, closeAction, rejoin } from './rejoin.js';
import { deviceToken, forgetSeat, loadSeat, saveSeat, type StoredSeat } from './seatStore.js';
import { ServerClock } from './serverClock.js';

/**
 * Why the page comes back by itself: the server is restarting (or another process took the game:
 * `server`), or the room closed after an internal error and its game re-opens (`room`).
 */
export type Restart = 'server' | 'room';

/**
 * The state of the socket, for the reconnection banner. `connected` is reported each time a
 * room object is attached (the first join and every reconnection): intents may be sent again.
 */
export type LinkState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'connected' }
  | {
      readonly kind: 'waiting';
      readonly retryAt: number;
      readonly attempt: number;
      readonly offline: boolean;
      /** Why the page comes back by itself, if the server said (see `Restart`). */
      readonly restart?: Restart;
    }
  | { readonly kind: 'retrying'; readonly attempt: number; readonly restart?: Restart }
  /** The server is restarting (`server_restart`): the page comes back by itself. */
  | { readonly kind: 'restarting' }
  | { readonly kind: 'failed'; readonly reason: string }
  /** The seat was reclaimed from another device (or the host removed it: `removed`); this page now watches. */
  | { readonly kind: 'moved'; readonly removed?: boolean }
  | { readonly kind: 'closed' };

/** What a connection reports. */
export interface ConnectionEvents {
  state(snapshot: GameSnapshot): void;
  seat(seat: StoredSeat | null): void;
  rejected(code: string, message: string, type: string, retryAfterMs?: number): void;
  link(state: LinkState): void;
  /** A negotiation message (`press_*`, `pact`, `betrayal`, `draw`), payload decoded with its shared schema. */
  press<K extends PressServerMessage>(type: K, payload: PressServerMessages[K]): void;
  /** A rematch message (`rematch_state`, `rematch_seat`), payload decoded with its shared schema. */
  rematch?(type: string, payload: unknown): void;
}

/** How to join. */
export interface JoinRequest {
  readonly name?: string;
  readonly colour?: Colour;
  readonly spectate?: boolean;
  /** The host token of a game this browser created: the seat taken with it is the host's. */
  readonly hostToken?: string;
}

/** A failed join: the server's code (`no_free_seat`, `bad_seat_key`, …) or `not_found`/`network`. */
export class JoinError extends Error implements JoinFailure {
  constructor(
    readonly code: JoinFailure['code'],
    message: string,
  ) {
    super(message);
  }
}

/**
 * Decodes a server message with its shared schema; a message that does not decode is logged and
 * dropped (undefined), never thrown.
 */
export function decodeMessage<S extends AnySchema>(type: string, schema: S, payload: unknown): Decoded<S> | undefined {
  const res = check(schema, payload);
  if (res.ok) return res.value;
  console.warn(`[djambi] dropped a malformed "${type}" message${res.error.path ? ` at "${res.error.path}"` : ''}: ${res.error.message}`);
  return undefined;
}

const MAX_ATTEMPTS = 40;
const OFFLINE_POLL_MS = 2000;

/** The Colyseus endpoint: same origin in production, the dev proxy under Vite. */
export function endpoint(): string {
  return import.meta.env.DEV ? `${location.origin}/colyseus` : location.origin;
}

/** One room connection. */
export class GameConnection {
  /** The server's clock as seen from here, probed on each connection: read server epoch times with it. */
  readonly clock = new ServerClock();
  private readonly client = new Client(endpoint());
  private room: Room | null = null;
  private seat: StoredSeat | null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  /** Token of the dropped connection: `client.reconnect` may bridge a short drop with it. */
  private reconnectToken: string | null = null;
  /** The server said it restarts: the banner says so until the room is back. */
  private restarting: Restart | undefined = undefined;
  /** The last `seat_lost` said the host removed us. */
  private removed = false;
  private readonly onOffline = (): void => this.dropped();
  private readonly onOnline = (): void => {
    if (this.timer !== null) this.retryNow();
  };
  /** A page shown again while waiting out a long (hidden-page) backoff retries at once. */
  private readonly onVisible = (): void => {
    if (document.visibilityState === 'visible' && this.timer !== null) this.retryNow();
  };
  /** The name this page joined with: a spectator coming back to a restarted server gives it again. */
  private name: string | undefined = undefined;

  constructor(
    readonly code: string,
    private readonly events: ConnectionEvents,
  ) {
    this.seat = loadSeat(code);
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
  }

  /** The seat held in this browser (from storage), if any. */
  get storedSeat(): StoredSeat | null {
    return this.seat;
  }

  /** True while a room is joined. */
  get connected(): boolean {
    return this.room !== null;
  }

  /**
   * Join the room: with the stored seat key if there is one (no questions asked), otherwise as
   * asked (a free seat, a colour, or watching).
   */
  async join(request: JoinRequest): Promise<void> {
    this.events.link({ kind: 'connecting' });
    try {
      await this.enter(request);
    } catch (e) {
      this.events.link({ kind: 'closed' });
      throw e;
    }
  }

  /** Leave the current room and join again differently (a spectator taking a seat). */
  async rejoin(request: JoinRequest): Promise<void> {
    const room = this.room;
    this.room = null;
    if (room) await room.leave(true).catch(() => undefined);
    await this.join(request);
  }

  /**
   * Send a complete turn with the state version it was made on. Returns false when it could not
   * go out: the caller keeps it and sends it again (same version) once the link is back.
   */
  sendTurn(turn: Turn, version?: number): boolean {
    const msg: Record<string, unknown> = { ...turn };
    if (version !== undefined) msg.version = version;
    return this.send('turn', msg);
  }

  /**
   * Send a room message (`start`, `resign`, `swap`, `name`, `draw_offer`, …). Returns false,
   * having sent nothing, when there is no open socket (dropped, or not noticed as dropped yet):
   * a message is never dropped without saying so.
   */
  send(type: string, message?: unknown): boolean {
    const room = this.room;
    if (!room?.connection.isOpen) return false;
    try {
      room.send(type, message ?? {});
      // A spectator's new name is the one to come back with after a restart.
      const name = type === 'name' ? (message as { name?: unknown } | undefined)?.name : undefined;
      if (typeof name === 'string' && name.trim() !== '') this.name = name;
      return true;
    } catch {
      return false;
    }
  }

  /** Retry a dropped connection at once. */
  retryNow(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    void this.retry();
  }

  /** Leave for good. */
  close(): void {
    this.closed = true;
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.timer !== null) clearTimeout(this.timer);
    const room = this.room;
    this.room = null;
    void room?.leave(true).catch(() => undefined);
  }

  // ------------------------------------------------------------------------------------------

  private async enter(request: JoinRequest): Promise<void> {
    let room: Room;
    if (this.seat) {
      try {
        room = await this.client.joinById(this.code, { seatKey: this.seat.seatKey, ...(request.name ? { name: request.name } : {}) });
      } catch (e) {
        const err = toJoinError(e);
        if (err.code !== 'bad_seat_key') throw err;
        // The stored key is no good (another game with the same code?): forget it.
        forgetSeat(this.code);
        this.seat = null;
        this.events.seat(null);
        room = await this.joinFresh(request);
      }
    } else {
      room = await this.joinFresh(request);
    }
    this.attach(room);
  }

  private async joinFresh(request: JoinRequest): Promise<Room> {
    if (request.name) this.name = request.name;
    const opts: Record<string, unknown> = {};
    if (request.name) opts.name = request.name; // a spectator's name shows in the spectators' channel
    if (request.spectate) opts.spectate = true;
    else if (request.colour) opts.colour = request.colour;
    if (!request.spectate && request.hostToken) opts.hostToken = request.hostToken;
    if (!request.spectate) opts.device = deviceToken();
    try {
      return await this.client.joinById(this.code, opts);
    } catch (e) {
      throw toJoinError(e);
    }
  }

  private attach(room: Room): void {
    this.room = room;
    this.attempt = 0;
    this.restarting = undefined;
    room.onStateChange((state: unknown) => {
      if (this.room !== room) return;
      const json = (state as { toJSON?: () => unknown }).toJSON?.() ?? state;
      this.events.state(readSnapshot(json));
    });
    room.onMessage('seat', (payload: unknown) => {
      const msg = decodeMessage('seat', SeatMessage, payload);
      if (!msg) return;
      this.seat = { colour: msg.colour, seatKey: msg.seatKey };
      saveSeat(this.code, this.seat);
      this.events.seat(this.seat);
    });
    room.onMessage('seat_lost', (payload: unknown) => {
      const lost = decodeMessage('seat_lost', SeatLostMessage, payload);
      if (!lost) return;
      this.removed = lost.reason === 'removed';
      // The seat was reclaimed from another device: watch from here on.
      forgetSeat(this.code);
      this.seat = null;
      this.events.seat(null);
    });
    room.onMessage('rejected', (payload: unknown) => {
      const msg = decodeMessage('rejected', RejectedMessage, payload);
      // A refused clock probe only ends the probe: nothing the player asked for.
      if (msg && msg.type !== 'time') this.events.rejected(msg.code, msg.message, String(msg.type), msg.retryAfterMs);
    });
    // The clock probe of this connection (`time` round trips, one at a time).
    const answered = this.clock.probe(() => this.room === room && this.send('time'));
    room.onMessage('time', (payload: unknown) => {
      const msg = this.room === room ? decodeMessage('time', TimeMessage, payload) : undefined;
      if (msg) answered(msg.now);
    });
    for (const type of PRESS_SERVER_MESSAGES) {
      room.onMessage(type, (payload: unknown) => {
        if (this.room !== room) return;
        const msg = decodeMessage(type, PRESS_SERVER_SCHEMAS[type], payload);
        if (msg) this.events.press(type, msg);
      });
    }
    for (const type of REMATCH_SERVER_MESSAGES) {
      room.onMessage(type, (payload: unknown) => {
        const msg = this.room === room ? decodeMessage(type, REMATCH_SERVER_SCHEMAS[type], payload) : undefined;
        if (msg) this.events.rematch?.(type, msg);
      });
    }
    room.onMessage('server_restart', () => {
      if (this.room !== room) return;
      this.restarting = 'server';
      this.events.link({ kind: 'restarting' });
    });
    room.onMessage('*', () => undefined);
    room.onLeave((code: number) => {
      if (this.room !== room) return;
      this.room = null;
      if (this.closed) return;
      const action = closeAction(code, this.seat !== null);
      if (action === 'moved') {
        // Our seat moved to another device: come back as a spectator.
        this.enter({ spectate: true, ...(this.name ? { name: this.name } : {}) }).then(
          () => this.events.link({ kind: 'moved', removed: this.removed }),
          () => this.schedule(!navigator.onLine),
        );
        return;
      }
      if (action === 'final') {
        this.events.link({ kind: 'closed' });
        return;
      }
      if (action === 'restart') {
        // 4101: the room hit an error and its game re-opens; 4100 and 4102: the server restarts, or another took the game.
        this.restarting = code === CLOSE_CODES.roomFault ? 'room' : 'server';
        this.attempt = 0;
      }
      this.reconnectToken = room.reconnectionToken;
      this.schedule(!navigator.onLine);
    });
    this.events.link({ kind: 'connected' });
    if (this.seat) this.events.seat(this.seat);
  }

  /** The socket is gone (or the browser went offline): close it and start retrying. */
  private dropped(): void {
    const room = this.room;
    if (!room || this.closed) {
      if (this.timer !== null) this.schedule(true);
      return;
    }
    this.room = null;
    this.reconnectToken = room.reconnectionToken;
    try {
      room.connection.close();
    } catch {
      /* already closed */
    }
    this.schedule(true);
  }

  private schedule(offline: boolean): void {
    if (this.closed) return;
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.attempt >= MAX_ATTEMPTS) {
      this.events.link({ kind: 'failed', reason: 'gave_up' });
      return;
    }
    // Offline: no point backing off; the `online` event retries at once, this is a fallback.
    const delay = offline ? OFFLINE_POLL_MS : backoffDelay(this.attempt, document.visibilityState !== 'hidden');
    if (!offline) this.attempt++;
    this.events.link({ kind: 'waiting', retryAt: Date.now() + delay, attempt: this.attempt, offline, restart: this.restarting });
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.retry();
    }, delay);
  }

  private async retry(): Promise<void> {
    if (this.closed || this.room) return;
    if (!navigator.onLine) {
      this.schedule(true);
      return;
    }
    this.events.link({ kind: 'retrying', attempt: this.attempt, restart: this.restarting });
    const token = this.reconnectToken;
    this.reconnectToken = null;
    try {
      // The token first; a restarted server knows none: then the code with the seat key.
      const io = { reconnect: (t: string) => this.client.reconnect(t), joinById: (o: Record<string, unknown>) => this.client.joinById(this.code, o) };
      try {
        const { room } = await rejoin(io, token, this.seat, this.name);
        if (this.closed) {
          void room.leave(true).catch(() => undefined);
          return;
        }
        this.attach(room);
        return;
      } catch (e) {
        // A stored key that is no good (another game with the same code?): forget it and watch.
        if (toJoinError(e).code !== 'bad_seat_key') throw e;
        forgetSeat(this.code);
        this.seat = null;
        this.events.seat(null);
        await this.enter({ spectate: true, ...(this.name ? { name: this.name } : {}) });
      }
    } catch (e) {
      const err = toJoinError(e);
      if (err.code === 'not_found') {
        this.events.link({ kind: 'failed', reason: 'not_found' });
        return;
      }
      this.schedule(!navigator.onLine);
    }
  }
}

/** A join failure as a `JoinError` with its code (read by the shared `parseJoinError`). */
export function toJoinError(e: unknown): JoinError {
  if (e instanceof JoinError) return e;
  const failure = parseJoinError(e);
  return new JoinError(failure.code, failure.message);
}
