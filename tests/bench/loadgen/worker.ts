/**
 * One load-generator worker thread: opens its share of the rooms, plays their turns, and reports
 * its latency samples, its own event-loop delay and utilisation, and the decoding clients'
 * checks. Driven by `loadgen.ts` over `parentPort`.
 */
import { type Agent, globalAgent } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { seeded } from '../../support/random.js';
import { BenchRoom, type RoomEvents, type TakeoverResult, type Target, withLoggedMoves } from './rooms.js';

/**
 * colyseus.js in Node matchmakes through `http.globalAgent`, whose sockets time out after 5 s
 * even with a request in flight: its HTTP layer then aborts the request ("socket hang up"). A
 * browser waits. During a takeover a busy process may answer a join later than that (it re-opens
 * the game first), and each abort cost a retry and a reservation the server made for nothing
 * (372 retries in a 2,000-room run on a slow machine, 0 with a shorter log): the decoding and
 * takeover clients wait as a browser would, up to 60 s (idle kept-alive sockets close then too,
 * before nginx's 75 s).
 */
(globalAgent as Agent & { options: { timeout?: number } }).options.timeout = 60_000;

/** What the main thread tells a worker at start. */
export interface WorkerConfig {
  readonly target: Target;
  readonly httpBase: string;
  /** Global indexes of this worker's rooms (a room `i` is a decoding one when `i % fullEvery === 0`). */
  readonly rooms: readonly number[];
  readonly fullEvery: number;
  readonly spectators: number;
  readonly interval: number;
  readonly seed: number;
  /** Rooms set up at once. */
  readonly concurrency: number;
}

/**
 * Commands of the main thread. `stop` ends play once the turns in flight are answered (reply
 * `stopped`); `codes` asks for the ids of the rooms (reply `codes`); `takeover`
 * brings back the given rooms after their process died (`BenchRoom.takeover`, through `httpBase`,
 * retrying until `deadline`, a `Date.now()` time; reply `takenOver`).
 */
export type Command =
  | { type: 'open'; share: number }
  | { type: 'play' }
  | { type: 'advance'; turns: number }
  | { type: 'measure' }
  | { type: 'report' }
  | { type: 'stop' }
  | { type: 'close' }
  | { type: 'codes' }
  | { type: 'takeover'; codes: readonly string[]; deadline: number };

/** The reply to `takeover`. */
export interface TakeoverReport {
  readonly type: 'takenOver';
  readonly results: TakeoverResult[];
}

/** What a worker reports for a measured window. */
export interface WorkerReport {
  readonly type: 'report';
  readonly latencies: Float64Array;
  readonly turns: number;
  readonly rejected: Record<string, number>;
  readonly checks: { ok: number; failed: number; firstFailure: string };
  readonly gamesFinished: number;
  readonly replaceFailures: number;
  /** Event-loop delay of this thread, ms (the monitor's resolution subtracted). */
  readonly eventLoopMs: { p50: number; p99: number; max: number };
  /** Share of the window this thread's event loop was busy (0..1). */
  readonly utilisation: number;
  readonly fullRooms: number;
}

/** Sampling period of the event-loop delay monitor, ms (subtracted from its figures). */
const LOOP_RESOLUTION_MS = 2;

/**
 * How long `stop` waits for the turns in flight to be answered, ms: longer than a saturated
 * server takes to accept a turn or refuse it (its store's pool gives up after 5 s).
 */
const SETTLE_TIMEOUT_MS = 15_000;

const config = workerData as WorkerConfig;
const port = parentPort;
if (!port) throw new Error('loadgen worker: no parent port');

// colyseus.js warns once per message type without a handler; a message can precede the handlers.
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('not registered for type')) return;
  warn(...args);
};

const random = seeded(config.seed);
let measuring = false;
let latencies: number[] = [];
let turns = 0;
let rejected: Record<string, number> = {};
let checks = { ok: 0, failed: 0, firstFailure: '' };
let gamesFinished = 0;
let replaceFailures = 0;
let playing = false;
const rooms = new Set<BenchRoom>();
const replacing = new Set<Promise<void>>();

