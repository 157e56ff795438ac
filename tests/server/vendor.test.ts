/**
 * The library internals `server/src/rooms/vendor.ts` relies on (@colyseus/core 0.16.26,
 * @colyseus/ws-transport 0.16.5) are still there, and its patches do what they say. A failure
 * here after an upgrade names the patch to re-check.
 */
import { Protocol, Room } from '@colyseus/core';
import type { WebSocketTransport } from '@colyseus/ws-transport';
import type { RunningServer } from '../../server/src/app.js';
import { socketServerOf } from '../../server/src/rooms/vendor.js';
import { fullRoom, holder, leaveAll, quietSdkWarnings, randomTurnFor, roomOf, startServer } from './helpers.js';
import { seeded } from '../support/random.js';

quietSdkWarnings();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function started() {
  const room = await fullRoom(server, { rules: { players: 4 } }, 0);
  room.players[0].room.send('start');
  await Promise.all(room.all.map((c) => c.waitState((s) => s.phase === 'playing', 'start')));
  return room;
}

test('the members vendor.ts patches exist', () => {
  const proto = Room.prototype as unknown as Record<string, unknown>;
  expect(typeof proto._reserveSeat).toBe('function');
  expect(typeof proto._onMessage).toBe('function');
  expect(socketServerOf(server.gameServer.transport as WebSocketTransport).clients).toBeInstanceOf(Set);
});

test("a patch handed to a socket keeps its bytes through later patches, of its room and of others (a slow client's socket holds it until it can send)", async () => {
  const [a, b] = await Promise.all([started(), started()]);
  const live = roomOf(a.code) as unknown as { reservedSeats: object; reservedSeatTimeouts: object; _serializer: { encoder: { encode: unknown } } };
  expect(typeof live.reservedSeats).toBe('object');
  expect(typeof live.reservedSeatTimeouts).toBe('object');
  expect(typeof live._serializer.encoder.encode).toBe('function');
  // What room A hands to the TCP socket of one of its clients, as it was at that moment.
  const sent: { bytes: Buffer; atSend: string }[] = [];
  const socket = (roomOf(a.code).clients[0] as unknown as { ref: { _socket: { write(bytes: Buffer, ...rest: unknown[]): boolean } } }).ref._socket;
  const write = socket.write.bind(socket);
  socket.write = (bytes, ...rest) => {
    sent.push({ bytes, atSend: Buffer.from(bytes).toString('hex') });
    return write(bytes, ...rest);
  };
  const random = seeded(9);
  for (let i = 0; i < 6; i++) {
    for (const room of [a, b]) {
      const mover = holder(room.players, room.players[0].state.toMove);
      const v = mover.state.version;
      mover.room.send('turn', randomTurnFor(mover.state, random));
      await Promise.all(room.all.map((c) => c.waitState((s) => s.version === v + 1, 'turn')));
    }
  }
  const patches = sent.filter((s) => s.bytes[0] === Protocol.ROOM_STATE_PATCH);
  expect(patches.length).toBeGreaterThanOrEqual(6);
  for (const s of sent) expect(s.bytes.toString('hex')).toBe(s.atSend);
  await leaveAll([...a.all, ...b.all]);
});

test('a joined client keeps its shape: Colyseus deletes its queue, which stays an own field set to undefined (keepClientsFast)', async () => {
  const room = await started();
  const client = roomOf(room.code).clients[0] as unknown as Record<string, unknown>;
  expect(typeof Object.getOwnPropertyDescriptor(Object.getPrototypeOf(client), '_enqueuedMessages')?.get).toBe('function');
  expect(Object.hasOwn(client, '_enqueuedMessages')).toBe(false);
  expect(Object.hasOwn(client, 'enqueued')).toBe(true);
  expect(client._enqueuedMessages).toBeUndefined();
  await leaveAll(room.all);
});
