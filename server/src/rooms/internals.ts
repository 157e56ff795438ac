/**
 * Every use of a Colyseus internal, in one place, checked against @colyseus/core 0.16.26 (and
 * @colyseus/schema 3.0.76). Each has no public equivalent in 0.16; re-check them all when
 * Colyseus is upgraded. The room class extends `GuardedRoom`, implements its hooks and sets its
 * frame gate (`frames`); nothing else in the server touches a private member of Colyseus.
 *
 * - `_reserveSeat`: the reservation a join gets before its WebSocket connects. Colyseus only
 *   knows `maxClients` (clients plus reservations); the room decides admission itself, by
 *   answering the entry check of Colyseus's `_reserveSeat` (`hasReachedMaxClients`, public, but
 *   the order of its calls there is not) and reading `_internalState` (disposing).
 * - `_onMessage`: every frame a client sends, before msgpack decoding.
 * - `reservedSeats` / `reservedSeatTimeouts`: whether a reservation still stands; the timers of
 *   reconnections pending at dispose, which 0.16 leaves running (a closing process would wait out
 *   the grace period).
 * - `_serializer.handshake`, `getFullState`, `fullEncodeBuffer`, `needFullEncode`, `encoder`
 *   (and the encoder's `sharedBuffer`): the schema handshake each room caches as a slice of an 8 KB
 *   buffer, and the two 8 KB buffers each room encodes its patches and its whole state into
 *   (`shareSerializer`).
 * - `_serializer.applyPatches`, `_afterNextPatchQueue`, `_dequeueAfterPatchMessages`: the patch
 *   after each commit, sent by the room's patcher (`patchParts`, `patcher.ts`) without
 *   `broadcastPatch`, whose reads of the room object are hash lookups (a room is in V8's
 *   dictionary mode once the matchmaker's `__init` has made four of its properties accessors).
 * - `Encoder.prototype.encode` as the library defines it, `encoder.hasChanges` and
 *   `discardChanges`, `serializer.needFullEncode`, and of `ws` 8.23 a `WebSocket`'s `readyState`,
 *   `_extensions` and `_sender` (its `_state`, `_firstFragment` and `_socket`): the patch, encoded
 *   once and written to every client's socket as one frame (`patchSender`).
 * - `client.enqueueRaw` with `getMessageBytes.raw`: one encoding of a message sent to several
 *   chosen clients (`client.send` would encode it once per client).
 * - `WebSocketTransport.wss` (@colyseus/ws-transport 0.16.5): the `ws` server, whose clients the
 *   staggered heartbeat pings (`http/heartbeat.ts`) instead of the transport's all-at-once loop.
 * - `ChangeTree.prototype.endEncode` and `ArraySchema.prototype[$onEncodeEnd]` (@colyseus/schema
 *   3.0.76): see `patchSchemaCollections`.
 */
import { type Client, ClientState, getMessageBytes, Protocol, Room } from '@colyseus/core';
import { $changes, $childType, ArraySchema, type ChangeSetName, ChangeTree, decode, Encoder, OPERATION, Schema } from '@colyseus/schema';
import { unpack } from '@colyseus/msgpackr';
import { WebSocketClient, type WebSocketTransport } from '@colyseus/ws-transport';
import type { WebSocketServer } from 'ws';
import type { PatchParts } from './patcher.js';

/** A frame about to be decoded: its message type (null if undecodable) and where its payload starts. */
export interface Frame {
  readonly type: string | null;
  readonly buffer: Buffer;
  readonly payloadOffset: number;
  /** A `sendBytes` message (raw bytes instead of msgpack). */
  readonly rawBytes: boolean;
}

const sharedHandshakes = new WeakMap<object, Buffer>();

/**
 * Every room's patches and whole states are encoded here, one at a time, and copied out
 * (`shareSerializer`): 64 KB, about 5,000 moves. (A larger state is encoded by the library in a
 * buffer of its own, with a warning.)
 */
