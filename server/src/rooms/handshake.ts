/**
 * Memory: Colyseus 0.16 caches each room's schema handshake as a slice of an 8 KB buffer, kept
 * for the life of the room. The handshake only depends on the state class, so every room of a
 * class can share one right-sized copy.
 */
import type { Room } from '@colyseus/core';

const shared = new WeakMap<object, Buffer>();

interface HandshakeSerializer {
  handshake?: () => Buffer | undefined;
}

/** Makes `room` serve the process-wide copy of its state class's handshake. */
export function shareHandshake(room: Room): void {
  const serializer = (room as unknown as { _serializer?: HandshakeSerializer })._serializer;
  const stateClass = (room.state as object | undefined)?.constructor;
  if (!serializer || typeof serializer.handshake !== 'function' || !stateClass) return;
  const original = serializer.handshake.bind(serializer);
  serializer.handshake = () => {
    let copy = shared.get(stateClass);
    if (!copy) {
      const bytes = original();
      if (!bytes) return bytes;
      copy = Buffer.from(bytes);
      shared.set(stateClass, copy);
    }
    return copy;
  };
}
