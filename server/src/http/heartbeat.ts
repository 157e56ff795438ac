/**
 * Dead connections, found without a tail: `ws-transport` pings every client of the process in
 * one synchronous loop every 3 s (thousands of pings at once under load, the main source of
 * latency spikes). This heartbeat pings a slice of the clients on each short tick instead, so
 * that every client is pinged once per `intervalMs`, and terminates one that missed `maxMissed`
 * pings in a row: a dead connection is dropped within `intervalMs × (maxMissed + 1)` plus a
 * tick. It counts the unanswered pings of each socket itself (a pong resets the count).
 */
import type { WebSocket, WebSocketServer } from 'ws';

/** Settings of the heartbeat (documented in docs/PROTOCOL.md, "Limits"). */
export interface HeartbeatOptions {
  /** Each client is pinged once per interval. */
  readonly intervalMs: number;
  /** Pings a client may leave unanswered in a row before it is terminated. */
  readonly maxMissed: number;
  /** How often a slice of the clients is pinged. */
  readonly tickMs: number;
}

/** Defaults: a ping every 10 s, terminated after 2 unanswered (dead connections go within about 30 s). */
export const DEFAULT_HEARTBEAT: HeartbeatOptions = Object.freeze({ intervalMs: 10_000, maxMissed: 2, tickMs: 250 });

function noop(): void {}

/** Starts the heartbeat on `wss`; returns a function that stops it. */
export function startHeartbeat(wss: WebSocketServer, options: HeartbeatOptions = DEFAULT_HEARTBEAT): () => void {
  let cycle: WebSocket[] = [];
  let cursor = 0;
  /** Pings sent to a socket since its last pong. */
  const missed = new WeakMap<WebSocket, number>();
  const slices = Math.max(1, Math.round(options.intervalMs / options.tickMs));
  const tick = () => {
    if (cursor >= cycle.length) {
      cycle = [...wss.clients];
      cursor = 0;
    }
    const end = Math.min(cycle.length, cursor + Math.ceil(cycle.length / slices));
    for (; cursor < end; cursor++) {
      const client = cycle[cursor];
      if (client.readyState !== client.OPEN) continue;
      const count = missed.get(client);
      if (count === undefined) client.on('pong', () => missed.set(client, 0));
      else if (count >= options.maxMissed) {
        client.terminate();
        continue;
      }
      missed.set(client, (count ?? 0) + 1);
      try {
        client.ping(noop);
      } catch {
        client.terminate();
      }
    }
  };
  const timer = setInterval(tick, options.tickMs);
  timer.unref();
  return () => clearInterval(timer);
}
