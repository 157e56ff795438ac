/**
 * The room's own cost per turn, without the network: N rooms of the real server (or of the bare
 * baseline room, tests/bench/baseline/room.ts) in one process, each with 4 players and 2
 * spectators whose sockets are in-memory stand-ins (Colyseus's own `WebSocketClient` on an object
 * that counts the frames handed to it), playing seeded random legal turns round robin, as fast as
 * the rooms take them or at `--rate` turns per second in all (bench:server's pace is 1,000: the
 * rooms' timers and the idle loop then weigh per turn as they do there). Every turn goes the whole way through Colyseus (the frame decoded, the
 * room's handler, the patch encoded and handed to each client's socket), minus the kernel, `ws`'s
 * framing and the load generator's network, which are the same for both rooms; so the figures
 * are the rooms' alone, repeatable to a few per cent on a noisy machine where bench:server's
 * vary by ±30 %.
 *
 * Each target runs in its own process (started with `--expose-gc`), alternating `--pairs` times;
 * after every room has played 10 turns (`--from-move N`: N turns), `--passes` passes of `--turns` turns each are measured:
 * the process's CPU per turn (GC helper threads included), the main thread's and the other
 * threads' (Linux's /proc, 10 ms ticks), the time inside the room per turn (from the frame handed
 * to Colyseus to its return, GC pauses that fall inside included), the generator's own (its copy
 * of the game: `randomTurn` and `playTurn`, the same for both targets), GC pauses by kind, frames
 * per turn, new games (a finished game's room is closed and a new one opened and joined, for
 * either target), and the heap per room after a full collection. Medians over the passes, then
 * over the runs.
 *
 *   npm run bench:room [-- --rooms 1000 --turns 30000 --passes 5 --pairs 2 --target both --rate 1000 --json]
 *
 * `--against DIR` adds a third target: the Djambi room of another build of the server, a copy of
 * an earlier `server/dist` kept inside the repository (such as `server/dist-before`, ignored by
 * git), alternated with the others; it prints this build's figures over that one's.
 *
 * Loads the built server (`server/dist`), as bench:server does; the script builds it first.
 * `--alloc-prof FILE` writes V8's allocation sampling profile of the passes to
 * FILE.TARGET.heapprofile (every allocation; with ALLOC_MINOR=0, only what survived a scavenge;
 * with ALLOC_MAJOR=0 as well, only what is still alive at the end: with `--turns` equal to
 * `--rooms` and one pass, each room plays one turn, so that is what a turn leaves alive);
 * profile the CPU with `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"`.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import { matchMaker, Protocol } from '@colyseus/core';
import { unpack } from '@colyseus/msgpackr';
import { WebSocketClient } from '@colyseus/ws-transport';
import { initialPosition, parseRules, playTurn, type Position, randomTurn } from '../../shared/src/index.js';
import { seeded } from '../support/random.js';
import { BaselineRoom } from './baseline/room.js';
import { roomData } from './loadgen/protocol.js';

/** `against`: the Djambi room of another build of the server (`--against DIR`), to compare two builds in one session. */
type Target = 'djambi' | 'baseline' | 'against';

interface Options {
  target: Target | 'both';
  rooms: number;
  turns: number;
  passes: number;
  pairs: number;
  json: boolean;
  allocProf: string | null;
  /** Another build of the server (a directory inside the repository, such as `server/dist-before`), measured as target `against`. */
  against: string | null;
  /** Turns per second in all (0: as fast as the rooms take them); at a real server's rate the rooms' timers weigh as they do there. */
  rate: number;
  /** Turns every room plays before the passes (and before the heap is measured): how far into their games the passes see them. */
  fromMove: number;
  /** Write a V8 heap snapshot after the warm-up turns to FILE.TARGET.heapsnapshot (for `tests/bench/heapSummary.ts`). */
  heapSnapshot: string | null;
  /** Internal: this process measures one target and prints its JSON. */
  child: boolean;
}

const USAGE =
  'usage: roomCost.ts [--target djambi|baseline|both] [--against DIR] [--rooms N] [--turns N] [--passes N] [--pairs N] [--rate TURNS_PER_S] [--from-move N] [--alloc-prof FILE] [--heap-snapshot FILE] [--json]';

