/**
 * Cluster benchmark: N real server processes (the compiled `server/dist`, default 2) sharing a
 * redis-server and a PostgreSQL database of their own (RedisPresence/RedisDriver, the game log in
 * PostgreSQL), behind the deployment's nginx config (deploy/nginx.conf rendered for loopback,
 * widened to N replicas). The load generator (tests/bench/loadgen/) speaks to nginx only: every
 * room is created and joined through it (round-robin matchmaking; a room stays on the process that
 * was asked) and each WebSocket follows its process's `PUBLIC_ADDRESS` (`127.0.0.1:<nginx>/gameN`).
 * Each room has 4 players and `--spectators` spectators (default 1) and plays one turn every
 * `--interval` ms on average (default 2000).
 *
 * Reported: turn → patch at every client p50/p99, CPU and event-loop delay per process, memory per
 * room per process (heap + external after a full GC, and RSS), the generator's CPU and event-loop
 * delay. A run whose generator event-loop delay p99 exceeds `--max-gen-lag` ms is refused (exit 2),
 * as in bench:server.
 *
 * `--kill`: after the measured window the rooms stop, the first process is killed with -9, and
 * each of its games is brought back through nginx by a lightweight client (a colyseus.js client
 * that decodes the state in the rooms of `--full-every`) that reclaims the seat to move with its
 * key and plays a turn; the time from the kill to that turn's patch (p50/max over
 * the orphaned games) and the events lost (moves the generator saw accepted minus moves in the
 * log) are reported. A game not playable again within `--kill-timeout` s, or any event lost,
 * fails the run (exit 2).
 *
 * `--target baseline` runs the floor instead: the same deployment serving bench:server's bare room
 * (tests/bench/baseline/clusterServer.ts), with no game log, or with `--floor-log store` each turn
 * appended to the Djambi server's own PostgreSQL store (`--floor-log insert`: one plain INSERT)
 * before its patch. `--baseline` alternates the floor and the Djambi
 * server `--pairs` times and prints the medians and their ratios.
 *
 *   npm run bench:cluster [-- --rooms 200 --seconds 20 --processes 2 --interval 2000 --kill --json]
 *   npm run bench:cluster -- --baseline --pairs 3 [--floor-log store|insert] --rooms 2000 --seconds 30
 *
 * Diagnostics: `BENCH_SERVER_ARGS="--perf-basic-prof ..."` passes more Node options to every server
 * process; `BENCH_CPU_PROF=DIR` writes a CPU profile of every server over the measured window and,
 * with `--kill`, of each survivor over the takeover (V8's sampling profiler every
 * `BENCH_CPU_PROF_US` µs, default 500; summarise it with tests/bench/profileSummary.ts); with
 * `BENCH_HEAP_PROF=1` as well, V8's allocation sampler instead (`.heapprofile`; what it keeps:
 * `BENCH_HEAP_LIVE`, loadgen/child.ts).
 *
 * Needs redis-server (REDIS_SERVER, default /usr/bin/redis-server), nginx (NGINX_BIN, default
 * /usr/sbin/nginx) and PostgreSQL (PG_TEST_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../../server/src/obs/heap.js';
import {
  askAll,
  type ChildStats,
  type GenWorker,
  type LoadFigures,
  type LoadOptions,
  loadFigures,
  median,
  percentile,
  playAndMeasure,
  round,
  ServerProcess,
  sleep,
  startGenerator,
} from './loadgen/run.js';
import { describeWindow, type HistogramWindow, histogramWindow, STORE_APPEND, TURN_TO_PATCH } from './loadgen/child.js';
import { createDatabase, PG_ADMIN_URL } from './loadgen/pgdb.js';
import type { Target, TakeoverResult } from './loadgen/rooms.js';
import type { TakeoverReport } from './loadgen/worker.js';
import { freePort } from '../support/ports.js';
import { REDIS_CLI, REDIS_SERVER, RedisProcess } from '../support/redis.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = path.join(ROOT, 'server/dist/index.js');
/** The floor's process (`--target baseline`): the bare room in the same deployment. */
const BASELINE_ENTRY = path.join(ROOT, 'tests/bench/baseline/clusterServer.ts');
const PROBE = path.join(ROOT, 'tests/bench/loadgen/probe.ts');
/** `BENCH_SERVER_LOG_DIR`: every server process's output goes to DIR/NAME.log as well (with `--trace-gc-nvp` in BENCH_SERVER_ARGS, say). */
const LOG_DIR = process.env.BENCH_SERVER_LOG_DIR ?? '';

// tests/support/nginx.ts is written for jest (CommonJS: `__dirname`); under tsx it is an ES module,
// so the one name it reads is given before it loads (it only derives the repository root from it).
(globalThis as { __dirname?: string }).__dirname ??= path.join(ROOT, 'tests/support');
const nginxSupport: typeof import('../support/nginx.js') = await import('../support/nginx.js');
const { hardFileLimit, NGINX_BIN, NGINX_CONF, startNginx } = nginxSupport;
type RunningNginx = import('../support/nginx.js').RunningNginx;
/** nginx's workers: one per core, as `worker_processes auto` in deploy/nginx.conf. */
const NGINX_WORKERS = os.availableParallelism();

