/**
 * The only file of the server that touches private members of its libraries, each checked
 * against @colyseus/core 0.16.26 and @colyseus/ws-transport 0.16.5 (re-check on any upgrade:
 * tests/server/vendor.test.ts fails when one of them is gone).
 */
import { type Client, ClientState, Protocol, Room } from '@colyseus/core';
import { WebSocketClient, type WebSocketTransport } from '@colyseus/ws-transport';
import type { WebSocketServer } from 'ws';

/** A Colyseus room with three hooks that 0.16 has no public place for. */
export abstract class VendorRoom<S extends object> extends Room<S> {
  /**
   * Whether a (non-reconnection) reservation may be granted. `_reserveSeat` counts it against
   * `maxClients` before anything of the room is asked; admission must decide first so that a
   * flood of spectators never locks a seat holder out. Upstream: "a hook before a seat is
   * reserved (onReserveSeat), with the join's auth data" (open as of 0.16.26).
   */
  protected abstract admitReservation(sessionId: string, authData: unknown): boolean;

  /**
   * Whether a message frame may be decoded: the connection's budget is spent before Colyseus
   * decodes (a flood costs one byte read per frame, not a msgpack decode). False drops it; the
   * room answers the refusal. Upstream: "a pre-decode hook for message frames" (open as of 0.16.26).
   */
  protected abstract admitFrame(client: Client, frame: Buffer): boolean;

  protected override async _reserveSeat(
    sessionId: string,
    joinOptions?: unknown,
    authData?: unknown,
    seconds?: number,
    allowReconnection = false,
    devModeReconnection?: boolean,
  ): Promise<boolean> {
    if (!allowReconnection && !this.admitReservation(sessionId, authData)) return false;
    return super._reserveSeat(sessionId, joinOptions, authData, seconds, allowReconnection, devModeReconnection);
  }

  protected override _onMessage(client: Parameters<Room['_onMessage']>[0], buffer: Buffer): void {
    const code = buffer?.[0];
    if ((code === Protocol.ROOM_DATA || code === Protocol.ROOM_DATA_BYTES) && !this.admitFrame(client, buffer)) return;
    super._onMessage(client, buffer);
    // Where Colyseus has deleted the queue of a client that joined (see `keepClientsFast`).
    if (code === Protocol.JOIN_ROOM && client.state === ClientState.JOINED) (client as { _enqueuedMessages?: unknown })._enqueuedMessages = undefined;
  }

  /** Whether a reservation (a join on its way) still stands. */
  protected hasReservation(sessionId: string): boolean {
    return this.reservedSeats[sessionId] !== undefined;
  }

  /**
   * Clears the timers of reservations still pending, which 0.16 leaves running at dispose (a
   * closing process would wait out their grace). Upstream: "clear reservedSeatTimeouts in _dispose".
   */
  protected clearReservationTimers(): void {
    for (const timer of Object.values(this.reservedSeatTimeouts)) clearTimeout(timer);
  }

  /**
   * Makes each encoded patch a buffer of its own. 0.16's encoder returns a view of one buffer it
   * reuses for the next patch, while `ws` keeps a frame's buffer by reference until a slow socket
   * takes it: that client would get the next patch's bytes. Call once the state is set.
   * Upstream: "SchemaSerializer: patches sent by reference are overwritten by the next encode".
   */
  protected ownPatches(): void {
    const encoder = (this as unknown as { _serializer?: { encoder?: { encode?: (...args: unknown[]) => Buffer } } })._serializer?.encoder;
    const encode = encoder?.encode;
    if (!encoder || typeof encode !== 'function') throw new Error('vendor: no schema encoder (check vendor.ts against this Colyseus)');
    encoder.encode = (...args: unknown[]) => Buffer.from(encode.apply(encoder, args));
  }
}

/**
 * Keeps client objects in V8's fast mode: 0.16 deletes `client._enqueuedMessages` once a client
 * has joined, which puts every joined client in dictionary mode (each read of its fields a hash
 * lookup, six clients a turn; about 0.1 × the bare room's CPU per turn and 6 KB per room). The
 * property becomes an accessor over a field every client has, so the `delete` leaves the shape
 * alone; `_onMessage` above sets it to undefined where Colyseus deletes it. Call once before any
 * client connects. Upstream: "WebSocketClient: set _enqueuedMessages to undefined instead of
 * deleting it".
 */
export function keepClientsFast(): void {
  const proto = WebSocketClient.prototype as unknown as Record<string, unknown>;
  if (Object.getOwnPropertyDescriptor(proto, '_enqueuedMessages')) return;
  Object.defineProperty(proto, '_enqueuedMessages', {
    configurable: true,
    get(this: { enqueued?: unknown[] }) {
      return this.enqueued;
    },
    set(this: { enqueued?: unknown[] }, queue: unknown[] | undefined) {
      this.enqueued = queue;
    },
  });
}

/** The `ws` server of a transport (its protected `wss`), for the staggered heartbeat (`http/heartbeat.ts`). */
export function socketServerOf(transport: WebSocketTransport): WebSocketServer {
  const wss = (transport as unknown as { wss?: WebSocketServer }).wss;
  if (!wss) throw new Error('vendor: no ws server on the transport (check vendor.ts against this version)');
  return wss;
}
