/**
 * Server benchmark: N concurrent `djambi` rooms, each with 4 scripted players and 2 spectators
 * (real colyseus.js clients) playing random legal turns. Measures the time from a turn sent to
 * the patch received by all 6 clients of the room (p50/p99), the server's CPU, and the server's
 * memory per room. The server runs in a child process (tests/bench/server-child.ts) so that its
 * CPU and memory are measured apart from this load generator, which shares the machine.
 *
 *   npm run bench:server [-- --rooms 200 --seconds 20 --interval 1000 --warmup 3 --json]
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Client, type Room } from 'colyseus.js';
import { parseFen, parseRules, randomTurn } from '../../shared/src/index.js';
import { seeded } from '../support/random.js';

interface Options {
  rooms: number;
  seconds: number;
  warmup: number;
  /** Mean milliseconds between two turns of one room (uniform in [0, 2 × interval]). */
  interval: number;
  spectators: number;
  json: boolean;
  seed: number;
  /** The game log of the server under test: none (memory only), a SQLite file, or PostgreSQL (`DATABASE_URL`). */
  store: 'none' | 'sqlite' | 'postgres';
}

function parseArgs(argv: string[]): Options {
  const o: Options = { rooms: 200, seconds: 20, warmup: 3, interval: 1000, spectators: 2, json: false, seed: 1, store: 'none' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v < 0) throw new Error(`${a} needs a number`);
      return v;
    };
    if (a === '--rooms') o.rooms = Math.max(1, Math.floor(num()));
    else if (a === '--seconds') o.seconds = num();
    else if (a === '--warmup') o.warmup = num();
    else if (a === '--interval') o.interval = num();
    else if (a === '--spectators') o.spectators = Math.floor(num());
    else if (a === '--seed') o.seed = Math.floor(num());
    else if (a === '--json') o.json = true;
    else if (a === '--store') {
      const v = argv[++i];
      if (v !== 'none' && v !== 'sqlite' && v !== 'postgres') throw new Error('--store takes none, sqlite or postgres');
      o.store = v;
    } else if (a === '--help' || a === '-h') {
      console.log(
        'usage: npm run bench:server -- [--rooms N] [--seconds S] [--warmup S] [--interval MS] [--spectators K] [--seed N] [--store none|sqlite|postgres] [--json]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

// ---- the server process -----------------------------------------------------------------------

interface Stats {
  gc: { count: number; totalMs: number; maxMs: number };
  eventLoop: { p50: number; p99: number; max: number };
  cpu: { user: number; system: number };
  memory: NodeJS.MemoryUsage;
  time: number;
}

class ServerProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: Stats) => void>();
  port = 0;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (m: { id?: number } & Stats) => {
      if (m.id !== undefined) {
        this.waiting.get(m.id)?.(m);
        this.waiting.delete(m.id);
      }
    });
  }

  static async start(store: Options['store']): Promise<ServerProcess> {
    const here = path.join(process.cwd(), 'tests', 'bench');
    const child = fork(path.join(here, 'server-child.ts'), [], {
      execArgv: ['--import', 'tsx', '--expose-gc', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
      env: { ...process.env, TSX_TSCONFIG_PATH: path.join(here, 'server-tsconfig.json'), NODE_ENV: 'production', BENCH_STORE: store },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const sp = new ServerProcess(child);
    sp.port = await new Promise<number>((resolve, reject) => {
      child.on('message', (m: { type?: string; port?: number }) => {
        if (m.type === 'ready') resolve(m.port!);
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    return sp;
  }

  request(type: 'stats' | 'gc' | 'close' | 'snapshot', extra: Record<string, unknown> = {}): Promise<Stats> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ id, type, ...extra });
    });
  }
}

// ---- rooms ------------------------------------------------------------------------------------

type State = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface BenchRoom {
  readonly players: Room<State>[];
  readonly clients: Room<State>[];
  pending: { target: number; t0: number; seen: Set<number> } | null;
  timer: NodeJS.Timeout | null;
}

/** Sampling period of the load generator's event-loop delay monitor (subtracted from its figures). */
const LOOP_RESOLUTION_MS = 2;

const SEAT_ORDER = ['R', 'B', 'Y', 'G'];

const RULES = (() => {
  const r = parseRules({ players: 4 });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();

function waitFor(room: Room<State>, pred: (s: State) => boolean, label: string, timeoutMs = 30000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (room.state && pred(room.state)) return resolve();
    const timer = setTimeout(() => {
      room.onStateChange.remove(check);
      reject(new Error(`timeout: ${label}`));
    }, timeoutMs);
    const check = (s: State) => {
      if (pred(s)) {
        clearTimeout(timer);
        room.onStateChange.remove(check);
        resolve();
      }
    };
    room.onStateChange(check);
  });
}

function waitMessage<T>(room: Room<State>, type: string, timeoutMs = 30000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timeout: message ${type}`)), timeoutMs);
    room.onMessage(type, (m: T) => {
      clearTimeout(timer);
      resolve(m);
    });
  });
}

async function setupRoom(sdk: Client, spectators: number): Promise<BenchRoom> {
  const creator = await sdk.create<State>('djambi', { rules: { players: 4 }, colour: 'R', name: 'bot0' });
  await waitMessage(creator, 'seat');
  await waitFor(creator, (s) => s.code !== '', 'room code');
  const code = creator.state.code as string;
  const players = [creator];
  for (let i = 1; i < 4; i++) {
    const r = await sdk.joinById<State>(code, { colour: SEAT_ORDER[i], name: `bot${i}` });
    await waitMessage(r, 'seat');
    players.push(r);
  }
  const specs: Room<State>[] = [];
  for (let i = 0; i < spectators; i++) specs.push(await sdk.joinById<State>(code, { spectate: true }));
  const clients = [...players, ...specs];
  for (const c of clients) {
    c.onMessage('*', () => undefined);
  }
  await Promise.all(clients.map((c) => waitFor(c, (s) => s.spectators === spectators && [...s.seats.values()].every((x: State) => x.taken), 'everyone in')));
  creator.send('start');
  await Promise.all(clients.map((c) => waitFor(c, (s) => s.phase === 'playing', 'start')));
  return { players, clients, pending: null, timer: null };
}

async function closeRoom(room: BenchRoom): Promise<void> {
  if (room.timer) clearTimeout(room.timer);
  room.timer = null;
  await Promise.all(room.clients.map((c) => c.leave(true).catch(() => undefined)));
}

async function inBatches<T>(count: number, batch: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await make(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(batch, count) }, worker));
  return out;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

// ---- main -------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  // A message can arrive between a join and the registration of its handlers (e.g. press_history):
  // colyseus.js then warns once per message, which would drown the figures.
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('not registered for type')) return;
    warn(...args);
  };
  const log = (...a: unknown[]) => {
    if (!opts.json) console.log(...a);
  };
  const random = seeded(opts.seed);
  const server = await ServerProcess.start(opts.store);
  const sdk = new Client(`ws://127.0.0.1:${server.port}`);
  log(`server pid ready on port ${server.port}; creating ${opts.rooms} rooms (4 players + ${opts.spectators} spectators each)`);

  const base = await server.request('gc');
  if (process.env.BENCH_HEAP_SNAPSHOTS) await server.request('snapshot', { path: path.join(process.env.BENCH_HEAP_SNAPSHOTS, 'base.heapsnapshot') });
  const setupStart = performance.now();
  // Rooms are created in two halves so that the marginal cost of a room (without one-time costs
  // such as compiled code and caches) can be told apart from the average.
  const half = Math.floor(opts.rooms / 2);
  let rooms = await inBatches(half, 8, () => setupRoom(sdk, opts.spectators));
  const midSetup = await server.request('gc');
  rooms = rooms.concat(await inBatches(opts.rooms - half, 8, () => setupRoom(sdk, opts.spectators)));
  const setupMs = performance.now() - setupStart;
  const afterSetup = await server.request('gc');
  if (process.env.BENCH_HEAP_SNAPSHOTS) {
    // Diagnostics: heap snapshots of the server with and without the rooms.
    await server.request('snapshot', { path: path.join(process.env.BENCH_HEAP_SNAPSHOTS, 'rooms.heapsnapshot') });
  }
  log(`rooms ready in ${(setupMs / 1000).toFixed(1)} s (store: ${opts.store})`);

  let measuring = false;
  let running = true;
  const latencies: number[] = [];
  let turnsSent = 0;
  let rejected = 0;
  let gamesFinished = 0;
  let replacing = 0;

  const scheduleTurn = (room: BenchRoom) => {
    if (!running) return;
    const delay = random() * 2 * opts.interval;
    room.timer = setTimeout(() => playTurn(room), delay);
  };

  const playTurn = (room: BenchRoom) => {
    room.timer = null;
    if (!running) return;
    const ref = room.clients[0].state;
    if (ref.phase !== 'playing') return;
    // Players join in seat order, so players[i] holds COLOURS[i].
    const mover = room.players[SEAT_ORDER.indexOf(ref.toMove)];
    if (!mover) throw new Error(`no mover for ${ref.toMove}`);
    const pos = parseFen(mover.state.fen, RULES);
    if (!pos.ok) throw new Error(pos.error.message);
    const turn = randomTurn(pos.value, random);
    room.pending = { target: (mover.state.version as number) + 1, t0: performance.now(), seen: new Set() };
    turnsSent++;
    mover.send('turn', turn);
  };

  const wire = (room: BenchRoom) => {
    room.clients.forEach((c, i) => {
      c.onStateChange((s: State) => {
        const pending = room.pending;
        if (!pending || s.version < pending.target || pending.seen.has(i)) return;
        pending.seen.add(i);
        if (pending.seen.size < room.clients.length) return;
        const ms = performance.now() - pending.t0;
        room.pending = null;
        if (measuring) latencies.push(ms);
        if (s.phase === 'over') {
          gamesFinished++;
          replace(room);
        } else scheduleTurn(room);
      });
    });
    room.players.forEach((p) => {
      p.onMessage('rejected', () => {
        rejected++;
        room.pending = null;
        scheduleTurn(room);
      });
    });
  };

  const replace = (room: BenchRoom) => {
    replacing++;
    void (async () => {
      await closeRoom(room);
      const fresh = await setupRoom(sdk, opts.spectators);
      rooms = rooms.map((r) => (r === room ? fresh : r));
      wire(fresh);
      replacing--;
      scheduleTurn(fresh);
    })().catch((e) => {
      console.error('replacing a room failed:', e);
    });
  };

  for (const room of rooms) {
    wire(room);
    scheduleTurn(room);
  }

  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  log(`warming up for ${opts.warmup} s, then measuring for ${opts.seconds} s (mean ${opts.interval} ms between turns per room)`);
  await new Promise((r) => setTimeout(r, opts.warmup * 1000));
  measuring = true;
  loop.enable();
  const s0 = await server.request('stats');
  const turns0 = turnsSent;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, opts.seconds * 1000));
  const s1 = await server.request('stats');
  const wall = performance.now() - t0;
  measuring = false;
  loop.disable();
  const turnsMeasured = turnsSent - turns0;
  running = false;
  for (const room of rooms) if (room.timer) clearTimeout(room.timer);
  const afterPlay = await server.request('gc');
  if (process.env.BENCH_HEAP_SNAPSHOTS) await server.request('snapshot', { path: path.join(process.env.BENCH_HEAP_SNAPSHOTS, 'played.heapsnapshot') });

  latencies.sort((a, b) => a - b);
  const cpuMs = (s1.cpu.user + s1.cpu.system - s0.cpu.user - s0.cpu.system) / 1000;
  const serverWall = s1.time - s0.time;
  // JS heap plus the buffers it owns (external), and resident set size, per room, in KB.
  const used = (s: Stats) => s.memory.heapUsed + s.memory.external;
  const perRoom = (a: Stats, b: Stats, n = opts.rooms) => (used(b) - used(a)) / n / 1024;
  const rssPerRoom = (a: Stats, b: Stats) => (b.memory.rss - a.memory.rss) / opts.rooms / 1024;
  const result = {
    rooms: opts.rooms,
    store: opts.store,
    clientsPerRoom: 4 + opts.spectators,
    meanTurnIntervalMs: opts.interval,
    measuredSeconds: +(wall / 1000).toFixed(2),
    turns: turnsMeasured,
    turnsPerSecond: +(turnsMeasured / (wall / 1000)).toFixed(1),
    samples: latencies.length,
    latencyMs: {
      p50: +percentile(latencies, 50).toFixed(2),
      p90: +percentile(latencies, 90).toFixed(2),
      p99: +percentile(latencies, 99).toFixed(2),
      max: +(latencies[latencies.length - 1] ?? NaN).toFixed(2),
    },
    serverCpuPercentOfOneCore: +((cpuMs / serverWall) * 100).toFixed(1),
    serverMemoryPerRoomKB: {
      heapAfterSetup: +perRoom(base, afterSetup).toFixed(1),
      heapAfterPlay: +perRoom(base, afterPlay).toFixed(1),
      heapMarginal: +perRoom(midSetup, afterSetup, opts.rooms - half).toFixed(1),
      rssAfterSetup: +rssPerRoom(base, afterSetup).toFixed(1),
      rssAfterPlay: +rssPerRoom(base, afterPlay).toFixed(1),
    },
    serverMemoryMB: {
      baseRss: +(base.memory.rss / 2 ** 20).toFixed(1),
      endRss: +(afterPlay.memory.rss / 2 ** 20).toFixed(1),
      endHeap: +(afterPlay.memory.heapUsed / 2 ** 20).toFixed(1),
    },
    serverEventLoopDelayMs: {
      p50: +Math.max(0, s1.eventLoop.p50).toFixed(2),
      p99: +Math.max(0, s1.eventLoop.p99).toFixed(2),
      max: +Math.max(0, s1.eventLoop.max).toFixed(2),
    },
    serverGc: { count: s1.gc.count, totalMs: +s1.gc.totalMs.toFixed(1), maxPauseMs: +s1.gc.maxMs.toFixed(1) },
    loadGeneratorEventLoopDelayMs: {
      p50: +Math.max(0, loop.percentile(50) / 1e6 - LOOP_RESOLUTION_MS).toFixed(2),
      p99: +Math.max(0, loop.percentile(99) / 1e6 - LOOP_RESOLUTION_MS).toFixed(2),
    },
    gamesFinished,
    rejected,
    setupSeconds: +(setupMs / 1000).toFixed(1),
    targets: { p50Ms: 5, p99Ms: 25, memoryPerRoomKB: 150 },
  };
  const pass = result.latencyMs.p50 <= 5 && result.latencyMs.p99 <= 25 && result.serverMemoryPerRoomKB.heapAfterPlay <= 150;

  if (opts.json) {
    console.log(JSON.stringify({ ...result, pass }, null, 2));
  } else {
    console.log('');
    console.log(
      `rooms ${result.rooms} × ${result.clientsPerRoom} clients, ${result.turns} turns in ${result.measuredSeconds} s (${result.turnsPerSecond}/s), ${result.samples} samples`,
    );
    console.log(
      `turn sent → patch received by all clients: p50 ${result.latencyMs.p50} ms, p90 ${result.latencyMs.p90} ms, p99 ${result.latencyMs.p99} ms, max ${result.latencyMs.max} ms   (targets p50 ≤ 5, p99 ≤ 25)`,
    );
    console.log(`server CPU: ${result.serverCpuPercentOfOneCore}% of one core`);
    const m = result.serverMemoryPerRoomKB;
    console.log(
      `server memory per room (JS heap + external buffers, after GC): ${m.heapAfterSetup} KB after setup, ${m.heapAfterPlay} KB after play, marginal ${m.heapMarginal} KB   (target ≤ 150)`,
    );
    console.log(
      `server RSS growth per room: ${m.rssAfterSetup} KB after setup, ${m.rssAfterPlay} KB after play (includes V8 heap reserve and allocator slack)`,
    );
    console.log(
      `server RSS ${result.serverMemoryMB.baseRss} MB → ${result.serverMemoryMB.endRss} MB; load generator event-loop delay p50 ${result.loadGeneratorEventLoopDelayMs.p50} ms, p99 ${result.loadGeneratorEventLoopDelayMs.p99} ms`,
    );
    console.log(
      `server event-loop delay p50 ${result.serverEventLoopDelayMs.p50} ms, p99 ${result.serverEventLoopDelayMs.p99} ms, max ${result.serverEventLoopDelayMs.max} ms`,
    );
    console.log(`server GC: ${result.serverGc.count} collections, ${result.serverGc.totalMs} ms in total, longest ${result.serverGc.maxPauseMs} ms`);
    console.log(`games finished ${result.gamesFinished}, rejected turns ${result.rejected}`);
    console.log(pass ? 'PASS: within targets' : 'FAIL: outside targets');
  }

  while (replacing > 0) await new Promise((r) => setTimeout(r, 50));
  await inBatches(rooms.length, 16, (i) => closeRoom(rooms[i]));
  await server.request('close').catch(() => undefined);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