/** `--floor-log`: how the floor logs each turn before its patch. */
type FloorLog = '' | 'store' | 'insert';
const FLOOR_LOGS: Readonly<Record<FloorLog, string>> = {
  '': 'no game log',
  store: "each turn appended to the Djambi server's PostgreSQL store before its patch",
  insert: 'each turn inserted into PostgreSQL (one INSERT, committed) before its patch',
};

interface Options extends LoadOptions {
  /** What the processes serve: the Djambi server, or the bare room of tests/bench/baseline (the floor). */
  target: Target;
  /** Alternate runs of the floor and the Djambi server, `pairs` of each, and print the ratios. */
  baseline: boolean;
  pairs: number;
  /** How the floor logs each turn before its patch (`BASELINE_LOG`): not at all, through the Djambi server's store, or one INSERT per turn. */
  floorLog: FloorLog;
  processes: number;
  kill: boolean;
  /** Seconds the orphaned games have to be playable again after the kill. */
  killTimeout: number;
  /** CLUSTER_SWEEP_MS of the processes (0: the server's default). */
  sweepMs: number;
  json: boolean;
}

const USAGE =
  'usage: npm run bench:cluster -- [--rooms N] [--seconds S] [--warmup S] [--interval MS] [--spectators K] [--processes P] [--seed N] ' +
  '[--workers W] [--full-every N] [--max-gen-lag MS] [--concurrency C] [--sweep-ms MS] [--kill [--kill-timeout S]] [--target djambi|baseline] [--baseline [--pairs P]] [--floor-log store|insert] [--json]';

function parseArgs(argv: string[]): Options {
  const o: Options = {
    rooms: 200,
    seconds: 20,
    warmup: 3,
    interval: 2000,
    spectators: 1,
    target: 'djambi',
    baseline: false,
    pairs: 2,
    floorLog: '',
    processes: 2,
    seed: 1,
    workers: 0,
    fullEvery: 20,
    maxGenLag: 20,
    concurrency: 16,
    kill: false,
    killTimeout: 30,
    sweepMs: 0,
    json: false,
  };
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
    else if (a === '--processes') o.processes = Math.max(1, Math.floor(num()));
    else if (a === '--seed') o.seed = Math.floor(num());
    else if (a === '--workers') o.workers = Math.floor(num());
    else if (a === '--full-every') o.fullEvery = Math.max(1, Math.floor(num()));
    else if (a === '--max-gen-lag') o.maxGenLag = num();
    else if (a === '--concurrency') o.concurrency = Math.max(1, Math.floor(num()));
    else if (a === '--sweep-ms') o.sweepMs = Math.floor(num());
    else if (a === '--kill-timeout') o.killTimeout = num();
    else if (a === '--kill') o.kill = true;
    else if (a === '--target') {
      const v = argv[++i];
      if (v !== 'djambi' && v !== 'baseline') throw new Error(`--target takes djambi or baseline\n${USAGE}`);
      o.target = v;
    } else if (a === '--baseline') o.baseline = true;
    else if (a === '--pairs') o.pairs = Math.max(1, Math.floor(num()));
    else if (a === '--floor-log') {
      const v = argv[++i];
      if (v !== 'store' && v !== 'insert') throw new Error(`--floor-log takes store or insert\n${USAGE}`);
      o.floorLog = v;
    } else if (a === '--json') o.json = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  if (o.kill && o.processes < 2) throw new Error('--kill needs at least 2 processes');
  if (o.kill && (o.baseline || o.target === 'baseline')) throw new Error("--kill measures the Djambi server's takeover: the bare room has none");
  return o;
}

/** The extension of the profiles `BENCH_CPU_PROF` writes: a CPU profile, or an allocation profile with `BENCH_HEAP_PROF=1`. */
const PROFILE_EXT = () => (process.env.BENCH_HEAP_PROF === '1' ? 'heapprofile' : 'cpuprofile');

/** The last `n` lines of a text. */
const lastLines = (text: string, n: number) => text.split('\n').slice(-n).join('\n');
/** Milliseconds on a clock shared by every thread of this process. */
const now = () => performance.timeOrigin + performance.now();

/** What is missing to run the benchmark here (empty: nothing). */
async function missing(): Promise<string[]> {
  const out: string[] = [];
  if (!existsSync(REDIS_SERVER) || !existsSync(REDIS_CLI)) out.push(`redis-server (${REDIS_SERVER}; apt-get install redis-server)`);
  if (!existsSync(NGINX_BIN)) out.push(`nginx (${NGINX_BIN}; apt-get install nginx)`);
  if (!existsSync(ENTRY)) out.push(`${ENTRY} (npm run build -w shared && npm run build -w server)`);
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
  } catch {
    out.push(`PostgreSQL at ${PG_ADMIN_URL} (PG_TEST_URL)`);
  } finally {
    await c.end().catch(() => undefined);
  }
  return out;
}

