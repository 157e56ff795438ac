/**
 * The rules engine's share of the server's cost per accepted turn: the engine calls the server
 * makes for one `turn` message, timed and weighed on seeded random games (the load generator's
 * `randomTurn`). Per turn the server (`server/src/match/game.ts`, the press and `mirror`) calls
 * `isTurn`, `playTurn`, `makeTurn` on the position before, `mustPass` (and `applyTrusted` with
 * `makeTurn` for each automatic pass), `activePlayers` three times (the press's roster and pacts),
 * `hostileActs` when the mover is bound by a pact, and `makeFen`, `ruler` and `controllerOf` (for
 * each army whose controller changed) for the schema.
 *
 * Prints CPU µs per turn (median of the runs) and bytes allocated per turn (heap and array buffers,
 * measured between forced collections in a young generation large enough that none runs inside a
 * chunk), for the whole turn and call by call.
 *
 *   TSX_TSCONFIG_PATH=tests/bench/server-tsconfig.json node --import tsx tests/bench/turnCost.ts [--games 60] [--runs 7] [--json]
 *
 * measures the engine's sources; without TSX_TSCONFIG_PATH it measures the built one (shared/dist).
 * It restarts itself with `--expose-gc` and a fixed young generation when not given them.
 * Profile with `--cpu-prof` (passed on to the measuring process) and `--repeat N` (N timed
 * passes of the whole turn only).
 */
import { spawnSync } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import {
  activePlayers,
  applyTrusted,
  COLOURS,
  controllerOf,
  type Effect,
  hostileActs,
  initialPosition,
  isTurn,
  makeFen,
  makeTurn,
  mustPass,
  parseRules,
  playTurn,
  type Position,
  randomTurn,
  ruler,
  type Turn,
} from '@djambi/shared';
import { seeded } from '../support/random.js';

/** Young generation (MB per semi-space) of the measuring process: no scavenge inside a chunk. */
const SEMI_SPACE_MB = 64;
/** Turns per allocation chunk: well under the semi-space at a few KB per turn. */
const CHUNK = 1000;
/** Passes over every sample before anything is measured, so the code is optimised. */
const WARM_UP = 3;

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  const flags = ['--expose-gc', `--max-semi-space-size=${SEMI_SPACE_MB}`, `--min-semi-space-size=${SEMI_SPACE_MB}`];
  const child = spawnSync(process.execPath, [...process.execArgv, ...flags, process.argv[1], ...args], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}
const collect: () => void = gc;

const games = option('--games', 60);
const runs = option('--runs', 7);
const repeat = option('--repeat', 0);
const json = args.includes('--json');

/** One turn message as the server receives it, with what the engine made of it. */
interface Sample {
  readonly before: Position;
  readonly turn: Turn;
  /** The position after the turn (before the automatic passes). */
  readonly after: Position;
  readonly effects: readonly Effect[];
}

