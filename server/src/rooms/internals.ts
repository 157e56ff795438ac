/**
 * Every use of a Colyseus internal, in one place, checked against @colyseus/core 0.16.26 (and
 * @colyseus/schema 3.0.76). Each has no public equivalent in 0.16; re-check them all when
 * Colyseus is upgraded. The room class extends `GuardedRoom` and implements its hooks; nothing
 * else in the server touches a private member of Colyseus.
 *
 * - `_reserveSeat`: the reservation a join gets before its WebSocket connects. Colyseus only
 *   knows `maxClients` (clients plus reservations); the room decides admission itself, by
 *   answering the entry check of Colyseus's `_reserveSeat` (`hasReachedMaxClients`, public, but
 *   the order of its calls there is not) and reading `_internalState` (disposing).
 * - `_onMessage`: every frame a client sends, before msgpack decoding.
 * - `reservedSeats` / `reservedSeatTimeouts`: whether a reservation still stands; the timers of
 *   reconnections pending at dispose, which 0.16 leaves running (a closing process would wait out
 *   the grace period).
 * - `_serializer.handshake`: the schema handshake each room caches as a slice of an 8 KB buffer.
 * - `client.enqueueRaw` with `getMessageBytes.raw`: one encoding of a message sent to several
 *   chosen clients (`client.send` would encode it once per client).
 * - `WebSocketTransport.wss` (@colyseus/ws-transport 0.16.5): the `ws` server, whose clients the
 *   staggered heartbeat pings (`http/heartbeat.ts`) instead of the transport's all-at-once loop.
 */
import { type Client, getMessageBytes, Protocol, Room } from '@colyseus/core';
import { decode } from '@colyseus/schema';
import type { WebSocketTransport } from '@colyseus/ws-transport';
import type { WebSocketServer } from 'ws';

/** A frame about to be decoded: its message type (null if undecodable) and where its payload starts. */
export interface Frame {
  readonly type: string | null;
  readonly buffer: Buffer;
  readonly payloadOffset: number;
  /** A `sendBytes` message (raw bytes instead of msgpack). */
  readonly rawBytes: boolean;
}

const sharedHandshakes = new WeakMap<object, Buffer>();

/** A room with admission and a frame gate in front of Colyseus's internals. */
export abstract class GuardedRoom<S extends object> extends Room<S> {
  /** Whether a (non-reconnection) reservation may be granted, whatever `maxClients` says. */
  protected abstract admitReservation(sessionId: string, authData: unknown): boolean;
  /** A reservation admitted above was granted. */
  protected abstract reservationGranted(sessionId: string, authData: unknown): void;
  /** Whether Colyseus may decode and dispatch this frame (the gate answers refusals itself). */
  protected abstract admitFrame(client: Client, frame: Frame): boolean;
  /** A bug was thrown while a frame was handled (it would otherwise escape the socket's listener and end the process). */
  protected abstract frameFault(error: unknown): void;

  protected override async _reserveSeat(
    sessionId: string,
    joinOptions?: unknown,
    authData?: unknown,
    seconds?: number,
    allowReconnection = false,
    devModeReconnection?: boolean,
  ): Promise<boolean> {
    if (allowReconnection) return super._reserveSeat(sessionId, joinOptions, authData, seconds, allowReconnection, devModeReconnection);
    if (!this.admitReservation(sessionId, authData)) return false;
    // Admission, not Colyseus's count, decides: its entry check (synchronous, at the call) is
    // answered "not full" once. Setting `maxClients` around the call instead saved the room's
    // listing twice per reservation (its setter writes the listing: two Redis writes per join).
    this.admitted = true;
    const reserved = super._reserveSeat(sessionId, joinOptions, authData, seconds, false, devModeReconnection);
    this.admitted = false;
    const ok = await reserved;
    if (ok) this.reservationGranted(sessionId, authData);
    return ok;
  }

  /** True while Colyseus's `_reserveSeat` makes its entry check for a reservation admission granted. */
  private admitted = false;

  /**
   * Colyseus's full-room check, except once for an admitted reservation (see `_reserveSeat`). Its
   * next call, where Colyseus counts the reservation and locks a full room's listing, is the real one.
   */
  override hasReachedMaxClients(): boolean {
    if (!this.admitted) return super.hasReachedMaxClients();
    this.admitted = false;
    return this.disposing;
  }

  /** Whether the room is being disposed (no reservation then, admitted or not). */
  private get disposing(): boolean {
    return (this as unknown as { _internalState: number })._internalState === 2; // RoomInternalState.DISPOSING
  }

  protected override _onMessage(client: Client & { state?: number }, buffer: Buffer): void {
    try {
      this.guardFrame(client, buffer);
    } catch (e) {
      this.frameFault(e);
    }
  }

  private guardFrame(client: Client & { state?: number }, buffer: Buffer): void {
    if (!buffer || buffer.length === 0) return;
    const code = buffer[0];
    if (code !== Protocol.ROOM_DATA && code !== Protocol.ROOM_DATA_BYTES) {
      super._onMessage(client as never, buffer);
      return;
    }
    const it = { offset: 1 };
    let type: string | null;
    try {
      type = (decode.stringCheck(buffer, it) ? decode.string(buffer, it) : String(decode.number(buffer, it))).slice(0, 64);
    } catch {
      type = null;
    }
    if (this.admitFrame(client, { type, buffer, payloadOffset: it.offset, rawBytes: code === Protocol.ROOM_DATA_BYTES })) {
      super._onMessage(client as never, buffer);
    }
  }

  /** Whether a reservation (pending join) still stands. */
  protected hasReservation(sessionId: string): boolean {
    return this.reservedSeats[sessionId] !== undefined;
  }

  /** Clears the timers of reservations still pending (call in onDispose). */
  protected clearReservationTimers(): void {
    for (const timer of Object.values(this.reservedSeatTimeouts)) clearTimeout(timer);
  }

  /** Makes this room serve the process-wide copy of its state class's handshake (memory). */
  protected shareHandshake(): void {
    const serializer = (this as unknown as { _serializer?: { handshake?: () => Buffer | undefined } })._serializer;
    const stateClass = (this.state as object | undefined)?.constructor;
    if (!serializer || typeof serializer.handshake !== 'function' || !stateClass) return;
    const original = serializer.handshake.bind(serializer);
    serializer.handshake = () => {
      let copy = sharedHandshakes.get(stateClass);
      if (!copy) {
        const bytes = original();
        if (!bytes) return bytes;
        copy = Buffer.from(bytes);
        sharedHandshakes.set(stateClass, copy);
      }
      return copy;
    };
  }

  /** Sends one message to several clients, encoded once (queued like `client.send` for joining clients). */
  protected sendEach(clients: Iterable<Client>, type: string, payload: unknown): void {
    let bytes: Buffer | null = null;
    for (const client of clients) {
      bytes ??= getMessageBytes.raw(Protocol.ROOM_DATA, type, payload);
      client.enqueueRaw(bytes);
    }
  }
}

/** The `ws` server behind a `WebSocketTransport` (its protected `wss`, @colyseus/ws-transport 0.16.5), for the heartbeat. */
export function socketServerOf(transport: WebSocketTransport): WebSocketServer {
  return (transport as unknown as { wss: WebSocketServer }).wss;
}