/** deploy/nginx.conf with replicas game1..gameN (its replica lines repeated or dropped). */
function widenConf(conf: string, n: number): string {
  let out = conf;
  const patterns = [/^(\s*)game\d+ game\d+;\n/gm, /^(\s*)upstream game\d+ \{ server game\d+:2567[^\n]*\}\n/gm, /^(\s*)server game\d+:2567[^\n]*;\n/gm];
  for (const pattern of patterns) {
    const lines = [...out.matchAll(pattern)].map((m) => m[0]);
    if (lines.length === 0) throw new Error(`deploy/nginx.conf: no line matches ${pattern}`);
    const template = lines[0];
    const replicas = Array.from({ length: n }, (_, i) => template.replace(/game\d+/g, `game${i + 1}`)).join('');
    let first = true;
    out = out.replace(pattern, () => {
      const r = first ? replicas : '';
      first = false;
      return r;
    });
  }
  return out;
}

/**
 * Connections a generator or nginx worker may need beyond the WebSockets counted (HTTP keep-alive
 * sockets of the matchmaking, the takeover's reclaims): the share of their file limit kept free.
 */
const FILE_HEADROOM = 0.2;

/**
 * Why this machine cannot carry `webSockets` WebSockets through `nginx` and one generator process
 * (null: it can). Every process here inherits the hard file limit (`ulimit -Hn`), which none can
 * raise; a process past it refuses connections (nginx answers upgrades with 500).
 */
function capacityProblem(webSockets: number, nginx: RunningNginx): string | null {
  const fits = (capacity: number) => webSockets <= capacity * (1 - FILE_HEADROOM);
  if (!fits(nginx.webSockets))
    return `${webSockets} WebSockets need more than nginx's ${nginx.webSockets} (${NGINX_WORKERS} workers at the file limit ${hardFileLimit()}): raise the hard file limit (ulimit -Hn)`;
  if (!fits(hardFileLimit())) return `${webSockets} WebSockets exceed what one generator process can open under the file limit ${hardFileLimit()} (ulimit -Hn)`;
  return null;
}

/** Linux's USER_HZ: the unit of the CPU times in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) of a process so far, ms; NaN when it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN; // gone
  }
}

/** A process and its children (nginx's master and workers). */
function withChildren(pid: number): number[] {
  try {
    return [pid, ...readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)];
  } catch {
    return [pid];
  }
}

/** The PostgreSQL backends serving a database (the processes of the servers' connections). */
async function backends(databaseUrl: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return r.rows.map((row) => row.pid);
  } finally {
    await c.end();
  }
}

/** CPU so far of each process of a group, ms by pid. */
type CpuSample = Map<number, number>;
const sampleCpu = (pids: readonly number[]): CpuSample => new Map(pids.map((pid) => [pid, cpuMs(pid)] as const).filter(([, ms]) => Number.isFinite(ms)));
/**
 * Share of one core (%) the processes present in both samples used between them (a process that
 * ended in between, such as a PostgreSQL backend of a connection the pool closed, is left out:
 * its pid may be another process's by then).
 */
function cpuPercent(a: CpuSample, b: CpuSample, wallMs: number): number {
  let used = 0;
  for (const [pid, ms] of b) {
    const before = a.get(pid);
    if (before !== undefined && ms >= before) used += ms - before;
  }
  return round((used / wallMs) * 100, 1);
}

/** One game server process of the cluster. */
interface Replica {
  readonly name: string;
  readonly port: number;
  readonly publicAddress: string;
  readonly server: ServerProcess;
  output: string;
  dead: boolean;
}

/** The environment of the runner, less the settings that choose a deployment (each process gets its own). */
function baseEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _db, REDIS_URL: _redis, PUBLIC_ADDRESS: _address, DATA_DIR: _data, ...rest } = process.env;
  return rest;
}