const PASS: Turn = { pass: true };
const rules = (() => {
  const r = parseRules({ players: 4 });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();

/** Seeded random games, every client turn recorded (the automatic passes are the server's). */
function record(): Sample[] {
  const out: Sample[] = [];
  for (let g = 0; g < games; g++) {
    const random = seeded(9000 + g);
    let pos = initialPosition(rules);
    while (!pos.result) {
      const turn = randomTurn(pos, random);
      const res = playTurn(pos, turn);
      if (!res.ok) throw new Error(`random turn refused: ${res.error.message}`);
      out.push({ before: pos, turn, after: res.value.position, effects: res.value.effects });
      pos = res.value.position;
      while (!pos.result && mustPass(pos)) {
        const pass = applyTrusted(pos, PASS);
        if (!pass.ok) throw new Error(`automatic pass refused: ${pass.error.message}`);
        pos = pass.value.position;
      }
    }
  }
  return out;
}

/** The press's reads per entry: the roster's sync and the pacts' eliminated players. */
function pressReads(before: Position, after: Position): number {
  return activePlayers(after).length + activePlayers(after).length + activePlayers(before).length;
}

/** `mirror`'s reads of a new position: the fen, the ruler, the controllers that changed. */
function mirrorReads(before: Position, after: Position): number {
  let n = makeFen(after).length + (ruler(after) ?? '').length;
  for (let a = 0; a < COLOURS.length; a++) if (after.control[a] !== before.control[a]) n += (controllerOf(after, COLOURS[a]) ?? '').length;
  return n;
}

/** Every engine call of one accepted turn message; `pact`: the mover is bound by a pact. Returns a checksum. */
function serverTurn(s: Sample, pact: boolean): number {
  const before = s.before;
  if (!isTurn(s.turn)) throw new Error('not a turn');
  const res = playTurn(before, s.turn);
  if (!res.ok) throw new Error(res.error.message);
  let n = makeTurn(s.turn, before).length;
  let pos = res.value.position;
  if (pact) n += hostileActs(before, res.value.effects, before.toMove!).size;
  n += pressReads(before, pos);
  while (!pos.result && mustPass(pos)) {
    const pass = applyTrusted(pos, PASS);
    if (!pass.ok) throw new Error(pass.error.message);
    n += makeTurn(PASS, pos).length + pressReads(pos, pass.value.position);
    pos = pass.value.position;
  }
  return n + mirrorReads(before, pos);
}

/** The measured parts: the whole turn, then each call alone on the same samples. */
const PARTS: Record<string, (s: Sample) => number> = {
  turn: (s) => serverTurn(s, false),
  turn_with_pact: (s) => serverTurn(s, true),
  isTurn: (s) => (isTurn(s.turn) ? 1 : 0),
  playTurn: (s) => (playTurn(s.before, s.turn).ok ? 1 : 0),
  makeTurn: (s) => makeTurn(s.turn, s.before).length,
  mustPass: (s) => (mustPass(s.after) ? 1 : 0),
  hostileActs: (s) => hostileActs(s.before, s.effects, s.before.toMove!).size,
  press_reads: (s) => pressReads(s.before, s.after),
  mirror_reads: (s) => mirrorReads(s.before, s.after),
};

let sink = 0;

function pass(samples: readonly Sample[], f: (s: Sample) => number, from = 0, to = samples.length): void {
  for (let i = from; i < to; i++) sink += f(samples[i]);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** CPU µs of this process per sample (user + system: less skewed than wall time on a busy machine), median of `runs` passes. */
function time(samples: readonly Sample[], f: (s: Sample) => number): number {
  const us: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = process.cpuUsage();
    pass(samples, f);
    const used = process.cpuUsage(t);
    us.push((used.user + used.system) / samples.length);
  }
  return median(us);
}

let collections = 0;
const observer = new PerformanceObserver((list) => {
  collections += list.getEntries().length;
});
observer.observe({ entryTypes: ['gc'] });
const settle = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** Bytes allocated per sample (heap, array buffers), chunk by chunk between forced collections. */
async function weigh(samples: readonly Sample[], f: (s: Sample) => number): Promise<{ heap: number; buffers: number }> {
  let heap = 0;
  let buffers = 0;
  for (let from = 0; from < samples.length; from += CHUNK) {
    const to = Math.min(samples.length, from + CHUNK);
    collect();
    await settle();
    const seen = collections;
    const m0 = process.memoryUsage();
    pass(samples, f, from, to);
    const m1 = process.memoryUsage();
    await settle();
    if (collections !== seen) throw new Error('a collection ran inside a chunk: lower CHUNK');
    heap += m1.heapUsed - m0.heapUsed;
    buffers += m1.arrayBuffers - m0.arrayBuffers;
  }
  return { heap: heap / samples.length, buffers: buffers / samples.length };
}

const samples = record();
for (let w = 0; w < WARM_UP; w++) for (const f of Object.values(PARTS)) pass(samples, f);

if (repeat > 0) {
  const t = process.cpuUsage();
  for (let r = 0; r < repeat; r++) pass(samples, PARTS.turn);
  const used = process.cpuUsage(t);
  console.log(`${repeat} passes of ${samples.length} turns: ${((used.user + used.system) / repeat / samples.length).toFixed(2)} CPU µs per turn`);
  process.exit(0);
}

const parts: Record<string, { us: number; heap_bytes: number; buffer_bytes: number }> = {};
for (const [name, f] of Object.entries(PARTS)) {
  const { heap, buffers } = await weigh(samples, f);
  parts[name] = { us: Number(time(samples, f).toFixed(3)), heap_bytes: Math.round(heap), buffer_bytes: Math.round(buffers) };
}
observer.disconnect();

const result = { turns: samples.length, games, runs, node: process.version, parts, checksum: sink };
if (json) console.log(JSON.stringify(result));
else {
  console.log(`${samples.length} turn messages from ${games} seeded random 4-player games; CPU µs median of ${runs} passes`);
  console.log(`${'part'.padEnd(16)}${'µs/turn'.padStart(10)}${'heap B/turn'.padStart(14)}${'buffers B/turn'.padStart(16)}`);
  for (const [name, p] of Object.entries(parts))
    console.log(`${name.padEnd(16)}${p.us.toFixed(3).padStart(10)}${String(p.heap_bytes).padStart(14)}${String(p.buffer_bytes).padStart(16)}`);
}
