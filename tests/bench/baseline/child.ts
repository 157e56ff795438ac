/**
 * The baseline server (a bare Colyseus 0.16 room, `room.ts`) in its own process, served like
 * tests/bench/server-child.ts: same transport settings as the Djambi server (ws-transport with
 * its ping loop off, the same staggered heartbeat and Colyseus's @pm2/io kept inert), so that
 * the ratios measure the room and the application, not the ping loop or PM2's metrics.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { DEFAULT_HEARTBEAT, startHeartbeat } from '../../../server/src/http/heartbeat.js';
import { disablePm2Io } from '../../../server/src/obs/pm2.js';
import { socketServerOf } from '../../../server/src/rooms/vendor.js';
import { serveParent } from '../loadgen/child.js';
import { BaselineRoom } from './room.js';

async function main(): Promise<void> {
  disablePm2Io();
  const httpServer = http.createServer();
  const transport = new WebSocketTransport({ server: httpServer, pingInterval: 0 });
  const gameServer = new Server({ transport, greet: false, gracefullyShutdown: false });
  gameServer.define('baseline', BaselineRoom);
  await gameServer.listen(0, '127.0.0.1');
  const stopHeartbeat = startHeartbeat(socketServerOf(transport), DEFAULT_HEARTBEAT);
  serveParent((httpServer.address() as AddressInfo).port, async () => {
    stopHeartbeat();
    await gameServer.gracefullyShutdown(false);
    httpServer.closeAllConnections();
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