async function startReplica(
  target: Target,
  floorLog: FloorLog,
  i: number,
  entryPort: number,
  redisUrl: string,
  databaseUrl: string,
  sweepMs: number,
): Promise<Replica> {
  const name = `game${i + 1}`;
  const port = await freePort();
  const publicAddress = `127.0.0.1:${entryPort}/${name}`;
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    REDIS_URL: redisUrl,
    PUBLIC_ADDRESS: publicAddress,
    DATABASE_URL: databaseUrl,
    NODE_NAME: name,
    // nginx is the trusted proxy: the generator's own loopback address (X-Forwarded-For) stays exempt from the rate limits.
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...(sweepMs > 0 ? { CLUSTER_SWEEP_MS: String(sweepMs) } : {}),
    // The bare room's schema decorators, and the engine as production loads it (shared/dist), as bench:server's floor.
    ...(target === 'baseline' ? { TSX_TSCONFIG_PATH: path.join(ROOT, 'tests/bench/child-tsconfig.json') } : {}),
    ...(target === 'baseline' && floorLog !== '' ? { BASELINE_LOG: floorLog } : {}),
  };
  const replica: Replica = { name, port, publicAddress, server: undefined as unknown as ServerProcess, output: '', dead: false };
  const server = await Promise.race([
    // Production's Node flags (server/src/obs/heap.ts), as npm start and the Dockerfile pass them.
    ServerProcess.fork(target === 'djambi' ? ENTRY : BASELINE_ENTRY, [...SERVER_NODE_FLAGS, ...extraNodeArgs(), '--import', PROBE], env, (chunk) => {
      replica.output = (replica.output + chunk).slice(-16_000);
      if (LOG_DIR) appendFileSync(path.join(LOG_DIR, `${name}.log`), chunk);
    }),
    sleep(30_000).then(() => {
      throw new Error(`${name} did not start within 30 s:\n${replica.output}`);
    }),
  ]).catch((e: Error) => {
    throw new Error(`${e.message}\n${replica.output}`);
  });
  (replica as { server: ServerProcess }).server = server;
  return replica;
}