const SCRATCH: Buffer = Buffer.allocUnsafe(64 * 1024);

/** @colyseus/core 0.16.26's `SchemaSerializer`, as `shareSerializer` uses it. */
interface SerializerInternals {
  handshake(): Buffer | undefined;
  getFullState(client?: unknown): Buffer;
  hasFilters: boolean;
  needFullEncode: boolean;
  fullEncodeBuffer: Buffer;
  fullEncodeCache?: Buffer;
  encoder: EncoderInternals;
}

/** What the frame gate of a room does with a message frame (`GuardedRoom.frames`). */
export interface FrameGuard {
  /** Whether the frame may be decoded and dispatched (the gate answers refusals itself). */
  admit(client: Client, frame: Frame): boolean;
  /**
   * Dispatches an admitted message: its type as the client sent it (a string or a number) and
   * its decoded payload (see `dispatch.ts` `listen`, which returns this listener).
   */
  deliver(client: Client, type: string | number, message: unknown): void;
  /**
   * A bug was thrown while a frame was handled, in the gate (`frame`) or in the message's
   * listener (`onMessage`): it would otherwise escape the socket's listener and end the process.
   */
  fault(error: unknown, where: 'frame' | 'onMessage'): void;
}

/**
 * Where a client keeps its room's frame gate, read on every frame: a client is a fast object
 * (`keepClientsFast`) and warm (its frame was just read), while `this.frames` is a hash lookup
 * on a room gone cold since its last turn. A room sets its gate before anybody can join.
 */
const FRAMES = Symbol('djambi.frames');

/** The gate of a room whose parts do not exist yet: no message frame gets through. */
const CLOSED_GATE: FrameGuard = Object.freeze({ admit: () => false, deliver: () => undefined, fault: () => undefined });

/** A room with admission and a frame gate in front of Colyseus's internals. */
export abstract class GuardedRoom<S extends object> extends Room<S> {
  /** Whether a (non-reconnection) reservation may be granted, whatever `maxClients` says. */
  protected abstract admitReservation(sessionId: string, authData: unknown): boolean;
  /** A reservation admitted above was granted. */
  protected abstract reservationGranted(sessionId: string, authData: unknown): void;
  /**
   * The frame gate, set by the room once its parts exist (no client can send before): one plain
   * object read once per frame, where each hook read on the room itself would be a hash lookup
   * (a room object is in V8's dictionary mode: see `patcher.ts`).
   */
  protected frames: FrameGuard = CLOSED_GATE;

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