const events: RoomEvents = {
  sample(ms) {
    if (!measuring) return;
    latencies.push(ms);
    turns++;
  },
  rejected(code) {
    rejected[code] = (rejected[code] ?? 0) + 1;
  },
  checked(ok, detail) {
    if (ok) checks.ok++;
    else {
      checks.failed++;
      if (!checks.firstFailure) checks.firstFailure = detail;
    }
  },
  over(room) {
    if (measuring) gamesFinished++;
    rooms.delete(room);
    const p = room
      .close()
      .then(() => openRoom(room.full))
      .then((fresh) => {
        if (playing) fresh.schedule();
      })
      .catch((e) => {
        replaceFailures++;
        console.error('[loadgen] replacing a finished room failed:', (e as Error).message);
      })
      .finally(() => replacing.delete(p));
    replacing.add(p);
  },
};

async function openRoom(full: boolean): Promise<BenchRoom> {
  const room = await BenchRoom.open({
    target: config.target,
    full,
    httpBase: config.httpBase,
    spectators: config.spectators,
    random,
    interval: config.interval,
    events,
  });
  rooms.add(room);
  return room;
}

let opened = 0;

/** Opens this worker's rooms up to `share` (0..1) of its list. */
async function open(share: number): Promise<void> {
  const until = Math.round(config.rooms.length * share);
  const one = async () => {
    while (opened < until) {
      const i = config.rooms[opened++];
      await openRoom(i % config.fullEvery === 0);
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, one));
}

const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
let elu = performance.eventLoopUtilization();

function report(): WorkerReport {
  const used = performance.eventLoopUtilization(elu);
  const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  const out: WorkerReport = {
    type: 'report',
    latencies: Float64Array.from(latencies),
    turns,
    rejected,
    checks,
    gamesFinished,
    replaceFailures,
    eventLoopMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
    utilisation: used.utilization,
    fullRooms: [...rooms].filter((r) => r.full).length,
  };
  return out;
}

port.on('message', (cmd: Command) => {
  void (async () => {
    if (cmd.type === 'open') {
      await open(cmd.share);
      port.postMessage({ type: 'opened', rooms: rooms.size });
    } else if (cmd.type === 'advance') {
      // Every room plays `turns` turns back to back (a game that ends is replaced by a new one).
      const reached = await Promise.all([...rooms].map((room) => room.advance(cmd.turns)));
      await Promise.all([...replacing]);
      port.postMessage({ type: 'advanced', rooms: rooms.size, reached: reached.filter(Boolean).length });
    } else if (cmd.type === 'play') {
      playing = true;
      for (const room of rooms) room.schedule();
      port.postMessage({ type: 'playing' });
    } else if (cmd.type === 'measure') {
      latencies = [];
      turns = 0;
      rejected = {};
      checks = { ok: 0, failed: 0, firstFailure: '' };
      gamesFinished = 0;
      replaceFailures = 0;
      loop.reset();
      loop.enable();
      elu = performance.eventLoopUtilization();
      measuring = true;
      port.postMessage({ type: 'measuring' });
    } else if (cmd.type === 'report') {
      measuring = false;
      loop.disable();
      const r = report();
      port.postMessage(r, [r.latencies.buffer as ArrayBuffer]);
    } else if (cmd.type === 'stop') {
      playing = false;
      for (const room of rooms) room.stop();
      await Promise.all([...replacing]);
      for (const room of rooms) room.stop();
      await Promise.all([...rooms].map((room) => room.settled(SETTLE_TIMEOUT_MS)));
      port.postMessage({ type: 'stopped' });
    } else if (cmd.type === 'codes') {
      port.postMessage({ type: 'codes', codes: [...rooms].map((r) => r.roomId) });
    } else if (cmd.type === 'takeover') {
      const wanted = new Set(cmd.codes);
      const orphans = [...rooms].filter((r) => wanted.has(r.roomId));
      const results = await withLoggedMoves(config.httpBase, await Promise.all(orphans.map((r) => r.takeover(config.httpBase, cmd.deadline))));
      const reply: TakeoverReport = { type: 'takenOver', results };
      port.postMessage(reply);
    } else if (cmd.type === 'close') {
      const all = [...rooms];
      for (let i = 0; i < all.length; i += 32) await Promise.all(all.slice(i, i + 32).map((r) => r.close()));
      port.postMessage({ type: 'closed' });
    }
  })().catch((e) => port.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) }));
});

port.postMessage({ type: 'ready' });