/** `BENCH_SERVER_ARGS`: more Node options for every server process (`--perf-basic-prof`, say), as `bench:server` takes them. */
function extraNodeArgs(): string[] {
  return (process.env.BENCH_SERVER_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
}

/** `/healthz` of one process, directly (not through nginx). */
async function health(port: number): Promise<{ rooms: number; ccu: number }> {
  const r = await fetch(`http://127.0.0.1:${port}/healthz`);
  const body = (await r.json()) as { rooms: number; ccu: number };
  return { rooms: body.rooms, ccu: body.ccu };
}

/** Every room listing in Redis: room id → public address of its process. */
function listings(redisPort: number): Map<string, string> {
  const raw = execFileSync(REDIS_CLI, ['-p', String(redisPort), '--raw', 'HGETALL', 'roomcaches'], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  const lines = raw.split('\n').filter((l) => l !== '');
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < lines.length; i += 2) {
    try {
      out.set(lines[i], (JSON.parse(lines[i + 1]) as { publicAddress?: string }).publicAddress ?? '');
    } catch {}
  }
  return out;
}

/** Figures of one process over the run. */
interface ProcessFigures {
  readonly name: string;
  readonly rooms: number;
  readonly clients: number;
  readonly cpuPercentOfOneCore: number;
  readonly eventLoopDelayMs: { p50: number; p99: number; max: number };
  readonly gc: { count: number; totalMs: number; maxPauseMs: number };
  /** JS heap + external buffers per room of this process, KB, after a full GC. */
  readonly heapPerRoomKB: { afterSetup: number; afterPlay: number };
  readonly rssPerRoomKB: { afterSetup: number; afterPlay: number };
  readonly rssMB: { base: number; end: number };
  /** The server's own figures over the measured window (its `/metrics`): a turn from its message to its patch, and each append. */
  readonly own: { readonly turnToPatch: HistogramWindow | null; readonly storeAppend: HistogramWindow | null };
}

/** The takeover after `--kill`. */
interface TakeoverFigures {
  readonly killed: string;
  readonly games: number;
  readonly playableAgain: number;
  /** Kill → the patch of the first turn accepted after the seat was reclaimed, over the orphaned games. */
  readonly ms: { p50: number; max: number };
  /** Kill → the seat reclaimed (the room's state received), over the orphaned games. */
  readonly reclaimMs: { p50: number; max: number };
  readonly eventsLost: number;
  readonly retries: number;
  /** nginx's error log during the takeover by kind, most frequent first (at most 8). */
  readonly nginxErrors?: Record<string, number>;
  /** Why reclaim attempts failed, most frequent first (at most 8 reasons). */
  readonly retryReasons: Record<string, number>;
  readonly failures: string[];
}

interface ClusterResult extends LoadFigures {
  readonly target: Target;
  /** How the floor logged its turns (`--floor-log`; '' for the Djambi server or no log). */
  readonly floorLog: FloorLog;
  readonly processes: number;
  readonly rooms: number;
  readonly perProcess: ProcessFigures[];
  readonly serverCpuPercentTotal: number;
  /** CPU of the rest of the deployment, % of one core (PostgreSQL: the backends of the run's database only). */
  readonly infraCpuPercentOfOneCore: { nginx: number; redis: number; postgres: number };
  readonly takeover: TakeoverFigures | null;
}

async function run(o: Options, log: (line: string) => void): Promise<ClusterResult> {
  const cleanup: (() => Promise<unknown>)[] = [];
  const replicas: Replica[] = [];
  const workers: GenWorker[] = [];
  let nginx: RunningNginx | null = null;
  // Ctrl-C: the processes of the run go with it (the cleanup steps, then exit 130).
  const interrupted = () => {
    console.error('[cluster] interrupted: stopping the processes of the run');
    for (const r of replicas) r.server.kill();
    void (async () => {
      for (const step of [...cleanup].reverse()) await step().catch(() => undefined);
      process.exit(130);
    })();
  };
  process.once('SIGINT', interrupted);
  try {
    const redis = await RedisProcess.start();
    cleanup.push(() => redis.stop());
    const db = await createDatabase();
    cleanup.push(() => db.drop());
    const entryPort = await freePort();
    // One at a time: the first one migrates the database.
    for (let i = 0; i < o.processes; i++) {
      const r = await startReplica(o.target, o.floorLog, i, entryPort, redis.url, db.url, o.sweepMs);
      replicas.push(r);
    }
    cleanup.push(() =>
      Promise.all(replicas.map((r) => (r.dead ? undefined : Promise.race([r.server.signal('SIGTERM'), sleep(15_000)]).then(() => r.server.kill())))),
    );
    const started = await startNginx(Object.fromEntries(replicas.map((r) => [r.name, r.port])), entryPort, {
      workers: NGINX_WORKERS,
      conf: widenConf(readFileSync(NGINX_CONF, 'utf8'), replicas.length),
    });
    nginx = started;
    cleanup.push(() => started.stop());
    const problem = capacityProblem(o.rooms * (4 + o.spectators), started);
    if (problem) throw new Error(`bench:cluster cannot run ${o.rooms} rooms here: ${problem}`);
    const httpBase = `http://127.0.0.1:${entryPort}`;
    workers.push(...startGenerator(o.target, httpBase, o));
    log(
      `[cluster] ${o.processes} processes (${replicas.map((r) => `${r.name} pid ${r.server.pid} port ${r.port}`).join(', ')}) behind nginx on ${entryPort} (${NGINX_WORKERS} workers), redis on ${redis.port}, PostgreSQL; ` +
        `${o.rooms} rooms × (4 players + ${o.spectators} spectators) over ${workers.length} worker(s)`,
    );
    const gcAll = () => Promise.all(replicas.map((r) => r.server.request('gc')));
    const statsAll = () => Promise.all(replicas.map((r) => r.server.request('stats')));
    const base = await gcAll();
    const setupStart = performance.now();
    await Promise.all(workers.map((w) => w.ready));
    await askAll(workers, { type: 'open', share: 1 }, 'opened');
    const setupMs = performance.now() - setupStart;
    const afterSetup = await gcAll();
    const placed = await Promise.all(replicas.map((r) => health(r.port)));
    log(
      `[cluster] rooms ready in ${(setupMs / 1000).toFixed(1)} s (${replicas.map((r, i) => `${r.name}: ${placed[i].rooms} rooms, ${placed[i].ccu} clients`).join('; ')}); warming up ${o.warmup} s, measuring ${o.seconds} s`,
    );

    const infra = { nginx: withChildren(started.pid), redis: [redis.pid], postgres: await backends(db.url) };
    // BENCH_CPU_PROF=DIR: a profile of every server over the measured window (V8's CPU profiler, or
    // with BENCH_HEAP_PROF=1 its allocation sampler: loadgen/child.ts), as bench:server takes one.
    const prof = process.env.BENCH_CPU_PROF;
    let samples = 0;
    const m = await playAndMeasure(workers, o, async () => {
      const at = samples++;
      if (prof && at === 1)
        await Promise.all(
          replicas.map((r) => r.server.request('profile', { action: 'stop', path: path.join(prof, `${o.target}-${r.name}-${Date.now()}.${PROFILE_EXT()}`) })),
        );
      const sample = {
        stats: await statsAll(),
        infra: { nginx: sampleCpu(infra.nginx), redis: sampleCpu(infra.redis), postgres: sampleCpu(infra.postgres) },
      };
      if (prof && at === 0)
        await Promise.all(replicas.map((r) => r.server.request('profile', { action: 'start', intervalUs: Number(process.env.BENCH_CPU_PROF_US ?? 500) })));
      return sample;
    });
    const afterPlay = await gcAll();
    const load = loadFigures(o, m, setupMs);
    const [s0, s1] = [m.start.stats, m.end.stats];
    const used = (s: ChildStats) => s.memory.heapUsed + s.memory.external;
    const perProcess: ProcessFigures[] = replicas.map((r, i) => {
      const rooms = placed[i].rooms;
      const perRoom = (a: number, b: number) => (rooms > 0 ? round((b - a) / rooms / 1024, 1) : Number.NaN);
      const cpuMs = (s1[i].cpu.user + s1[i].cpu.system - s0[i].cpu.user - s0[i].cpu.system) / 1000;
      return {
        name: r.name,
        rooms,
        clients: placed[i].ccu,
        cpuPercentOfOneCore: round((cpuMs / (s1[i].time - s0[i].time)) * 100, 1),
        eventLoopDelayMs: { p50: round(s1[i].eventLoop.p50), p99: round(s1[i].eventLoop.p99), max: round(s1[i].eventLoop.max) },
        gc: { count: s1[i].gc.count, totalMs: round(s1[i].gc.totalMs, 1), maxPauseMs: round(s1[i].gc.maxMs, 1) },
        heapPerRoomKB: { afterSetup: perRoom(used(base[i]), used(afterSetup[i])), afterPlay: perRoom(used(base[i]), used(afterPlay[i])) },
        rssPerRoomKB: { afterSetup: perRoom(base[i].memory.rss, afterSetup[i].memory.rss), afterPlay: perRoom(base[i].memory.rss, afterPlay[i].memory.rss) },
        rssMB: { base: round(base[i].memory.rss / 2 ** 20, 1), end: round(afterPlay[i].memory.rss / 2 ** 20, 1) },
        own: {
          turnToPatch: histogramWindow(s0[i].histograms?.[TURN_TO_PATCH], s1[i].histograms?.[TURN_TO_PATCH]),
          storeAppend: histogramWindow(s0[i].histograms?.[STORE_APPEND], s1[i].histograms?.[STORE_APPEND]),
        },
      };
    });
    const infraCpu = (kind: keyof typeof infra) => cpuPercent(m.start.infra[kind], m.end.infra[kind], m.wallMs);

    const logBefore = nginx.errorLog().length;
    const takeover = o.kill ? await killAndTakeOver(o, replicas, workers, redis.port, log) : null;
    // What nginx logged during the takeover, by kind (the timestamps, ids and request lines left out).
    if (takeover) (takeover as { nginxErrors: Record<string, number> }).nginxErrors = tally(nginxErrorKinds(nginx.errorLog().slice(logBefore)));
    const refused = [...load.refused];
    if (takeover && takeover.failures.length > 0) refused.push(`takeover: ${takeover.failures.length} failures (first: ${takeover.failures[0]})`);
    if (takeover && takeover.eventsLost !== 0) refused.push(`takeover: ${takeover.eventsLost} accepted events lost`);

    await askAll(workers, { type: 'close' }, 'closed');
    return {
      target: o.target,
      floorLog: o.target === 'baseline' ? o.floorLog : '',
      processes: o.processes,
      rooms: o.rooms,
      ...load,
      perProcess,
      serverCpuPercentTotal: round(
        perProcess.reduce((n, p) => n + p.cpuPercentOfOneCore, 0),
        1,
      ),
      infraCpuPercentOfOneCore: { nginx: infraCpu('nginx'), redis: infraCpu('redis'), postgres: infraCpu('postgres') },
      takeover,
      refused,
    };
  } catch (e) {
    for (const r of replicas) if (r.output.trim()) console.error(`--- ${r.name} output (last lines):\n${lastLines(r.output, 30)}`);
    if (nginx?.errorLog().trim()) console.error(`--- nginx error log (last lines):\n${lastLines(nginx.errorLog(), 30)}`);
    throw e;
  } finally {
    process.off('SIGINT', interrupted);
    await Promise.all(workers.map((w) => w.terminate()));
    for (const step of cleanup.reverse()) await step().catch((e: Error) => console.error(`[cluster] cleanup: ${e.message}`));
  }
}

/**
 * The rooms are stopped; the first process is killed with -9; every one of its games must become
 * playable again through nginx: the seat to move is reclaimed with its key and a turn accepted.
 */
async function killAndTakeOver(
  o: Options,
  replicas: Replica[],
  workers: GenWorker[],
  redisPort: number,
  log: (line: string) => void,
): Promise<TakeoverFigures> {
  // The rooms stopped once their turns in flight were answered (persist, apply, publish: a patch
  // seen is a move logged).
  const victim = replicas[0];
  const listed = listings(redisPort);
  const codes = (await Promise.all(workers.map((w) => w.ask<{ codes: string[] }>({ type: 'codes' }, 'codes')))).map((c) =>
    c.codes.filter((code) => listed.get(code) === victim.publicAddress),
  );
  const games = codes.reduce((n, c) => n + c.length, 0);
  // BENCH_CPU_PROF=DIR: a CPU profile of each survivor over the takeover (summarise it with tests/bench/profileSummary.ts).
  const prof = process.env.BENCH_CPU_PROF;
  const survivors = replicas.slice(1);
  if (prof) await Promise.all(survivors.map((r) => r.server.request('profile', { action: 'start', intervalUs: Number(process.env.BENCH_CPU_PROF_US ?? 500) })));
  const killedAt = now();
  log(`[cluster] kill -9 ${victim.name} (pid ${victim.server.pid}) at ${new Date(killedAt).toISOString()}, hosting ${games} of the generator's games`);
  victim.dead = true;
  await victim.server.signal('SIGKILL');
  const deadline = Date.now() + o.killTimeout * 1000;
  const reports = await Promise.all(workers.map((w, i) => w.ask<TakeoverReport>({ type: 'takeover', codes: codes[i], deadline }, 'takenOver')));
  if (prof) {
    await Promise.all(
      survivors.map((r) => r.server.request('profile', { action: 'stop', path: path.join(prof, `takeover-${r.name}-${Date.now()}.${PROFILE_EXT()}`) })),
    );
  }
  const results: TakeoverResult[] = reports.flatMap((r) => r.results);
  const back = results.filter((r) => r.acceptedAt !== null);
  const ms = back.map((r) => (r.acceptedAt as number) - killedAt).sort((a, b) => a - b);
  const reclaimMs = results
    .filter((r) => r.reclaimedAt !== null)
    .map((r) => (r.reclaimedAt as number) - killedAt)
    .sort((a, b) => a - b);
  let eventsLost = 0;
  const failures: string[] = [];
  for (const r of results) {
    if (r.error) failures.push(`${r.code}: ${r.error}`);
    // Accepted: the log holds the moves seen before the kill plus the new one.
    const expected = r.acceptedAt !== null ? r.movesBefore + 1 : r.movesBefore;
    if (r.movesAfter !== null) eventsLost += Math.max(0, expected - r.movesAfter);
    else if (!r.error) failures.push(`${r.code}: the log's move count is unknown`);
  }
  if (results.length !== games) failures.push(`${games - results.length} orphaned games not found in the generator`);
  return {
    killed: victim.name,
    games,
    playableAgain: back.length,
    ms: { p50: round(percentile(ms, 50), 0), max: round(ms[ms.length - 1] ?? Number.NaN, 0) },
    reclaimMs: { p50: round(percentile(reclaimMs, 50), 0), max: round(reclaimMs[reclaimMs.length - 1] ?? Number.NaN, 0) },
    eventsLost,
    retries: results.reduce((n, r) => n + r.retries, 0),
    retryReasons: tally(results.flatMap((r) => r.retryErrors)),
    failures,
  };
}

/** The kinds of an nginx error log's lines: the message, without time, ids, client and request. */
function nginxErrorKinds(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.replace(/^\S+ \S+ (\[\w+\]) \d+#\d+: (\*\d+ )?/, '$1 ').replace(/, client: .*$/, ''));
}

/** The most frequent strings first, with their counts (at most 8). */
function tally(items: readonly string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, 8));
}

