/**
 * Colyseus's PM2 dashboard metrics stay off: `@pm2/io` would otherwise list every libuv handle
 * each second and poll V8 on the event loop of a busy server (see server/src/obs/pm2.ts).
 */
import type { RunningServer } from '../../server/src/app.js';
import { createRoom, quietSdkWarnings, startServer } from './helpers.js';

let server: RunningServer;

beforeAll(async () => {
  quietSdkWarnings();
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

test('the @pm2/io that Colyseus imports is inert and starts no timers', async () => {
  const player = await createRoom(server);
  type Pm2Io = { inert?: boolean; initialized?: boolean };
  const io = (await import('@pm2/io')) as unknown as Pm2Io & { default?: Pm2Io };
  const loaded: Pm2Io = io.default ?? io;
  expect(loaded.inert).toBe(true);
  expect(loaded.initialized).toBeUndefined();
  await player.room.leave();
});
