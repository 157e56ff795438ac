/**
 * `npx tsx tests/bench/store.ts [--json]`: the store's costs on this machine. Sequential appends
 * (one event at a time, as a room commits turns) on SQLite (a temp file, WAL, synchronous=NORMAL)
 * and on PostgreSQL (a temporary `djambi_test_<random>` database, skipped when unreachable), and
 * the time to `load` (and to load and replay) 1,000 games of ~100 events each from SQLite.
 *
 * SQLite is also measured "cold", as a server runs it: a real match's turn events appended one at a
 * time round robin over 200 games of 60 events each (`appendManySync`, as the journal writes), with
 * `BENCH_SWEEP_MB` (default 3, about one core's L2) of memory read and written between two appends,
 * as the rest of a turn and the other rooms' turns do to the caches. Only the append (one SQLite
 * commit) is timed. In the server, where a turn pays it, see `djambi_store_append_seconds`
 * (the benchmarks log at 1d9c9ed, "Session 9").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match } from '../../server/src/match/match.js';
import { type GameStore, PgStore, SqliteStore } from '../../server/src/store/index.js';
import { createTestDatabase, event, PG_ADMIN_URL, playedMatch, roomConfig } from '../store/helpers.js';

const json = process.argv.includes('--json');
const SWEEP_BYTES = Number(process.env.BENCH_SWEEP_MB ?? 3) * 2 ** 20;
const APPENDS = Number(process.env.BENCH_APPENDS ?? 5000);
const WARMUP = 200;
const GAMES = 1000;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Latency {
  n: number;
  p50us: number;
  meanUs: number;
  p99us: number;
  maxUs: number;
}

/** Appends `APPENDS` events one after the other to 10 games, timing each. */
async function appendLatency(store: GameStore): Promise<Latency> {
  const codes = Array.from({ length: 10 }, (_, i) => `BENCH${i}`);
  for (const code of codes) await store.createGame(code, roomConfig(), Date.now());
  const seqs = new Map(codes.map((c) => [c, 0]));
  const times: number[] = [];
  for (let i = 0; i < WARMUP + APPENDS; i++) {
    const code = codes[i % codes.length]!;
    const seq = seqs.get(code)! + 1;
    const e = event(Date.now(), `move ${i}`);
    const t = process.hrtime.bigint();
    await store.append(code, seq, e);
    const us = Number(process.hrtime.bigint() - t) / 1000;
    seqs.set(code, seq);
    if (i >= WARMUP) times.push(us);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { n: times.length, p50us: quantile(times, 0.5), meanUs: mean, p99us: quantile(times, 0.99), maxUs: times.at(-1)! };
}

/**
 * Appends `APPENDS` turn events round robin over 200 games that already hold 60 each, timing each
 * append alone; with `sweep`, that many bytes of memory are touched between two appends.
 */
async function appendLatencySync(store: SqliteStore, sweep: number): Promise<Latency> {
  const turns = playedMatch(95, 11).events.filter((e) => e.intent.type === 'turn');
  const codes = Array.from({ length: 200 }, (_, i) => `COLD${String(i).padStart(3, '0')}`);
  const seqs = codes.map(() => 0);
  const append = (i: number) => {
    const g = i % codes.length;
    store.appendManySync(codes[g]!, ++seqs[g]!, [turns[i % turns.length]!]);
  };
  for (const code of codes) await store.createGame(code, roomConfig(), Date.now());
  for (let i = 0; i < 60 * codes.length; i++) append(i);
  const buffer = new Uint8Array(sweep);
  const times: number[] = [];
  for (let i = 0; i < WARMUP + APPENDS; i++) {
    for (let p = 0; p < buffer.length; p += 64) buffer[p]!++;
    const t = process.hrtime.bigint();
    append(60 * codes.length + i);
    const us = Number(process.hrtime.bigint() - t) / 1000;
    if (i >= WARMUP) times.push(us);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { n: times.length, p50us: quantile(times, 0.5), meanUs: mean, p99us: quantile(times, 0.99), maxUs: times.at(-1)! };
}

const dir = mkdtempSync(join(tmpdir(), 'djambi-bench-'));
const results: Record<string, unknown> = {};
try {
  const sqlite = SqliteStore.open(join(dir, 'append.sqlite'));
  results.sqliteAppend = await appendLatency(sqlite);
  await sqlite.close();
  for (const [key, sweep] of [
    ['sqliteAppendWarm', 0],
    ['sqliteAppendCold', SWEEP_BYTES],
  ] as const) {
    const store = SqliteStore.open(join(dir, `${key}.sqlite`));
    results[key] = await appendLatencySync(store, sweep);
    await store.close();
  }

  try {
    const db = await createTestDatabase();
    try {
      const pg = await PgStore.open({ connectionString: db.url });
      results.postgresAppend = await appendLatency(pg);
      await pg.close();
    } finally {
      await db.drop();
    }
  } catch (err) {
    results.postgresAppend = `skipped: PostgreSQL at ${PG_ADMIN_URL} unreachable (${(err as Error).message})`;
  }

  // 1,000 games of a real match's events (seats, start, ~95 turns).
  const match = playedMatch(95, 11);
  const events = match.events;
  const file = join(dir, 'load.sqlite');
  const writer = SqliteStore.open(file);
  const codes = Array.from({ length: GAMES }, (_, i) => `L${String(i).padStart(5, '0')}`);
  const w0 = performance.now();
  for (const code of codes) {
    await writer.createGame(code, match.config, Date.now());
    await writer.appendMany(code, 1, events);
  }
  const writeMs = performance.now() - w0;
  await writer.close();

  const reader = SqliteStore.open(file);
  const l0 = performance.now();
  let loaded = 0;
  for (const code of await reader.unfinished()) loaded += (await reader.load(code))!.events.length;
  const loadMs = performance.now() - l0;
  const r0 = performance.now();
  for (const code of codes) {
    const game = (await reader.load(code))!;
    Match.restore(game.config, game.events);
  }
  const loadReplayMs = performance.now() - r0;
  await reader.close();
  results.sqliteLoad = { games: GAMES, eventsPerGame: events.length, eventsLoaded: loaded, writeMs, loadMs, loadAndReplayMs: loadReplayMs };
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (json) console.log(JSON.stringify(results));
else {
  const fmt = (l: unknown) =>
    typeof l === 'string'
      ? l
      : (({ n, p50us, meanUs, p99us, maxUs }: Latency) =>
          `n=${n} p50 ${p50us.toFixed(1)} µs, mean ${meanUs.toFixed(1)} µs, p99 ${p99us.toFixed(1)} µs, max ${(maxUs / 1000).toFixed(2)} ms`)(l as Latency);
  console.log(`append, SQLite file (WAL, synchronous=NORMAL): ${fmt(results.sqliteAppend)}`);
  console.log(`append of a turn, SQLite, 200 games round robin, tight loop: ${fmt(results.sqliteAppendWarm)}`);
  console.log(`same, ${SWEEP_BYTES / 2 ** 20} MB of memory touched between appends (cold caches): ${fmt(results.sqliteAppendCold)}`);
  console.log(`append, PostgreSQL (${PG_ADMIN_URL.replace(/\/\/[^@/]*@/, '//…@')}): ${fmt(results.postgresAppend)}`);
  const l = results.sqliteLoad as { games: number; eventsPerGame: number; writeMs: number; loadMs: number; loadAndReplayMs: number };
  console.log(
    `SQLite, ${l.games} games × ${l.eventsPerGame} events: write ${l.writeMs.toFixed(0)} ms, load all ${l.loadMs.toFixed(0)} ms (${((l.loadMs / l.games) * 1000).toFixed(0)} µs/game), load + Match.restore ${l.loadAndReplayMs.toFixed(0)} ms`,
  );
}
