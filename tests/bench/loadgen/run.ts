/**
 * One benchmark run: a server process (the Djambi server or the baseline room), N rooms driven
 * by load-generator worker threads, a warm-up, a measured window, and the figures of both sides.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { SERVER_NODE_FLAGS } from '../../../server/src/obs/heap.js';
import { type ChildRequest, type HistogramReading, type HistogramWindow, histogramWindow, STORE_APPEND, TURN_TO_PATCH } from './child.js';
import { OVERLOAD_CODES } from './codes.js';
import { createDatabase } from './pgdb.js';
import type { Target } from './rooms.js';
import type { Command, WorkerConfig, WorkerReport } from './worker.js';

/** The generator's options, common to bench:server and bench:cluster. */
export interface LoadOptions {
  rooms: number;
  seconds: number;
  warmup: number;
  /** Mean milliseconds between two turns of one room (uniform in [0, 2 × interval]). */
  interval: number;
  spectators: number;
  seed: number;
  /** Load-generator worker threads (0 = automatic: 1 up to 250 rooms, 2 above). */
  workers: number;
  /** One room in `fullEvery` uses colyseus.js clients that decode and check the state. */
  fullEvery: number;
  /** Largest generator event-loop delay p99 (ms, any worker or the main thread) of a run that is reported. */
  maxGenLag: number;
  /** Rooms set up at once per worker. */
  concurrency: number;
}

/** Options of a run (see tests/bench/server.ts for the command line). */
export interface RunOptions extends LoadOptions {
  store: 'none' | 'sqlite' | 'postgres';
  /**
   * Seconds the server is left alone after set-up before its idle cost is measured: the tail of
   * the set-up (the last joins, V8's background work after the forced collection) is not idle.
   */
  settle: number;
  /** Seconds of idle server (rooms open, no turn) measured before play, to subtract from CPU per turn. */
  idle: number;
  /**
   * Turns each room plays back to back after set-up, before the idle window and play (0: none):
   * the window then sees games that far on (the ones that ended are replaced by new games).
   */
  fromMove: number;
}

/** What a benchmarked server process tells over IPC (`child.ts`). */
export interface ChildStats {
  gc: { count: number; totalMs: number; maxMs: number };
  eventLoop: { p50: number; p99: number; max: number };
  cpu: { user: number; system: number };
  memory: NodeJS.MemoryUsage;
  time: number;
  /** The Djambi server's own histograms (`/metrics`), on `stats` replies. */
  histograms?: Record<string, HistogramReading>;
}