function describe(r: ClusterResult): string[] {
  const g = r.generator;
  const lines = [
    `cluster${r.target === 'baseline' ? ` (the floor: the bare room, ${FLOOR_LOGS[r.floorLog]})` : ''}: ${r.processes} processes behind nginx (Redis, PostgreSQL); ${r.rooms} rooms × ${r.clientsPerRoom} clients (${r.decodingRooms} decoding); ${r.turns} turns in ${r.measuredSeconds} s (${r.turnsPerSecond}/s), set up in ${r.setupSeconds} s`,
    `  turn → patch at every client: p50 ${r.latencyMs.p50} ms, p90 ${r.latencyMs.p90} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms`,
  ];
  for (const p of r.perProcess) {
    lines.push(
      `  ${p.name}: ${p.rooms} rooms, ${p.clients} clients; CPU ${p.cpuPercentOfOneCore}% of one core; event loop p50 ${p.eventLoopDelayMs.p50} / p99 ${p.eventLoopDelayMs.p99} / max ${p.eventLoopDelayMs.max} ms; GC ${p.gc.count} × (${p.gc.totalMs} ms, longest ${p.gc.maxPauseMs} ms); ` +
        `per room: heap ${p.heapPerRoomKB.afterSetup} KB after setup, ${p.heapPerRoomKB.afterPlay} KB after play, RSS ${p.rssPerRoomKB.afterSetup} / ${p.rssPerRoomKB.afterPlay} KB (${p.rssMB.base} → ${p.rssMB.end} MB)`,
    );
    const own = [describeWindow('turn → patch', p.own.turnToPatch), describeWindow('store append', p.own.storeAppend)].filter((f) => f !== null);
    if (own.length > 0) lines.push(`    its own /metrics: ${own.join('; ')}`);
  }
  lines.push(
    `  servers together: CPU ${r.serverCpuPercentTotal}% of one core; nginx ${r.infraCpuPercentOfOneCore.nginx}%, redis ${r.infraCpuPercentOfOneCore.redis}%, PostgreSQL backends ${r.infraCpuPercentOfOneCore.postgres}%`,
    `  generator: CPU ${g.cpuPercentOfOneCore}% of one core; main loop p50 ${g.mainEventLoopDelayMs.p50} / p99 ${g.mainEventLoopDelayMs.p99} ms; ${g.workers
      .map((w, i) => `worker ${i}: loop p50 ${w.eventLoopDelayMs.p50} / p99 ${w.eventLoopDelayMs.p99} ms, busy ${(w.utilisation * 100).toFixed(1)}%`)
      .join('; ')}`,
    `  checks of decoded states: ${r.checks.ok} ok, ${r.checks.failed} failed; rejected turns ${JSON.stringify(r.rejected)}; games finished ${r.gamesFinished}`,
  );
  const t = r.takeover;
  if (t) {
    lines.push(
      `  takeover after kill -9 of ${t.killed}: ${t.playableAgain} of ${t.games} games playable again through nginx; kill → seat reclaimed p50 ${t.reclaimMs.p50} ms, max ${t.reclaimMs.max} ms; kill → turn accepted p50 ${t.ms.p50} ms, max ${t.ms.max} ms; events lost ${t.eventsLost}; reclaim retries ${t.retries}`,
      `  why reclaims were retried: ${JSON.stringify(t.retryReasons)}`,
      `  nginx's error log during the takeover: ${JSON.stringify(t.nginxErrors ?? {})}`,
    );
    for (const f of t.failures.slice(0, 10)) lines.push(`    failure: ${f}`);
  }
  for (const why of r.refused) lines.push(`  REFUSED: ${why}`);
  return lines;
}

