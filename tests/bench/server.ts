/**
 * Server benchmark: N concurrent `djambi` rooms, each with 4 scripted players and K spectators
 * playing seeded random legal turns. Measures the time from a turn sent to its patch received by
 * every client of the room (p50/p99), the server's CPU per turn and memory per room, beside the
 * load generator's own CPU and event-loop delay. The server runs in a child process
 * (tests/bench/server-child.ts); the generator (tests/bench/loadgen/) runs lightweight
 * raw-protocol clients in worker threads, plus real colyseus.js clients in one room in
 * `--full-every` that decode the state and check it against what was played.
 *
 * A run whose generator event-loop delay p99 (any worker, or the main thread) exceeds
 * `--max-gen-lag` ms (default 20) is refused: the figures would measure the generator. So is a
 * run where a decoded state differs from what was played. Either exits with status 2.
 *
 * `--baseline` runs the same load against a bare Colyseus 0.16 room of the same shape
 * (tests/bench/baseline/), alternating with the Djambi server `--pairs` times, and prints the
 * ratios (Djambi / baseline) of the medians of p50, p99, CPU per turn and heap per room, over
 * the runs that were not refused (the exit status is 2 all the same when any was). Beside CPU per
 * turn it prints the same ratio with each run's CPU divided by its generator's (`cpuAgainstGenerator`):
 * the generator's work per turn is about the same against either server, so the quotient follows
 * the machine's speed of that minute much less (the generator's own small difference between the
 * two targets, about 4 % in session 21, stays in it).
 *
 * `--with-none` (with `--store sqlite|postgres`) alternates the Djambi server with that store and
 * without any (`none`) `--pairs` times, and prints the store's ratios the same way: the clients'
 * p50 and p99, the server's own turn → patch p50 and CPU per turn, with the append's p50.
 *
 * `--from-move N` (default 20) has every room play N turns back to back after set-up, so that
 * the window sees games that far on: a game that ends on the way is replaced by a new one, and the
 * run says how many reached move N. With the default the window sees moves 23-43 at one turn per
 * room per second, and it sees a server whose compiler is done with the turn's path, as a server
 * that has run for a while is: with `--from-move 0` the Djambi server's optimising compiler (its
 * rules engine's and press's code, compiled and recompiled as rarer positions reach it) still spent
 * 360-400 ms of CPU in a 20 s window at 1,000 rooms, about 20 µs per turn, where the bare room's
 * spent 15 ms (the benchmarks log at 1d9c9ed, "Session 21").
 *
 *   npm run bench:server [-- --rooms 200 --seconds 20 --interval 1000 --warmup 3 --json]
 *   npm run bench:server -- --baseline --pairs 2 --rooms 200 --seconds 20
 *   npm run bench:server -- --store sqlite --with-none --pairs 6 --rooms 200 --seconds 15
 *
 * Diagnostics: `BENCH_CPU_PROF=dir` writes a CPU profile of each server child over the measured
 * window only (V8's sampling profiler through `node:inspector`, every `BENCH_CPU_PROF_US` µs,
 * default 500; `BENCH_CPU_PROF_PHASE=idle`: over the idle window instead; summarise it with tests/bench/profileSummary.ts); with `BENCH_HEAP_PROF=1` as well,
 * the profile is V8's allocation sampler's instead (bytes allocated by each stack over the window,
 * collected or not; `BENCH_HEAP_LIVE=1`: only what is still alive at its end; `BENCH_HEAP_LIVE=scavenge`:
 * only what survived a scavenge), and
 * `BENCH_SERVER_ARGS="--perf-basic-prof ..."` passes more Node options to it. `BENCH_MARK=1` has
 * the server child print `[mark] stats` on its output at each reading, so that a trace the server
 * prints (`BENCH_SERVER_ARGS="--trace-opt --trace-deopt"`) can be cut at the window's two ends.
 */
import { describeWindow } from './loadgen/child.js';
import { median, type RunOptions, type RunResult, runOnce } from './loadgen/run.js';

interface Options extends RunOptions {
  json: boolean;
  baseline: boolean;
  /** Alternate the store of `--store` with none (`--pairs` times). */
  withNone: boolean;
  pairs: number;
  /** Without `--baseline`: the one server to load (`--target baseline` profiles the floor alone). */
  target: 'djambi' | 'baseline';
}

const USAGE =
  'usage: npm run bench:server -- [--rooms N] [--seconds S] [--warmup S] [--interval MS] [--spectators K] [--seed N] ' +
  '[--store none|sqlite|postgres] [--workers W] [--full-every N] [--max-gen-lag MS] [--concurrency C] [--settle S] [--idle S] [--from-move N] [--target djambi|baseline] [--baseline [--pairs P]] [--store sqlite|postgres --with-none [--pairs P]] [--json]';