/** A server in a child process, asked for its figures over IPC. */
export class ServerProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (m: ChildStats) => void; reject: (e: Error) => void }>();
  port = 0;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: { id?: number } & ChildStats) => {
      if (m.id !== undefined) {
        this.waiting.get(m.id)?.resolve(m);
        this.waiting.delete(m.id);
      }
    });
    // A child that dies fails what waits on it, rather than leaving the run waiting for ever.
    child.on('exit', (code, signal) => {
      for (const w of this.waiting.values()) w.reject(new Error(`server exited (${signal ?? code}) before answering`));
      this.waiting.clear();
    });
  }

  /** `databaseUrl`: the run's own PostgreSQL database (`--store postgres`). */
  static async start(target: Target, store: RunOptions['store'], databaseUrl?: string): Promise<ServerProcess> {
    const here = path.join(process.cwd(), 'tests', 'bench');
    const entry = target === 'djambi' ? path.join(here, 'server-child.ts') : path.join(here, 'baseline', 'child.ts');
    const extra = process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [];
    // Both servers run with production's Node flags; BENCH_SERVER_ARGS come last, so they can override them.
    return ServerProcess.fork(entry, [...SERVER_NODE_FLAGS, ...extra], {
      ...process.env,
      // The engine as production loads it (shared/dist); the generator itself runs it from source.
      TSX_TSCONFIG_PATH: path.join(here, 'child-tsconfig.json'),
      NODE_ENV: 'production',
      BENCH_STORE: store,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
  }

  /**
   * Forks `entry` under tsx with `--expose-gc` (plus `execArgv`) and resolves once it has sent
   * `ready` (`child.ts`'s `serveParent`); its output goes to this process's, or to `output`.
   */
  static async fork(entry: string, execArgv: readonly string[], env: NodeJS.ProcessEnv, output?: (chunk: string) => void): Promise<ServerProcess> {
    const child = fork(entry, [], {
      execArgv: ['--import', 'tsx', '--expose-gc', ...execArgv],
      env,
      stdio: output ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    if (output) {
      child.stdout?.on('data', (c: Buffer) => output(c.toString()));
      child.stderr?.on('data', (c: Buffer) => output(c.toString()));
    }
    const sp = new ServerProcess(child);
    sp.port = await new Promise<number>((resolve, reject) => {
      child.on('message', (m: { type?: string; port?: number }) => {
        if (m.type === 'ready' && m.port) resolve(m.port);
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    return sp;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Ends the child if it is still running. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** Sends `signal` and resolves once the child has exited (at once if it had). */
  signal(signal: NodeJS.Signals): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill(signal);
    return exited;
  }

  request(type: ChildRequest['type'], extra: Record<string, unknown> = {}): Promise<ChildStats> {
    const id = this.nextId++;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.reject(new Error('server has exited'));
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, type, ...extra });
    });
  }
}

/** A worker thread of the generator, with a promise per awaited reply. */
export class GenWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<string, (m: unknown) => void>();
  private failure: Error | null = null;
  readonly ready: Promise<unknown>;

  constructor(config: WorkerConfig) {
    // Node 20 does not pass tsx's loader to worker threads: the worker registers it, then imports the TypeScript.
    const entry = new URL('./worker.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    this.worker = new Worker(boot, { eval: true, workerData: config });
    this.ready = this.next('ready');
    this.worker.on('message', (m: { type: string; message?: string }) => {
      if (m.type === 'error') {
        this.failure = new Error(`load-generator worker failed: ${m.message}`);
        for (const cb of this.pending.values()) cb(this.failure);
        this.pending.clear();
        return;
      }
      const cb = this.pending.get(m.type);
      this.pending.delete(m.type);
      cb?.(m);
    });
    this.worker.on('error', (e) => {
      this.failure = e;
      for (const cb of this.pending.values()) cb(e);
      this.pending.clear();
    });
  }

  private next<T>(type: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.pending.set(type, (m) => (m instanceof Error ? reject(m) : resolve(m as T)));
    });
  }

  /** Sends a command and waits for its reply. */
  ask<T>(cmd: Command, reply: string): Promise<T> {
    const p = this.next<T>(reply);
    this.worker.postMessage(cmd);
    return p;
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/** The generator's side of a run, common to bench:server and bench:cluster. */
export interface LoadFigures {
  readonly clientsPerRoom: number;
  readonly meanTurnIntervalMs: number;
  readonly workers: number;
  readonly decodingRooms: number;
  readonly measuredSeconds: number;
  readonly turns: number;
  readonly turnsPerSecond: number;
  readonly samples: number;
  /** Turn sent → its patch received by every client of the room. */
  readonly latencyMs: { p50: number; p90: number; p99: number; max: number };
  readonly generator: {
    /** The whole generator process (main thread + workers). */
    readonly cpuPercentOfOneCore: number;
    readonly mainEventLoopDelayMs: { p50: number; p99: number; max: number };
    readonly workers: { eventLoopDelayMs: { p50: number; p99: number; max: number }; utilisation: number; turns: number }[];
  };
  readonly checks: { ok: number; failed: number; firstFailure: string };
  readonly rejected: Record<string, number>;
  readonly gamesFinished: number;
  readonly setupSeconds: number;
  /** Why the run's figures cannot be trusted (empty: they can). */
  readonly refused: string[];
}

/** The figures of one run. */
export interface RunResult extends LoadFigures {
  readonly target: Target;
  readonly rooms: number;
  readonly store: RunOptions['store'];
  /** `--from-move`: the rooms whose game reached that move before play, and how long it took. */
  readonly advanced: { readonly rooms: number; readonly reached: number; readonly seconds: number } | null;
  readonly server: {
    readonly cpuPercentOfOneCore: number;
    readonly cpuMicrosPerTurn: number;
    /** CPU per turn above the idle server's (`--idle` window before play). */
    readonly netCpuMicrosPerTurn: number;
    readonly idleCpuPercentOfOneCore: number;
    readonly eventLoopDelayMs: { p50: number; p99: number; max: number };
    readonly gc: { count: number; totalMs: number; maxPauseMs: number };
    /** JS heap + external buffers per room, KB, after a full GC. */
    readonly heapPerRoomKB: { afterSetup: number; afterPlay: number; marginal: number };
    readonly rssPerRoomKB: { afterSetup: number; afterPlay: number };
    readonly rssMB: { base: number; end: number };
    /**
     * The Djambi server's own figures over the measured window, from its `/metrics`: a turn from
     * its message to its patch (no network, no generator), and the store's appends; null for the
     * bare room, or when it recorded none.
     */
    readonly own: { readonly turnToPatch: HistogramWindow | null; readonly storeAppend: HistogramWindow | null };
  };
}

/** Sampling period of the main thread's event-loop delay monitor, ms. */
const LOOP_RESOLUTION_MS = 2;

/** The `p`th percentile of sorted samples (NaN when none). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** The median of some numbers, the mean of the middle two for an even count (NaN when none). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** `x` rounded to `d` decimals. */
export const round = (x: number, d = 2) => +x.toFixed(d);
/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Worker count for `rooms` when the option says automatic. */
function workerCount(o: Pick<LoadOptions, 'workers' | 'rooms'>): number {
  return Math.min(o.workers > 0 ? o.workers : o.rooms > 250 ? 2 : 1, o.rooms);
}

/** The generator's worker threads against `httpBase`, room `i` driven by worker `i mod W`. */
export function startGenerator(target: Target, httpBase: string, o: LoadOptions): GenWorker[] {
  const n = workerCount(o);
  return Array.from({ length: n }, (_, w) => {
    const rooms: number[] = [];
    for (let i = w; i < o.rooms; i += n) rooms.push(i);
    return new GenWorker({
      target,
      httpBase,
      rooms,
      fullEvery: o.fullEvery,
      spectators: o.spectators,
      interval: o.interval,
      seed: o.seed * 1000 + w,
      concurrency: o.concurrency,
    });
  });
}

/** Sends every worker `cmd` and waits for all their `reply`s. */
export function askAll<T>(workers: readonly GenWorker[], cmd: Command, reply: string): Promise<T[]> {
  return Promise.all(workers.map((w) => w.ask<T>(cmd, reply)));
}

/** A measured window of play, with the caller's own samples taken at both ends. */
export interface Measured<S> {
  readonly start: S;
  readonly end: S;
  readonly wallMs: number;
  readonly reports: WorkerReport[];
  /** The generator process's CPU over the window. */
  readonly generatorCpu: NodeJS.CpuUsage;
  /** The generator's main-thread event-loop delay over the window. */
  readonly loop: IntervalHistogram;
}

/**
 * The rooms play: `o.warmup` s of warm-up, then `o.seconds` s measured between two calls of
 * `sample` (the caller's own figures: the servers' stats, other processes' CPU); then the
 * workers report and stop playing (the rooms stay open).
 */
export async function playAndMeasure<S>(workers: readonly GenWorker[], o: LoadOptions, sample: () => Promise<S>): Promise<Measured<S>> {
  await askAll(workers, { type: 'play' }, 'playing');
  await sleep(o.warmup * 1000);
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  await askAll(workers, { type: 'measure' }, 'measuring');
  loop.enable();
  const start = await sample();
  const g0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(o.seconds * 1000);
  const end = await sample();
  const generatorCpu = process.cpuUsage(g0);
  const wallMs = performance.now() - t0;
  loop.disable();
  const reports = await askAll<WorkerReport>(workers, { type: 'report' }, 'report');
  await askAll(workers, { type: 'stop' }, 'stopped');
  return { start, end, wallMs, reports, generatorCpu, loop };
}

/** Milliseconds of the event-loop monitor's `ns`, less its sampling period. */
const loopMs = (ns: number) => round(Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS));

/**
 * The generator's figures of a window, and why they cannot be trusted (empty: reportable): a
 * worker's or the main thread's event-loop delay p99 over `o.maxGenLag`, a decoded state that
 * differs from what was played, a generated turn the server refused, no turn at all.
 */
export function loadFigures(o: LoadOptions, m: Measured<unknown>, setupMs: number): LoadFigures {
  const { reports, loop } = m;
  const all = new Float64Array(reports.reduce((n, r) => n + r.latencies.length, 0));
  let at = 0;
  for (const r of reports) {
    all.set(r.latencies, at);
    at += r.latencies.length;
  }
  all.sort();
  const turns = reports.reduce((n, r) => n + r.turns, 0);
  const rejected: Record<string, number> = {};
  for (const r of reports) for (const [k, v] of Object.entries(r.rejected)) rejected[k] = (rejected[k] ?? 0) + v;
  const checks = { ok: 0, failed: 0, firstFailure: '' };
  for (const r of reports) {
    checks.ok += r.checks.ok;
    checks.failed += r.checks.failed;
    checks.firstFailure ||= r.checks.firstFailure;
  }
  const mainLoop = { p50: loopMs(loop.percentile(50)), p99: loopMs(loop.percentile(99)), max: loopMs(loop.max) };
  const genWorkers = reports.map((r) => ({
    eventLoopDelayMs: { p50: round(r.eventLoopMs.p50), p99: round(r.eventLoopMs.p99), max: round(r.eventLoopMs.max) },
    utilisation: round(r.utilisation, 3),
    turns: r.turns,
  }));
  const refused: string[] = [];
  genWorkers.forEach((w, i) => {
    if (w.eventLoopDelayMs.p99 > o.maxGenLag)
      refused.push(`generator worker ${i} event-loop delay p99 ${w.eventLoopDelayMs.p99} ms > --max-gen-lag ${o.maxGenLag} ms`);
  });
  if (mainLoop.p99 > o.maxGenLag) refused.push(`generator main thread event-loop delay p99 ${mainLoop.p99} ms > --max-gen-lag ${o.maxGenLag} ms`);
  if (checks.failed > 0) refused.push(`${checks.failed} decoded states differ from what was played (first: ${checks.firstFailure})`);
  const count = (overload: boolean) =>
    Object.entries(rejected)
      .filter(([code]) => OVERLOAD_CODES.has(code) === overload)
      .reduce((n, [, v]) => n + v, 0);
  if (count(false) > 0) refused.push(`the server refused ${count(false)} generated turns (${JSON.stringify(rejected)}): generator and server disagree`);
  if (count(true) > 0) refused.push(`the server could not take ${count(true)} turns (${JSON.stringify(rejected)}): it is overloaded`);
  if (turns === 0) refused.push('no turn was measured');
  const g = m.generatorCpu;
  return {
    clientsPerRoom: 4 + o.spectators,
    meanTurnIntervalMs: o.interval,
    workers: reports.length,
    decodingRooms: reports.reduce((n, r) => n + r.fullRooms, 0),
    measuredSeconds: round(m.wallMs / 1000),
    turns,
    turnsPerSecond: round(turns / (m.wallMs / 1000), 1),
    samples: all.length,
    latencyMs: {
      p50: round(percentile(all, 50)),
      p90: round(percentile(all, 90)),
      p99: round(percentile(all, 99)),
      max: round(all[all.length - 1] ?? Number.NaN),
    },
    generator: { cpuPercentOfOneCore: round(((g.user + g.system) / 1000 / m.wallMs) * 100, 1), mainEventLoopDelayMs: mainLoop, workers: genWorkers },
    checks,
    rejected,
    gamesFinished: reports.reduce((n, r) => n + r.gamesFinished, 0),
    setupSeconds: round(setupMs / 1000, 1),
    refused,
  };
}

/** One run against `target`; `log` gets the progress lines. */
export async function runOnce(target: Target, o: RunOptions, log: (line: string) => void): Promise<RunResult> {
  const store = target === 'djambi' ? o.store : 'none';
  const db = store === 'postgres' ? await createDatabase() : null;
  const server = await ServerProcess.start(target, store, db?.url).catch(async (e: unknown) => {
    await db?.drop();
    throw e;
  });
  const workers = startGenerator(target, `http://127.0.0.1:${server.port}`, o);
  log(
    `[${target}] server pid ${server.pid} on port ${server.port}; ${o.rooms} rooms × (4 players + ${o.spectators} spectators) over ${workers.length} worker(s)`,
  );
  const base = await server.request('gc');
  const setupStart = performance.now();
  try {
    await Promise.all(workers.map((w) => w.ready));
    // Rooms are opened in two halves so that the marginal cost of a room (without one-time costs
    // such as compiled code and caches) can be told apart from the average.
    const halves = await askAll<{ rooms: number }>(workers, { type: 'open', share: 0.5 }, 'opened');
    const firstHalf = halves.reduce((n, h) => n + h.rooms, 0);
    const midSetup = await server.request('gc');
    await askAll(workers, { type: 'open', share: 1 }, 'opened');
    const setupMs = performance.now() - setupStart;
    const afterSetup = await server.request('gc');
    log(`[${target}] rooms ready in ${(setupMs / 1000).toFixed(1)} s; warming up ${o.warmup} s, measuring ${o.seconds} s`);
    let advanced: { rooms: number; reached: number; seconds: number } | null = null;
    if (o.fromMove > 0) {
      const t = performance.now();
      const done = await askAll<{ rooms: number; reached: number }>(workers, { type: 'advance', turns: o.fromMove }, 'advanced');
      advanced = {
        rooms: done.reduce((n, d) => n + d.rooms, 0),
        reached: done.reduce((n, d) => n + d.reached, 0),
        seconds: round((performance.now() - t) / 1000, 1),
      };
      log(`[${target}] ${advanced.reached} of ${o.rooms} games played to move ${o.fromMove} in ${advanced.seconds} s (the others ended on the way: new games)`);
    }

    // The server's idle cost (rooms open, nobody playing: heartbeats, timers), to tell apart from the
    // turns'; measured once the set-up's tail is over (without `--settle`, the first seconds after
    // set-up used 15-24 % of a core where the settled server uses 6-11 %, and "above idle" came out low).
    await sleep(o.settle * 1000);
    // BENCH_CPU_PROF=DIR with BENCH_CPU_PROF_PHASE=idle: the profile covers the idle window instead.
    const prof = process.env.BENCH_CPU_PROF;
    const intervalUs = Number(process.env.BENCH_CPU_PROF_US ?? 500);
    const profileIdle = prof !== undefined && process.env.BENCH_CPU_PROF_PHASE === 'idle';
    // Without the histograms: a read of /metrics walks the process's 6,000 sockets and handles.
    const i0 = await server.request('stats', { bare: true });
    if (profileIdle) await server.request('profile', { action: 'start', intervalUs });
    await sleep(o.idle * 1000);
    if (profileIdle) await server.request('profile', { action: 'stop', path: path.join(prof, `${target}-idle-${Date.now()}.cpuprofile`) });
    const i1 = await server.request('stats', { bare: true });
    /** Share of one core the idle server used. */
    const idleShare = o.idle > 0 ? (i1.cpu.user + i1.cpu.system - i0.cpu.user - i0.cpu.system) / 1000 / (i1.time - i0.time) : 0;
    // BENCH_CPU_PROF=DIR: a CPU profile of the server over the measured window (not set-up or idle).
    let samples = 0;
    const m = await playAndMeasure(workers, o, async () => {
      const at = samples++;
      if (prof && !profileIdle && at === 1) await server.request('profile', { action: 'stop', path: path.join(prof, `${target}-${Date.now()}.cpuprofile`) });
      const stats = await server.request('stats');
      if (prof && !profileIdle && at === 0) await server.request('profile', { action: 'start', intervalUs });
      return stats;
    });
    const afterPlay = await server.request('gc');
    await askAll(workers, { type: 'close' }, 'closed');

    const load = loadFigures(o, m, setupMs);
    const { start: s0, end: s1 } = m;
    const serverCpuMs = (s1.cpu.user + s1.cpu.system - s0.cpu.user - s0.cpu.system) / 1000;
    const serverWall = s1.time - s0.time;
    const used = (s: ChildStats) => s.memory.heapUsed + s.memory.external;
    const perRoom = (a: number, b: number, n = o.rooms) => round((b - a) / n / 1024, 1);
    const turns = load.turns;
    return {
      target,
      rooms: o.rooms,
      store: target === 'djambi' ? o.store : 'none',
      advanced,
      ...load,
      server: {
        cpuPercentOfOneCore: round((serverCpuMs / serverWall) * 100, 1),
        cpuMicrosPerTurn: round(turns > 0 ? (serverCpuMs * 1000) / turns : Number.NaN, 1),
        netCpuMicrosPerTurn: round(turns > 0 ? ((serverCpuMs - idleShare * serverWall) * 1000) / turns : Number.NaN, 1),
        idleCpuPercentOfOneCore: round(idleShare * 100, 1),
        eventLoopDelayMs: { p50: round(s1.eventLoop.p50), p99: round(s1.eventLoop.p99), max: round(s1.eventLoop.max) },
        gc: { count: s1.gc.count, totalMs: round(s1.gc.totalMs, 1), maxPauseMs: round(s1.gc.maxMs, 1) },
        heapPerRoomKB: {
          afterSetup: perRoom(used(base), used(afterSetup)),
          afterPlay: perRoom(used(base), used(afterPlay)),
          marginal: o.rooms - firstHalf > 0 ? perRoom(used(midSetup), used(afterSetup), o.rooms - firstHalf) : Number.NaN,
        },
        rssPerRoomKB: { afterSetup: perRoom(base.memory.rss, afterSetup.memory.rss), afterPlay: perRoom(base.memory.rss, afterPlay.memory.rss) },
        rssMB: { base: round(base.memory.rss / 2 ** 20, 1), end: round(afterPlay.memory.rss / 2 ** 20, 1) },
        own: {
          turnToPatch: histogramWindow(s0.histograms?.[TURN_TO_PATCH], s1.histograms?.[TURN_TO_PATCH]),
          storeAppend: histogramWindow(s0.histograms?.[STORE_APPEND], s1.histograms?.[STORE_APPEND]),
        },
      },
    };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    await Promise.race([server.request('close').catch(() => undefined), sleep(15_000)]);
    server.kill(); // a no-op once the child has exited
    await db?.drop();
  }
}