/** What `--baseline` reports of one target: medians over its runs that were not refused. */
interface TargetSummary {
  readonly runs: number;
  readonly latencyMs: { p50: number; p90: number; p99: number };
  readonly serverCpuPercentTotal: number;
  readonly nginxCpuPercent: number;
  readonly generatorCpuPercent: number;
  readonly longestGcPauseMs: number;
}

function summarize(results: readonly ClusterResult[]): TargetSummary {
  const ok = results.filter((r) => r.refused.length === 0);
  const m = (f: (r: ClusterResult) => number) => round(median(ok.map(f)), 1);
  return {
    runs: ok.length,
    latencyMs: { p50: m((r) => r.latencyMs.p50), p90: m((r) => r.latencyMs.p90), p99: m((r) => r.latencyMs.p99) },
    serverCpuPercentTotal: m((r) => r.serverCpuPercentTotal),
    nginxCpuPercent: m((r) => r.infraCpuPercentOfOneCore.nginx),
    generatorCpuPercent: m((r) => r.generator.cpuPercentOfOneCore),
    longestGcPauseMs: m((r) => Math.max(...r.perProcess.map((p) => p.gc.maxPauseMs))),
  };
}

/**
 * `--baseline`: the floor (the bare room in the same deployment) and the Djambi server, one run
 * each in turn, `--pairs` times, then the medians and the ratios: every figure with its floor.
 */