function parseArgs(argv: readonly string[]): Options {
  const o: Options = {
    target: 'both',
    rooms: 1000,
    turns: 30_000,
    passes: 5,
    pairs: 2,
    json: false,
    allocProf: null,
    against: null,
    rate: 0,
    fromMove: 10,
    heapSnapshot: null,
    child: false,
  };
  const count = (v: string | undefined, name: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a positive integer\n${USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if (a === '--json') o.json = true;
    else if (a === '--child') o.child = true;
    else if (a === '--target') {
      if (v !== 'djambi' && v !== 'baseline' && v !== 'against' && v !== 'both')
        throw new Error(`--target takes djambi, baseline or both (against: with --against)\n${USAGE}`);
      o.target = v;
      i++;
    } else if (a === '--rooms') o.rooms = count(argv[++i], a);
    else if (a === '--turns') o.turns = count(argv[++i], a);
    else if (a === '--passes') o.passes = count(argv[++i], a);
    else if (a === '--pairs') o.pairs = count(argv[++i], a);
    else if (a === '--rate') o.rate = count(argv[++i], a);
    else if (a === '--from-move') o.fromMove = count(argv[++i], a);
    else if (a === '--heap-snapshot' && v) {
      o.heapSnapshot = v;
      i++;
    } else if (a === '--against' && v) {
      o.against = v;
      i++;
    } else if (a === '--alloc-prof' && v) {
      o.allocProf = v;
      i++;
    } else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  return o;
}

// ---- the measuring process -----------------------------------------------------------------

const SEAT_ORDER = ['R', 'B', 'Y', 'G'] as const;
const RULES = (() => {
  const r = parseRules({ players: 4 });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();
/** Every frame the rooms handed to a socket, and the patches among them. */
let framesSent = 0;
let patchesSent = 0;
/** Bytes of the patches handed to the sockets. */
let patchBytes = 0;
/** The types of the messages (ROOM_DATA) the rooms sent, with their counts. */
const messageTypes: Record<string, number> = {};

/** A ROOM_DATA frame's type (a fixstr) and payload. */
function readData(data: Uint8Array): { type: string; payload: unknown } | null {
  const b = data[1];
  if ((b & 0xe0) !== 0xa0) return null;
  const len = b & 0x1f;
  const type = Buffer.from(data.buffer, data.byteOffset + 2, len).toString('utf8');
  return { type, payload: data.length > 2 + len ? unpack(data.subarray(2 + len)) : undefined };
}

/**
 * What `ws` is to Colyseus's WebSocketClient: an emitter with `readyState` and `send`; and what it
 * is to the Djambi server's patch sender (`patchSender`, server/src/rooms/internals.ts), which
 * writes a whole frame to the socket under `ws`'s sender: `_sender._socket.write` hands the
 * frame's payload to `send`, so that both rooms' frames are counted the same way.
 */
class MemorySocket extends EventEmitter {
  readyState = 1;
  readonly _extensions = {};
  readonly _sender = {
    _state: 0,
    _firstFragment: true,
    _socket: {
      write: (frame: Buffer): boolean => {
        const len = frame[1] & 0x7f;
        this.send(frame.subarray(len <= 125 ? 2 : len === 126 ? 4 : 10));
        return true;
      },
    },
  };
  patches = 0;
  onData: (type: string, payload: unknown) => void = () => undefined;
  send(data: Uint8Array, _options?: unknown, cb?: (err?: Error) => void): void {
    framesSent++;
    if (data[0] === Protocol.ROOM_STATE_PATCH) {
      this.patches++;
      patchesSent++;
      patchBytes += data.length;
    } else if (data[0] === Protocol.ROOM_DATA) {
      const d = readData(data);
      if (d) {
        messageTypes[d.type] = (messageTypes[d.type] ?? 0) + 1;
        this.onData(d.type, d.payload);
      }
    } else if (data[0] === Protocol.ERROR) throw new Error('the room refused the connection');
    cb?.();
  }
  ping(): void {}
  terminate(): void {
    this.close();
  }
  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.emit('close', 1000);
  }
}

/** The matchmaker's view of a client that came through HTTP. */
const AUTH = { token: undefined, headers: {}, ip: '127.0.0.1' } as never;

/** One connection through the matchmaker: reservation, join, acknowledgement (then the full state). */
async function connect(method: 'create' | 'joinById', target: string, options: Record<string, unknown>): Promise<{ socket: MemorySocket; roomId: string }> {
  const r = method === 'create' ? await matchMaker.create(target, options, AUTH) : await matchMaker.joinById(target, options, AUTH);
  const room = matchMaker.getLocalRoomById(r.room.roomId) as unknown as { _onJoin(client: unknown, auth: unknown): Promise<void> } | undefined;
  if (!room) throw new Error(`room ${r.room.roomId} is not in this process`);
  const socket = new MemorySocket();
  socket.onData = (type, payload) => {
    if (type === 'rejected') throw new Error(`refused: ${JSON.stringify(payload)}`);
  };
  await room._onJoin(new WebSocketClient(r.sessionId, socket as never), AUTH);
  socket.emit('message', Buffer.from([Protocol.JOIN_ROOM]));
  return { socket, roomId: r.room.roomId };
}

/** One room, its six connections, and the generator's copy of its game. */
class BenchRoom {
  private pos: Position = initialPosition(RULES);
  private version = 0;

  private constructor(
    private readonly target: Target,
    private readonly sockets: readonly MemorySocket[],
  ) {}

  static async open(target: Target): Promise<BenchRoom> {
    const first = await connect('create', target === 'baseline' ? 'baseline' : 'djambi', { rules: { players: 4 }, colour: 'R', name: 'bot0' });
    const sockets = [first.socket];
    for (let i = 1; i < 4; i++) sockets.push((await connect('joinById', first.roomId, { colour: SEAT_ORDER[i], name: `bot${i}` })).socket);
    for (let i = 0; i < 2; i++) sockets.push((await connect('joinById', first.roomId, { spectate: true })).socket);
    first.socket.emit('message', roomData('start'));
    return new BenchRoom(target, sockets);
  }

  /** The generator's next turn (its time is the generator's, not the room's). */
  next(random: () => number): { after: Position; frame: Buffer; mover: MemorySocket } {
    const turn = randomTurn(this.pos, random);
    const out = playTurn(this.pos, turn);
    if (!out.ok) throw new Error(`the engine refused its own random turn: ${out.error.message}`);
    // The Djambi room's mover is the engine's; the baseline room takes turns in seat order.
    const mover = this.target !== 'baseline' ? SEAT_ORDER.indexOf(this.pos.toMove as (typeof SEAT_ORDER)[number]) : this.version % 4;
    return { after: out.value.position, frame: roomData('turn', { ...turn, version: this.version }), mover: this.sockets[mover] };
  }

  /** Patches the room's last client has received. */
  patches(): number {
    return this.sockets[this.sockets.length - 1].patches;
  }

  /** The turn was played (one more patch): false once the game is over (the caller replaces the room). */
  played(after: Position, patchesBefore: number): boolean {
    // A refusal throws (the sockets' `onData`); an accepted turn sends exactly one patch.
    if (this.patches() !== patchesBefore + 1) throw new Error(`turn ${this.version} of a ${this.target} room sent ${this.patches() - patchesBefore} patches`);
    this.version++;
    this.pos = after;
    return after.result === null;
  }

  close(): void {
    for (const s of this.sockets) s.close();
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const GC_KINDS: Readonly<Record<number, string>> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
const TICK_US = 10_000;

/** CPU clock ticks of this process's main thread and of all its other threads (Linux's /proc). */
function threadTicks(): { main: number; other: number } {
  let main = 0;
  let other = 0;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return { main: Number.NaN, other: Number.NaN }; // not Linux
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    if (Number(tid) === process.pid) main += ticks;
    else other += ticks;
  }
  return { main, other };
}

/** One measured pass. */
interface Pass {
  /** The process's CPU (user + system, every thread). */
  cpuUsPerTurn: number;
  mainThreadUsPerTurn: number;
  otherThreadsUsPerTurn: number;
  /** Wall time inside the room: from the frame handed to Colyseus to its return (GC pauses inside included). */
  roomUsPerTurn: number;
  /** Wall time of the generator's own engine calls (the same work for both targets). */
  generatorUsPerTurn: number;
  /** Main-thread GC pauses, ms per 1,000 turns, in all and by kind. */
  gcMsPerKTurns: number;
  gcMsPerKTurnsByKind: Record<string, number>;
  gcPauses: number;
  /** Frames handed to the clients' sockets per turn, and the patches among them. */
  framesPerTurn: number;
  patchesPerTurn: number;
  /** Mean size of a patch frame, bytes. */
  bytesPerPatch: number;
  /** Messages (not patches) the rooms sent in the pass, by type. */
  messages: Record<string, number>;
  /** Games finished in the pass (each: its room closed, a new one created, joined and started). */
  newGames: number;
  /** CPU µs of one new game (part of cpuUsPerTurn). */
  usPerNewGame: number;
}

/** What one measuring process reports. */
export interface TargetResult {
  readonly target: Target;
  readonly rooms: number;
  readonly turns: number;
  /** CPU to open each of the first `rooms` rooms (create, four players and two spectators join, start), µs. */
  readonly openUsPerRoom: number;
  /** Heap per room after every room played `--from-move` turns (10 by default), after a full collection (KB). */
  readonly heapPerRoomKB: number;
  /** Turns each room played before the passes, and the games that ended meanwhile (each replaced by a new one, at move 0). */
  readonly fromMove: number;
  readonly warmupNewGames: number;
  readonly passes: readonly Pass[];
}

const post = (session: Session, method: string, params: object = {}) =>
  new Promise<unknown>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));

const yieldLoop = () => new Promise((resolve) => setImmediate(resolve));

async function measure(target: Target, o: Options): Promise<TargetResult> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const random = seeded(1);
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const rooms: BenchRoom[] = [];
  const open0 = process.cpuUsage();
  for (let i = 0; i < o.rooms; i++) rooms.push(await BenchRoom.open(target));
  const opened = process.cpuUsage(open0);
  const openUsPerRoom = (opened.user + opened.system) / o.rooms;

  let roomMs = 0;
  let generatorMs = 0;
  let newGames = 0;
  let newGameUs = 0;
  const step = async (turns: number, rate: number) => {
    const start = performance.now();
    for (let t = 0; t < turns; t++) {
      const i = t % rooms.length;
      const room = rooms[i];
      const g0 = performance.now();
      const { after, frame, mover } = room.next(random);
      const patches = room.patches();
      const r0 = performance.now();
      mover.emit('message', frame);
      // The room answers after its journal's promise (every store): wait for it, on both sides alike.
      await yieldLoop();
      const r1 = performance.now();
      generatorMs += r0 - g0;
      roomMs += r1 - r0;
      if (!room.played(after, patches)) {
        const c0 = process.cpuUsage();
        room.close();
        rooms[i] = await BenchRoom.open(target);
        const c = process.cpuUsage(c0);
        newGameUs += c.user + c.system;
        newGames++;
      }
      // Timers (the rooms' heartbeats, the transport's) run between batches, as on a server.
      if (t % 50 === 49) {
        const due = rate > 0 ? start + ((t + 1) * 1000) / rate : 0;
        const wait = due - performance.now();
        await (wait > 1 ? new Promise((resolve) => setTimeout(resolve, wait)) : yieldLoop());
      }
    }
  };
  await step(o.rooms * o.fromMove, 0);
  const warmupNewGames = newGames;
  gc?.();
  const heapPerRoomKB = (process.memoryUsage().heapUsed - heap0) / o.rooms / 1024;
  if (o.heapSnapshot) writeHeapSnapshot(`${o.heapSnapshot}.${target}.heapsnapshot`);

  let gcMs = 0;
  let gcPauses = 0;
  let gcByKind: Record<string, number> = {};
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMs += e.duration;
      gcPauses++;
      const kind = GC_KINDS[(e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
      gcByKind[kind] = (gcByKind[kind] ?? 0) + e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const session = o.allocProf ? new Session() : null;
  if (session) {
    session.connect();
    const minor = process.env.ALLOC_MINOR !== '0';
    await post(session, 'HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: process.env.ALLOC_MAJOR !== '0',
      includeObjectsCollectedByMinorGC: minor,
    });
  }

  const passes: Pass[] = [];
  const perK = (ms: number) => Math.round((ms * 1e4) / o.turns) / 10;
  for (let p = 0; p < o.passes; p++) {
    gcMs = 0;
    gcPauses = 0;
    gcByKind = {};
    roomMs = 0;
    generatorMs = 0;
    newGames = 0;
    newGameUs = 0;
    const frames0 = framesSent;
    const patches0 = patchesSent;
    const patchBytes0 = patchBytes;
    const messages0 = { ...messageTypes };
    const threads0 = threadTicks();
    const cpu0 = process.cpuUsage();
    await step(o.turns, o.rate);
    const cpu = process.cpuUsage(cpu0);
    const threads = threadTicks();
    passes.push({
      cpuUsPerTurn: (cpu.user + cpu.system) / o.turns,
      mainThreadUsPerTurn: ((threads.main - threads0.main) * TICK_US) / o.turns,
      otherThreadsUsPerTurn: ((threads.other - threads0.other) * TICK_US) / o.turns,
      roomUsPerTurn: (roomMs * 1000) / o.turns,
      generatorUsPerTurn: (generatorMs * 1000) / o.turns,
      gcMsPerKTurns: perK(gcMs),
      gcMsPerKTurnsByKind: Object.fromEntries(Object.entries(gcByKind).map(([k, v]) => [k, perK(v)])),
      gcPauses,
      framesPerTurn: (framesSent - frames0) / o.turns,
      patchesPerTurn: (patchesSent - patches0) / o.turns,
      bytesPerPatch: (patchBytes - patchBytes0) / Math.max(1, patchesSent - patches0),
      messages: Object.fromEntries(
        Object.entries(messageTypes)
          .map(([k, n]) => [k, n - (messages0[k] ?? 0)])
          .filter(([, n]) => n !== 0),
      ),
      newGames,
      usPerNewGame: newGames > 0 ? newGameUs / newGames : 0,
    });
  }
  observer.disconnect();
  if (session && o.allocProf) {
    const { profile } = (await post(session, 'HeapProfiler.stopSampling')) as { profile: unknown };
    writeFileSync(`${o.allocProf}.${target}.heapprofile`, JSON.stringify(profile));
    session.disconnect();
  }
  for (const r of rooms) r.close();
  return { target, rooms: o.rooms, turns: o.turns, openUsPerRoom, heapPerRoomKB, fromMove: o.fromMove, warmupNewGames, passes };
}

/** `--against DIR` as a path from the repository's root: a directory inside it (its packages must resolve from there) holding a built `app.js`. */
function builtDir(dir: string | null): string {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const full = path.resolve(dir ?? '');
  const rel = path.relative(root, full);
  if (!dir || rel.startsWith('..') || path.isAbsolute(rel) || !existsSync(path.join(full, 'app.js')))
    throw new Error(`--against takes a directory inside the repository holding a build of the server (app.js), such as server/dist-before\n${USAGE}`);
  return rel.split(path.sep).join('/');
}

async function child(o: Options): Promise<void> {
  if (o.target === 'both') throw new Error('a child measures one target');
  // The built server, as production runs it (a template keeps tsc from typing it as `dist`'s
  // declarations), or for `against` the other build named by `--against`.
  const built = o.target === 'against' ? builtDir(o.against) : 'server/dist';
  const { createServer } = (await import(`../../${built}/app.js`)) as typeof import('../../server/src/app.js');
  // No message budget: a room here takes a turn every few hundred microseconds.
  const unlimited = { burst: 1e9, perSecond: 1e9, strikes: 1e9, strikesPerSecond: 1e9 };
  const server = await createServer({
    port: 0,
    host: '127.0.0.1',
    clientDir: '/nonexistent',
    graceSeconds: 5,
    restoreOnBoot: false,
    rooms: { budget: unlimited },
  });
  matchMaker.defineRoomType('baseline', BaselineRoom);
  const result = await measure(o.target, o);
  console.log(JSON.stringify(result));
  await server.close();
}

// ---- the parent --------------------------------------------------------------------------------

/** The median of one field over the passes. */
const passMedian = (r: TargetResult, f: (p: Pass) => number) => median(r.passes.map(f));

function describe(r: TargetResult): string {
  const f = (g: (p: Pass) => number, digits = 1) => passMedian(r, g).toFixed(digits);
  const mid = r.passes[Math.floor(r.passes.length / 2)];
  const games = r.passes.reduce((n, p) => n + p.newGames, 0);
  const gameUs = games > 0 ? r.passes.reduce((n, p) => n + p.newGames * p.usPerNewGame, 0) / games : 0;
  return [
    `${r.target}: ${r.rooms} rooms, ${r.turns} turns × ${r.passes.length} passes: CPU ${f((p) => p.cpuUsPerTurn)} µs/turn (main thread ${f((p) => p.mainThreadUsPerTurn)}, other threads ${f((p) => p.otherThreadsUsPerTurn)}), in the room ${f((p) => p.roomUsPerTurn)} µs, generator ${f((p) => p.generatorUsPerTurn)} µs`,
    `  GC ${f((p) => p.gcMsPerKTurns)} ms per 1,000 turns (${f((p) => p.gcPauses, 0)} pauses; ${JSON.stringify(mid.gcMsPerKTurnsByKind)}), ${f((p) => p.framesPerTurn, 2)} frames per turn (${f((p) => p.patchesPerTurn, 2)} patches of ${f((p) => p.bytesPerPatch, 0)} bytes), ${games} new games (${gameUs.toFixed(0)} µs each), heap ${r.heapPerRoomKB.toFixed(1)} KB per room after ${r.fromMove} turns each (${r.warmupNewGames} games ended meanwhile)`,
    `  opening the ${r.rooms} rooms: ${r.openUsPerRoom.toFixed(0)} µs of CPU each`,
  ].join('\n');
}

function runChild(target: Target, o: Options): TargetResult {
  const script = fileURLToPath(import.meta.url);
  const args = ['--child', '--target', target, '--rooms', String(o.rooms), '--turns', String(o.turns), '--passes', String(o.passes)];
  if (o.against) args.push('--against', o.against);
  if (o.rate > 0) args.push('--rate', String(o.rate));
  if (o.allocProf) args.push('--alloc-prof', o.allocProf);
  if (o.heapSnapshot) args.push('--heap-snapshot', o.heapSnapshot);
  args.push('--from-move', String(o.fromMove));
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const run = spawnSync(process.execPath, ['--expose-gc', ...extra, '--import', 'tsx', script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TSX_TSCONFIG_PATH: fileURLToPath(new URL('./server-tsconfig.json', import.meta.url)) },
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`the ${target} run failed (status ${run.status}):\n${run.stderr.slice(-4000)}`);
  return JSON.parse(line) as TargetResult;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.child) return child(o);
  const log = (line: string) => (o.json ? console.error(line) : console.log(line));
  if (o.against) builtDir(o.against);
  const targets: Target[] = o.target === 'both' ? ['djambi', 'baseline'] : [o.target];
  if (o.against && !targets.includes('against')) targets.splice(1, 0, 'against');
  const order = Array.from({ length: o.pairs }, (_, i) => (i % 2 === 0 ? targets : [...targets].reverse())).flat();
  const results: TargetResult[] = [];
  for (const t of order) {
    const r = runChild(t, o);
    results.push(r);
    log(describe(r));
  }
  const over = (t: Target, f: (p: Pass) => number) => median(results.filter((r) => r.target === t).map((r) => passMedian(r, f)));
  const summary = Object.fromEntries(
    targets.map((t) => [
      t,
      {
        cpuUsPerTurn: over(t, (p) => p.cpuUsPerTurn),
        roomUsPerTurn: over(t, (p) => p.roomUsPerTurn),
        generatorUsPerTurn: over(t, (p) => p.generatorUsPerTurn),
        gcMsPerKTurns: over(t, (p) => p.gcMsPerKTurns),
        heapPerRoomKB: median(results.filter((r) => r.target === t).map((r) => r.heapPerRoomKB)),
        openUsPerRoom: median(results.filter((r) => r.target === t).map((r) => r.openUsPerRoom)),
      },
    ]),
  );
  type Summary = (typeof summary)[string];
  /** The room's own CPU (the process's less the generator's share, GC included) of `a` over `b`'s, and the time in the room. */
  const compare = (a: Summary, b: Summary, digits: number) => ({
    cpuLessGenerator: +((a.cpuUsPerTurn - a.generatorUsPerTurn) / (b.cpuUsPerTurn - b.generatorUsPerTurn)).toFixed(digits),
    inTheRoom: +(a.roomUsPerTurn / b.roomUsPerTurn).toFixed(digits),
  });
  const against = (a: Summary, b: Summary, ratio: { cpuLessGenerator: number; inTheRoom: number }) =>
    `CPU less the generator's ${ratio.cpuLessGenerator}× (${(a.cpuUsPerTurn - a.generatorUsPerTurn).toFixed(1)} against ${(b.cpuUsPerTurn - b.generatorUsPerTurn).toFixed(1)} µs), in the room ${ratio.inTheRoom}× (${a.roomUsPerTurn.toFixed(1)} against ${b.roomUsPerTurn.toFixed(1)} µs)`;
  const { djambi, baseline, against: other } = summary;
  const ratios = djambi && baseline ? { ...compare(djambi, baseline, 2), heapPerRoom: +(djambi.heapPerRoomKB / baseline.heapPerRoomKB).toFixed(2) } : null;
  if (ratios) log(`\nDjambi / baseline (medians of ${o.pairs} runs each): ${against(djambi, baseline, ratios)}, heap per room ${ratios.heapPerRoom}×`);
  const builds = djambi && other ? compare(djambi, other, 3) : null;
  if (builds) log(`\nthis build / ${o.against} (medians of ${o.pairs} runs each): ${against(djambi, other, builds)}`);
  if (o.json) console.log(JSON.stringify({ options: o, summary, ratios, builds, runs: results }, null, 2));
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
