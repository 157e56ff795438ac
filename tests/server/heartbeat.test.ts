/**
 * The staggered heartbeat: every client is pinged once per interval, a slice at a time, and a
 * client that stops answering is dropped within interval × (maxMissed + 1) plus a tick, while
 * the others keep playing.
 */
import type { RunningServer } from '../../server/src/app.js';
import { fullRoom, leaveAll, quietSdkWarnings, startServer } from './helpers.js';

const HEARTBEAT = { intervalMs: 400, maxMissed: 2, tickMs: 50 };
let server: RunningServer;

beforeAll(async () => {
  quietSdkWarnings();
  server = await startServer({ graceSeconds: 5, heartbeat: HEARTBEAT });
});
afterAll(async () => {
  await server.close();
});

test('a client that stops answering pings is dropped within the bound; the others stay', async () => {
  const room = await fullRoom(server, { rules: { players: 2 } }, 1);
  const [a, b] = room.players;
  // Stop reading a's socket: the server's pings go unanswered (the connection is not closed).
  const socket = (a.room.connection.transport as unknown as { ws: { _socket: { pause(): void } } }).ws._socket;
  const t0 = Date.now();
  socket.pause();
  await b.waitState((s) => s.seats.get('R').presence === 'reconnecting', 'R dropped', 5000);
  const took = Date.now() - t0;
  expect(took).toBeLessThanOrEqual(HEARTBEAT.intervalMs * (HEARTBEAT.maxMissed + 1) + HEARTBEAT.tickMs + 500);
  // Live clients answered every ping in the meantime and are still there.
  expect(b.left).toBeNull();
  expect(room.spectators[0].left).toBeNull();
  b.room.send('name', { name: 'still here' });
  await room.spectators[0].waitState((s) => s.seats.get('Y').name === 'still here', 'renamed');
  await leaveAll([b, room.spectators[0]]);
});