async function pairs(o: Options, log: (line: string) => void): Promise<void> {
  const runs: ClusterResult[] = [];
  for (let p = 0; p < o.pairs; p++) {
    // Alternate which goes first, so that neither always follows the other's leftovers.
    const order: Target[] = p % 2 === 0 ? ['baseline', 'djambi'] : ['djambi', 'baseline'];
    for (const target of order) {
      const r = await run({ ...o, target }, log);
      for (const line of describe(r)) log(line);
      runs.push(r);
    }
  }
  const djambi = summarize(runs.filter((r) => r.target === 'djambi'));
  const floor = summarize(runs.filter((r) => r.target === 'baseline'));
  const ratio = (a: number, b: number) => round(a / b, 2);
  const ratios = {
    p50: ratio(djambi.latencyMs.p50, floor.latencyMs.p50),
    p99: ratio(djambi.latencyMs.p99, floor.latencyMs.p99),
    serverCpu: ratio(djambi.serverCpuPercentTotal, floor.serverCpuPercentTotal),
  };
  const show = (name: string, t: TargetSummary) =>
    `  ${name} (${t.runs} runs): p50 ${t.latencyMs.p50} / p90 ${t.latencyMs.p90} / p99 ${t.latencyMs.p99} ms; servers ${t.serverCpuPercentTotal}% of one core, nginx ${t.nginxCpuPercent}%, generator ${t.generatorCpuPercent}%; longest GC pause ${t.longestGcPauseMs} ms`;
  log(`\nmedians of the runs not refused:`);
  log(show('Djambi', djambi));
  log(show(`floor (bare room, ${FLOOR_LOGS[o.floorLog]})`, floor));
  log(`  Djambi / floor: p50 ${ratios.p50}×, p99 ${ratios.p99}×, servers' CPU ${ratios.serverCpu}×`);
  if (o.json) console.log(JSON.stringify({ options: o, runs, summary: { djambi, baseline: floor, ratios } }, null, 2));
  const refused = runs.filter((r) => r.refused.length > 0).length;
  if (refused > 0) console.error(`\n${refused} of ${runs.length} runs were refused and left out of the medians`);
  process.exit(djambi.runs > 0 && floor.runs > 0 ? 0 : 2);
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const log = (line: string) => {
    if (!o.json) console.log(line);
    else console.error(line);
  };
  const lacking = await missing();
  if (lacking.length > 0) {
    console.error(`bench:cluster cannot run here: missing ${lacking.join('; ')}`);
    process.exit(1);
  }
  if (o.baseline) return pairs(o, log);
  const r = await run(o, log);
  for (const line of describe(r)) log(line);
  if (o.json) console.log(JSON.stringify({ options: o, result: r }, null, 2));
  if (r.refused.length > 0) {
    console.error(`\nNOT REPORTED: the figures of this run cannot be trusted:\n  ${r.refused.join('\n  ')}`);
    process.exit(2);
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