function parseArgs(argv: string[]): Options {
  const o: Options = {
    rooms: 200,
    seconds: 20,
    warmup: 3,
    interval: 1000,
    spectators: 2,
    json: false,
    seed: 1,
    store: 'none',
    workers: 0,
    fullEvery: 20,
    maxGenLag: 20,
    concurrency: 16,
    settle: 5,
    idle: 2,
    fromMove: 20,
    baseline: false,
    withNone: false,
    pairs: 1,
    target: 'djambi',
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
    else if (a === '--seed') o.seed = Math.floor(num());
    else if (a === '--workers') o.workers = Math.floor(num());
    else if (a === '--full-every') o.fullEvery = Math.max(1, Math.floor(num()));
    else if (a === '--max-gen-lag') o.maxGenLag = num();
    else if (a === '--concurrency') o.concurrency = Math.max(1, Math.floor(num()));
    else if (a === '--idle') o.idle = num();
    else if (a === '--settle') o.settle = num();
    else if (a === '--from-move') o.fromMove = Math.floor(num());
    else if (a === '--pairs') o.pairs = Math.max(1, Math.floor(num()));
    else if (a === '--baseline') o.baseline = true;
    else if (a === '--with-none') o.withNone = true;
    else if (a === '--json') o.json = true;
    else if (a === '--target') {
      const v = argv[++i];
      if (v !== 'djambi' && v !== 'baseline') throw new Error('--target takes djambi or baseline');
      o.target = v;
    } else if (a === '--store') {
      const v = argv[++i];
      if (v !== 'none' && v !== 'sqlite' && v !== 'postgres') throw new Error('--store takes none, sqlite or postgres');
      o.store = v;
    } else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  if (o.withNone && (o.store === 'none' || o.baseline))
    throw new Error(`--with-none compares --store sqlite or postgres with none, without --baseline\n${USAGE}`);
  return o;
}

function describe(r: RunResult): string[] {
  const s = r.server;
  const g = r.generator;
  const lines = [
    `${r.target}: ${r.rooms} rooms × ${r.clientsPerRoom} clients (${r.decodingRooms} decoding), store ${r.store}; ${r.turns} turns in ${r.measuredSeconds} s (${r.turnsPerSecond}/s), set up in ${r.setupSeconds} s`,
    `  turn → patch at every client: p50 ${r.latencyMs.p50} ms, p90 ${r.latencyMs.p90} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms`,
    `  server: CPU ${s.cpuPercentOfOneCore}% of one core (idle ${s.idleCpuPercentOfOneCore}%), ${s.cpuMicrosPerTurn} µs per turn, ${s.netCpuMicrosPerTurn} above idle; event loop p50 ${s.eventLoopDelayMs.p50} / p99 ${s.eventLoopDelayMs.p99} / max ${s.eventLoopDelayMs.max} ms; GC ${s.gc.count} × (${s.gc.totalMs} ms, longest ${s.gc.maxPauseMs} ms)`,
    `  server memory per room (heap + external, after GC): ${s.heapPerRoomKB.afterSetup} KB after setup, ${s.heapPerRoomKB.afterPlay} KB after play, marginal ${s.heapPerRoomKB.marginal} KB; RSS ${s.rssPerRoomKB.afterSetup} / ${s.rssPerRoomKB.afterPlay} KB per room (${s.rssMB.base} → ${s.rssMB.end} MB)`,
    `  generator: CPU ${g.cpuPercentOfOneCore}% of one core (${generatorMicrosPerTurn(r).toFixed(1)} µs per turn; the server's over it: ${cpuAgainstGenerator(r).toFixed(3)}); main loop p50 ${g.mainEventLoopDelayMs.p50} / p99 ${g.mainEventLoopDelayMs.p99} ms; ${g.workers
      .map((w, i) => `worker ${i}: loop p50 ${w.eventLoopDelayMs.p50} / p99 ${w.eventLoopDelayMs.p99} ms, busy ${(w.utilisation * 100).toFixed(1)}%`)
      .join('; ')}`,
    `  checks of decoded states: ${r.checks.ok} ok, ${r.checks.failed} failed; rejected turns ${JSON.stringify(r.rejected)}; games finished ${r.gamesFinished}`,
  ];
  const mine = [describeWindow('turn → patch', s.own.turnToPatch), describeWindow('store append', s.own.storeAppend)].filter((f) => f !== null);
  if (mine.length > 0) lines.splice(3, 0, `  the server's own /metrics: ${mine.join('; ')}`);
  for (const why of r.refused) lines.push(`  REFUSED: ${why}`);
  return lines;
}

/** The generator's CPU per turn (µs), all its threads. */
const generatorMicrosPerTurn = (r: RunResult) => (r.generator.cpuPercentOfOneCore * 10_000) / r.turnsPerSecond;

/**
 * The server's CPU per turn over the generator's in the same window. The generator does about the
 * same work per turn against either server, on the same machine at the same moment, so this
 * figure moves much less with the machine's speed than the server's CPU alone (session 21: the
 * bare room's CPU per turn spread 212-310 µs within an hour, this figure 0.68-0.78).
 */
const cpuAgainstGenerator = (r: RunResult) => r.server.cpuMicrosPerTurn / generatorMicrosPerTurn(r);

/** Djambi / baseline, on the medians over the pairs. */
function ratios(djambi: RunResult[], baseline: RunResult[]) {
  const ratio = (f: (r: RunResult) => number) => +(median(djambi.map(f)) / median(baseline.map(f))).toFixed(2);
  return {
    p50: ratio((r) => r.latencyMs.p50),
    p99: ratio((r) => r.latencyMs.p99),
    cpuPerTurn: ratio((r) => r.server.cpuMicrosPerTurn),
    netCpuPerTurn: ratio((r) => r.server.netCpuMicrosPerTurn),
    /** CPU per turn, each run's over its generator's: the same ratio, less the machine's drift. */
    cpuAgainstGenerator: ratio(cpuAgainstGenerator),
    heapPerRoom: ratio((r) => r.server.heapPerRoomKB.afterPlay),
  };
}

/** The store's run / none's, on the medians over the pairs (`--with-none`). */
function storeRatios(stored: RunResult[], none: RunResult[]) {
  const ratio = (f: (r: RunResult) => number | undefined) => {
    const a = stored.map(f).filter((x): x is number => x !== undefined);
    const b = none.map(f).filter((x): x is number => x !== undefined);
    return a.length > 0 && b.length > 0 ? +(median(a) / median(b)).toFixed(3) : null;
  };
  const appends = stored.map((r) => r.server.own.storeAppend?.p50Us).filter((x): x is number => x !== undefined);
  return {
    p50: ratio((r) => r.latencyMs.p50),
    p99: ratio((r) => r.latencyMs.p99),
    ownTurnToPatchP50: ratio((r) => r.server.own.turnToPatch?.p50Us),
    cpuPerTurn: ratio((r) => r.server.cpuMicrosPerTurn),
    appendP50Us: appends.length > 0 ? +median(appends).toFixed(1) : null,
  };
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const log = (line: string) => {
    if (!o.json) console.log(line);
    else console.error(line);
  };
  const runs: RunResult[] = [];
  const alternate = <T>(a: T, b: T): T[] => Array.from({ length: o.pairs }, (_, i) => (i % 2 === 0 ? [a, b] : [b, a])).flat();
  type Step = { readonly target: RunResult['target']; readonly store: RunOptions['store'] };
  const order: Step[] = o.baseline
    ? alternate<Step>({ target: 'djambi', store: o.store }, { target: 'baseline', store: 'none' })
    : o.withNone
      ? alternate<Step>({ target: 'djambi', store: o.store }, { target: 'djambi', store: 'none' })
      : [{ target: o.target, store: o.store }];
  for (const { target, store } of order) {
    const r = await runOnce(target, { ...o, store }, log);
    runs.push(r);
    for (const line of describe(r)) log(line);
  }
  const refused = runs.flatMap((r) => r.refused.map((why) => `${r.target}: ${why}`));
  // Ratios come from the runs that were not refused only (the exit status still says some were).
  const accepted = runs.filter((r) => r.refused.length === 0);
  const djambi = accepted.filter((r) => r.target === 'djambi');
  const baseline = accepted.filter((r) => r.target === 'baseline');
  const ratio = o.baseline && djambi.length > 0 && baseline.length > 0 ? ratios(djambi, baseline) : null;
  const stored = accepted.filter((r) => r.target === 'djambi' && r.store !== 'none');
  const none = accepted.filter((r) => r.target === 'djambi' && r.store === 'none');
  const store = o.withNone && stored.length > 0 && none.length > 0 ? storeRatios(stored, none) : null;
  if (o.json)
    console.log(
      JSON.stringify(
        {
          options: o,
          runs,
          ratios: ratio,
          ratioRuns: { djambi: djambi.length, baseline: baseline.length },
          storeRatios: store,
          storeRuns: { store: stored.length, none: none.length },
          refused,
        },
        null,
        2,
      ),
    );
  else if (store) {
    console.log('');
    console.log(
      `store ${o.store} / none (medians of ${stored.length} and ${none.length} runs not refused): clients' p50 ${store.p50}×, p99 ${store.p99}×; the server's own turn → patch p50 ${store.ownTurnToPatchP50}×; CPU per turn ${store.cpuPerTurn}×; the append's p50 ${store.appendP50Us} µs`,
    );
  } else if (ratio) {
    console.log('');
    console.log(
      `Djambi / baseline (medians of ${djambi.length} Djambi and ${baseline.length} baseline runs not refused): p50 ${ratio.p50}×, p99 ${ratio.p99}×, CPU per turn ${ratio.cpuPerTurn}× (above idle ${ratio.netCpuPerTurn}×; each over its generator's ${ratio.cpuAgainstGenerator}×), heap per room ${ratio.heapPerRoom}×`,
    );
  }
  if (refused.length > 0) {
    console.error(`\nNOT REPORTED: the figures of this run cannot be trusted:\n  ${refused.join('\n  ')}`);
    process.exit(2);
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