  protected override _onMessage(client: Client & { state?: number; [FRAMES]?: FrameGuard }, buffer: Buffer): void {
    // Kept on the client from its first frame (the join): the room is not read for each frame.
    const frames = client[FRAMES] ?? (client[FRAMES] = this.frames);
    try {
      if (!buffer || buffer.length === 0) return;
      const code = buffer[0];
      if (code !== Protocol.ROOM_DATA && code !== Protocol.ROOM_DATA_BYTES) {
        super._onMessage(client as never, buffer);
        // Where Colyseus has deleted the queue of a client that joined (see `keepClientsFast`).
        if (code === Protocol.JOIN_ROOM && client.state === ClientState.JOINED) (client as { _enqueuedMessages?: unknown })._enqueuedMessages = undefined;
        return;
      }
      if (client.state === ClientState.LEAVING) return;
      const it = { offset: 1 };
      let sent: string | number | null;
      try {
        sent = decode.stringCheck(buffer, it) ? decode.string(buffer, it) : decode.number(buffer, it);
      } catch {
        sent = null;
      }
      const type = sent === null ? null : String(sent).slice(0, 64);
      const rawBytes = code === Protocol.ROOM_DATA_BYTES;
      if (!frames.admit(client, { type, buffer, payloadOffset: it.offset, rawBytes }) || sent === null) return;
      // The gate refuses raw byte messages (`gate.ts`): no protocol message is one.
      if (rawBytes) return;
      // What Colyseus's `_onMessage` does with a message frame, without decoding its type a second
      // time, looking its listener up twice in the room (a hash lookup each: see `patcher.ts`),
      // and calling it through the three wrappers Colyseus puts around it. So the room registers
      // no listener with Colyseus's `onMessage`: the gate calls the room's one listener itself.
      let message: unknown;
      try {
        message = buffer.byteLength > it.offset ? unpack(buffer.subarray(it.offset, buffer.byteLength)) : undefined;
      } catch {
        client.leave(Protocol.WS_CLOSE_WITH_ERROR);
        return;
      }
      try {
        frames.deliver(client, sent, message);
      } catch (e) {
        frames.fault(e, 'onMessage');
      }
    } catch (e) {
      frames.fault(e, 'frame');
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

  /**
   * Makes this room's serializer lean on memory: it serves the process-wide copy of its state
   * class's handshake, and encodes its patches and its whole state (for a client that joins) in
   * one scratch buffer of the process (`SCRATCH`), each copied out at once (the whole state kept
   * until it changes), instead of in two 8 KB buffers of its own (the encoder's `sharedBuffer` and
   * `SchemaSerializer.fullEncodeBuffer`: external memory, 16 KB per room). Encodes are
   * synchronous, so one scratch serves every room.
   *
   * The copy also keeps a sent patch's bytes as they were: `ws` writes a frame's buffer by
   * reference, and a socket that cannot take it at once (a slow client) holds it until it can;
   * Colyseus's own buffer is rewritten by the room's next patch meanwhile. Only for a state
   * without filters (`@view`), which encodes per client.
   */
  protected shareSerializer(): void {
    const serializer = (this as unknown as { _serializer?: SerializerInternals })._serializer;
    const stateClass = (this.state as object | undefined)?.constructor;
    if (!serializer || typeof serializer.handshake !== 'function' || typeof serializer.getFullState !== 'function' || !stateClass)
      throw new Error('Colyseus: no schema serializer to share (check internals.ts against this version)');
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
    if (serializer.hasFilters) return;
    serializer.fullEncodeBuffer = SCRATCH;
    serializer.encoder.sharedBuffer = SCRATCH;
    serializer.getFullState = () => {
      const root = serializer.encoder.root;
      if (serializer.needFullEncode || root.changes.length > 0 || root.changes.next !== undefined || !serializer.fullEncodeCache) {
        SCRATCH[0] = Protocol.ROOM_STATE;
        serializer.fullEncodeCache = Buffer.from(serializer.encoder.encodeAll({ offset: 1 }, SCRATCH));
        serializer.needFullEncode = false;
      }
      return serializer.fullEncodeCache;
    };
  }

  /**
   * What a patch needs of Colyseus's internals (`patcher.ts`), once the state is set and shared
   * (`shareSerializer`): @colyseus/core 0.16.26's serializer, client array and `afterNextPatch`
   * queue, the same objects for the room's whole life.
   */
  protected patchParts(): PatchParts {
    const room = this as unknown as {
      _serializer?: { applyPatches?: unknown };
      _afterNextPatchQueue?: unknown[];
      _dequeueAfterPatchMessages?: () => void;
    };
    const serializer = room._serializer;
    const afterPatch = room._afterNextPatchQueue;
    const dequeue = room._dequeueAfterPatchMessages;
    if (!serializer || typeof serializer.applyPatches !== 'function' || !Array.isArray(afterPatch) || typeof dequeue !== 'function')
      throw new Error('Colyseus: no serializer or patch queue (check internals.ts against this version)');
    const applyPatches = serializer.applyPatches.bind(serializer) as PatchParts['send'];
    return {
      send: patchSender(serializer as SerializerInternals, applyPatches),
      clients: this.clients as unknown as Client[],
      afterPatch,
      dequeue: dequeue.bind(this),
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

/**
 * Keeps every client object in V8's fast mode. Colyseus 0.16.26 deletes `client._enqueuedMessages`
 * once a client has joined (`Room._onMessage`, on its JOIN_ROOM frame), and deleting a property
 * that is not an object's last one puts the object in dictionary mode: each read of
 * `client.state`, `client.ref` or `client.sessionId` (six clients a turn, in the serializer's
 * loop and in `ws`) is then a hash lookup through the `LoadIC` builtin. `_enqueuedMessages`
 * becomes an accessor of `WebSocketClient.prototype` (@colyseus/ws-transport 0.16.5) over an own
 * field that every client gets in its constructor, so Colyseus's assignment and its `delete`
 * leave the object's shape alone; `GuardedRoom._onMessage` sets it to undefined where Colyseus
 * deletes it, which keeps what Colyseus reads from it (`allowReconnection`: joined once it is
 * undefined). Called once by `createServer`, before any client connects.
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

/** The `ws` server behind a `WebSocketTransport` (its protected `wss`, @colyseus/ws-transport 0.16.5), for the heartbeat. */
export function socketServerOf(transport: WebSocketTransport): WebSocketServer {
  return (transport as unknown as { wss: WebSocketServer }).wss;
}

/** An integer index past V8's gap for fast elements (1,024 past the capacity): it makes an object's elements a dictionary. */
const DICTIONARY_PROBE = 2 ** 30;

/** An empty object whose integer keys V8 keeps in a small dictionary, whatever their size. */
function sparseIndexes(): Record<number, number> {
  const indexes: Record<number, number> = {};
  indexes[DICTIONARY_PROBE] = 0;
  delete indexes[DICTIONARY_PROBE];
  return indexes;
}

/** An append-only list's two dictionaries of pending changes, made once (`appendOnly`). */
interface Pending {
  readonly operations: Record<number, number>;
  readonly indexes: Record<number, number>;
}

/**
 * The reset after a patch of an append-only list (`appendOnly`): what the library's `endEncode`
 * does (no pending change, an empty change set, not new), with the change set and the pending
 * operations emptied in place rather than replaced: the entries just sent are deleted from two
 * dictionaries made once, and nothing is allocated. Only `append` ever reaches such a list, so
 * its pending operations are item indexes, nothing else, and its copy of the items is the items.
 */
function resetInPlace(tree: Tree, own: Pending): void {
  emptyChanges(tree);
  // The first time, the library's own objects: from then on, the dictionaries.
  tree.indexedOperations = own.operations;
  tree.changes.indexes = own.indexes;
}

/**
 * Deletes a tree's pending operations and the entries of its change set, and marks it not new:
 * what the library's `endEncode` leaves, without replacing them by new objects. Without filters
 * every pending operation of a tree is in its change set (`change`, `indexedOperation` and
 * `delete` add the index there), so deleting those entries leaves both as empty as new ones.
 */
function emptyChanges(tree: Tree): void {
  const set = tree.changes;
  const pending = tree.indexedOperations;
  const { indexes, operations } = set;
  for (let i = 0; i < operations.length; i++) {
    const index = operations[i]!;
    delete pending[index];
    delete indexes[index];
  }
  operations.length = 0;
  set.queueRootNode = undefined;
  tree.isNew = false;
}

type Tree = ChangeTree & { ref: object };

/** Collections shorter than this keep the empty objects: their fast elements are small, and making a dictionary costs more CPU than they do (`bench:moves`). */
const SPARSE_FROM = 32;

/** Gives a long collection's reset change set dictionary indexes (a Schema's are its field numbers: small). */
function sparsen(tree: Tree, changeSetName: ChangeSetName): void {
  const ref = tree.ref as { length?: number; size?: number } & Record<string, unknown>;
  if (ref[$childType] === undefined || (ref.length ?? ref.size ?? 0) < SPARSE_FROM) return;
  tree.indexedOperations = sparseIndexes();
  const changeSet = tree[changeSetName];
  if (changeSet) changeSet.indexes = sparseIndexes();
}

/** @colyseus/schema 3.0.76's `$onEncodeEnd` key (not exported). */
const ON_ENCODE_END = '~onEncodeEnd';

interface ArrayInternals {
  items: unknown[];
  tmpItems: unknown[];
  deletedIndexes: Record<number, boolean>;
  [ON_ENCODE_END](): void;
}

let patched = false;

/** Arrays that only ever grow by `append` (`appendOnly`), in their unproxied form, and their dictionaries of pending changes. */
const APPEND_ONLY = new WeakMap<object, Pending>();

/**
 * Two costs of @colyseus/schema 3.0.76 that grow with a collection's length, paid after every
 * patch by the move list (`moves`), which only grows, and one paid by every patch:
 *
 * - A collection's pending changes are reset to empty objects (`indexedOperations = {}`, a change
 *   set's `indexes: {}`) and the next change writes `object[i]` at the item's index. On an empty
 *   object V8 then allocates fast elements for every index up to i (about 1.5 × i slots): two
 *   arrays as long as the move list per turn. Here the reset objects of a collection of 32 items
 *   or more are dictionaries, about 200 bytes whatever the index: same keys, same order of
 *   enumeration (integer keys ascending).
 * - An array's copy of its items for the next patch (`tmpItems = items.slice()`, alive until then)
 *   is brought up to date in place when the items only grew since it was made (the move list's
 *   case); any other change copies as before.
 *
 * Besides, an append-only list (`appendOnly`) and the root state have their pending changes
 * emptied in place after each patch rather than replaced (`resetInPlace`, `emptyChanges`).
 *
 * Only the reset after a patch (`endEncode`) is patched: the library's other reset (`discard`)
 * follows a collection's `clear()`, which leaves it empty, or serves its tests. The patches sent
 * are the same bytes (tests/server/schemaChanges.test.ts). Figures: `npm run -s bench:moves`.
 * Idempotent; called when this module loads, before any room encodes.
 */
export function patchSchemaCollections(): void {
  if (patched) return;
  patched = true;
  const tree = ChangeTree.prototype as Tree;
  const endEncode = tree.endEncode;
  tree.endEncode = function (this: Tree, changeSetName: ChangeSetName): void {
    if (changeSetName === 'changes') {
      const own = APPEND_ONLY.get(this.ref);
      if (own) return resetInPlace(this, own);
      // The root state, changed by every turn: emptied in place saves three objects per patch
      // (about 700 bytes: its field numbers reach 25). Only the root: the objects kept have room
      // for every field number, about 600 bytes per tree and room, which the state's children
      // (seats, clock, result), changed by few turns, would hold for nothing.
      if (this.parentChain === undefined && this.filteredChanges === undefined && this.ref instanceof Schema) return emptyChanges(this);
    }
    endEncode.call(this, changeSetName);
    sparsen(this, changeSetName);
  };
  const array = ArraySchema.prototype as unknown as ArrayInternals;
  const onEncodeEnd = array[ON_ENCODE_END];
  if (typeof onEncodeEnd !== 'function') throw new Error('@colyseus/schema: ArraySchema has no $onEncodeEnd (check internals.ts against this version)');
  array[ON_ENCODE_END] = function (this: ArrayInternals): void {
    // Nothing but `append` ever changes an append-only list, whose copy of the items is the items.
    if (APPEND_ONLY.has(this)) return;
    const { items, tmpItems } = this;
    let grown = tmpItems.length <= items.length;
    for (let i = 0; grown && i < tmpItems.length; i++) grown = tmpItems[i] === items[i];
    if (!grown) return onEncodeEnd.call(this);
    for (let i = tmpItems.length; i < items.length; i++) tmpItems.push(items[i]);
    this.deletedIndexes = {};
  };
}

patchSchemaCollections();

/** A getter on ArraySchema's prototype: read through the proxy, it runs on the array itself (the trap calls `Reflect.get(target, key)`). */
const RAW = '~djambiRaw';
Object.defineProperty(ArraySchema.prototype, RAW, {
  get(this: unknown) {
    return this;
  },
});

/**
 * The ArraySchema behind its proxy, which its change tree then refers to as well. @colyseus/schema
 * 3.0.76 wraps each ArraySchema in a Proxy whose traps test every key with `isNaN`: each of the
 * library's own reads of `items`, `tmpItems`, `~childType` or `~changes` while pushing, encoding
 * and resetting then costs a trap and a string-to-number conversion. Pushing on the array itself
 * and letting its change tree (the encoder's `ref`) point there skips them; the array's methods
 * and the encoder use only named properties, never an index through the proxy (which is what
 * the proxy is for: `list[i]`). For arrays of strings only (their items have no parents).
 * tests/server/schemaChanges.test.ts decodes the same patches as before.
 */
export function unproxied<T extends string>(list: ArraySchema<T>): ArraySchema<T> {
  const raw = (list as unknown as Record<string, ArraySchema<T>>)[RAW];
  (raw[$changes] as unknown as { ref: unknown }).ref = raw;
  return raw;
}

/**
 * `unproxied(list)`, declared to change by `append` only, ever (the move list), and kept lean: it
 * holds its items once, and no record of every change it ever had.
 *
 * - The library keeps, per collection, every change since it was made (`allChanges`: a
 *   dictionary and an array, one entry per item) to encode the whole state for a client that
 *   joins, and a copy of the items (`tmpItems`) for the next patch. For a list that only grows,
 *   both are the obvious ones: every index added, in order, and the items themselves. So its
 *   `tmpItems` is its `items`, and its `allChanges` stays empty, but when the whole state is
 *   encoded (a join), when the list of every index is filled in for that call (`leanEncodes`).
 *   About 45 bytes per move less (a room at move 150 holds 6.6 KB less).
 * - After each patch the list's pending changes are emptied in place (`resetInPlace`) instead of
 *   replaced by new objects, and no comparison of the whole list runs: `npm run -s bench:moves`.
 *
 * Anything else done to it (a library `push`, an index written, a `pop`, a `splice`) would leave
 * it wrong: the caller promises there is none (`mirror` only appends to the move list). It must be
 * empty when it is declared, and in a state without filters (`@view`).
 */
export function appendOnly<T extends string>(list: ArraySchema<T>): ArraySchema<T> {
  const raw = unproxied(list);
  const a = raw as unknown as ArrayInternals;
  const tree = raw[$changes] as unknown as Tree;
  if (a.items.length !== 0 || tree.filteredChanges !== undefined) throw new Error('appendOnly: the list must be empty, in a state without filters');
  a.tmpItems = a.items;
  APPEND_ONLY.set(raw, { operations: sparseIndexes(), indexes: sparseIndexes() });
  return raw;
}

/**
 * Appends `value` to an `appendOnly` list: what the library's `push` does for one string, but
 * into `items` once (they are its `tmpItems`) and with no entry in `allChanges`. `listTree`: the
 * list's change tree, if the caller found it once (`treeOf`).
 */
export function append<T extends string>(list: ArraySchema<T>, value: T, listTree: ChangeTree = treeOf(list)): void {
  const tree = listTree as unknown as Tree;
  const a = list as unknown as ArrayInternals;
  const index = a.items.length;
  tree.indexedOperations[index] = OPERATION.ADD;
  const changes = tree.changes;
  if (changes.indexes[index] === undefined) changes.indexes[index] = changes.operations.push(index) - 1;
  tree.root?.enqueueChangeTree(tree, 'changes');
  a.items.push(value);
}

/**
 * The number of primitive field `name` (a string, number or boolean with no view tag) of schema
 * class `klass`, for `changed`. Throws if there is none: checked when a module loads.
 */
export function primitiveField(klass: typeof Schema, name: string): number {
  const metadata = (klass as unknown as { [Symbol.metadata]?: Record<string | number, unknown> })[Symbol.metadata];
  const index = metadata?.[name];
  const field = typeof index === 'number' ? (metadata?.[index] as { type?: unknown; tag?: unknown } | undefined) : undefined;
  if (typeof index !== 'number' || typeof field?.type !== 'string' || field.tag !== undefined)
    throw new Error(`@colyseus/schema: ${klass.name} has no primitive field "${name}" (check internals.ts against this version)`);
  return index;
}

/**
 * Records that primitive field `index` (`primitiveField`) of the schema whose change tree is
 * `tree` (`treeOf`) changed, once its caller
 * has stored the new value in the field's own `_name` property:
 * the rest of what the field's setter does for a string, number or boolean. The setter itself
 * first reads the old value by a computed key, checks the value's type, looks the class's
 * `$track` up through `constructor` and the value's `$changes` on a primitive's prototype, then
 * stores by a computed key: each a megamorphic lookup on every room's state (about 4 µs per turn
 * for the five fields a turn writes, in `perf`). The caller compares with what it last wrote.
 */
export function changedIn(tree: ChangeTree, index: number): void {
  tree.change(index, OPERATION.ADD);
}

/**
 * The change tree of a schema, for `changedIn` and `append`, found once: reading `$changes` on a
 * schema is a keyed load by a symbol on every state class there is, megamorphic in V8.
 */
export function treeOf(target: Schema | ArraySchema<string>): ChangeTree {
  return target[$changes] as ChangeTree;
}

/**
 * Wraps `Encoder.prototype.encode` so that, while it encodes the whole state (`allChanges`: a
 * client joins), every `appendOnly` list of that state lists all its indexes, as the library's
 * own would; and so that a patch encoded in the process's scratch (`shareSerializer`) leaves in a
 * copy of its own. Called once, when this module loads.
 */
function leanEncodes(): void {
  const proto = Encoder.prototype as unknown as EncoderInternals;
  const encode = proto.encode;
  encodeInScratch = encode;
  proto.encode = function (this: EncoderInternals, it, view, buffer, changeSetName, isEncodeAll, initialOffset): Buffer {
    if (changeSetName === 'allChanges') return encodeAll.call(this, it, view, buffer, changeSetName, isEncodeAll, initialOffset);
    const bytes = encode.call(this, it, view, buffer, changeSetName, isEncodeAll, initialOffset);
    // A patch encoded in the process's scratch (`shareSerializer`) leaves in a copy of its own.
    return this.sharedBuffer === SCRATCH && buffer === undefined && view === undefined ? Buffer.from(bytes) : bytes;
  };
  /** The whole state, with every lean list listing all its indexes for the call. */
  function encodeAll(this: EncoderInternals, ...args: Parameters<EncoderInternals['encode']>): Buffer {
    const lean: Tree[] = [];
    for (let node = this.root.allChanges.next; node !== undefined; node = node.next) {
      const tree = node.changeTree;
      if (!APPEND_ONLY.has(tree.ref)) continue;
      const n = (tree.ref as unknown as ArrayInternals).items.length;
      const all = new Array<number>(n);
      for (let i = 0; i < n; i++) all[i] = i;
      tree.allChanges.operations = all;
      lean.push(tree);
    }
    try {
      return encode.apply(this, args);
    } finally {
      for (const tree of lean) tree.allChanges.operations = [];
    }
  }
}

/**
 * The patch after a commit, sent as `SchemaSerializer.applyPatches` sends it to a room without
 * filters (encoded once, to every joined client, then the changes discarded), except for how it
 * reaches each socket. `ws` 8.23's `send` makes, for every client, an options object with a
 * computed symbol key first (`Sender.send`: V8 defines it through the runtime, about 1 µs each in
 * `perf`), spreads another, allocates a two-byte header and writes header and payload corked,
 * one `writev` each. Here the frame (header and payload, the same bytes for every client) is
 * built once per patch, in a buffer of its own, and written to each client's socket as `ws`'s
 * `sendFrame` would write it, in one write. A socket `ws` could not write that way right now
 * (not open, a send of its own in progress, compression negotiated), or a client that is not a
 * `ws` connection, gets the payload through `client.raw` as before. A room with filters, or one
 * whose serializer is not on the scratch (`shareSerializer`), keeps `applyPatches`.
 */
function patchSender(serializer: SerializerInternals, applyPatches: PatchParts['send']): PatchParts['send'] {
  if (serializer.hasFilters || serializer.encoder.sharedBuffer !== SCRATCH) return applyPatches;
  const encoder = serializer.encoder;
  return (clients) => {
    let n = clients.length;
    if (n === 0) {
      encoder.discardChanges();
      return false;
    }
    if (!encoder.hasChanges) return false;
    serializer.needFullEncode = true;
    SCRATCH[0] = Protocol.ROOM_STATE_PATCH;
    const encoded = encodeInScratch.call(encoder, { offset: 1 });
    const frame = binaryFrame(encoded);
    const length = encoded.length;
    let payload: Buffer | null = null;
    while (n--) {
      const client = clients[n] as Client & { ref?: WsInternals };
      if (client.state !== ClientState.JOINED) continue;
      if (!writeFrame(client.ref, frame)) client.raw((payload ??= frame.subarray(frame.length - length)));
    }
    encoder.discardChanges();
    return true;
  };
}

/** What `patchSender` reads of a `ws` 8.23 `WebSocket` and its `Sender`. */
interface WsInternals {
  readonly readyState?: number;
  readonly _extensions?: Record<string, unknown>;
  readonly _sender?: { readonly _state: number; readonly _firstFragment: boolean; readonly _socket: { write(chunk: Buffer): boolean } };
}

/** `WebSocket.OPEN`, and `Sender`'s state when no send of its own is in progress (`DEFAULT`). */
const WS_OPEN = 1;
const SENDER_IDLE = 0;

/**
 * Writes a frame to a `ws` socket as `Sender.sendFrame` would: true when written (or when the
 * socket is not open: `WebSocketClient.raw` drops the message then), false when `ws` must send it.
 */
function writeFrame(ws: WsInternals | undefined, frame: Buffer): boolean {
  const sender = ws?._sender;
  if (ws === undefined || sender === undefined || typeof ws.readyState !== 'number') return false;
  if (ws.readyState !== WS_OPEN) return true;
  if (sender._state !== SENDER_IDLE || !sender._firstFragment || ws._extensions?.['permessage-deflate'] !== undefined) return false;
  sender._socket.write(frame);
  return true;
}

/** A final binary WebSocket frame (server to client: unmasked) holding `payload`, as `Sender.frame` heads it. */
export function binaryFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n <= 125 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x82;
  if (head === 2) frame[1] = n;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt16BE(0, 2);
    frame.writeUIntBE(n, 4, 6);
  }
  payload.copy(frame, head);
  return frame;
}

/** @colyseus/schema 3.0.76's `Encoder`, as `leanEncodes` and `shareSerializer` use it. */
interface EncoderInternals {
  readonly hasChanges: boolean;
  discardChanges(): void;
  encode(it?: { offset: number }, view?: unknown, buffer?: Buffer, changeSetName?: string, isEncodeAll?: boolean, initialOffset?: number): Buffer;
  encodeAll(it?: { offset: number }, buffer?: Buffer): Buffer;
  sharedBuffer: Buffer;
  root: { allChanges: TreeList; changes: { length: number; next?: unknown } };
}

/** The root's list of change trees (@colyseus/schema 3.0.76's `ChangeTreeList`). */
interface TreeList {
  next?: { changeTree: Tree; next?: TreeList['next'] };
}

/** The library's own `Encoder.prototype.encode` (before `leanEncodes`): a patch encoded by it stays where it was encoded. */
let encodeInScratch: EncoderInternals['encode'] = Encoder.prototype.encode as unknown as EncoderInternals['encode'];

leanEncodes();
