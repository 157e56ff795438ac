/**
 * What one `GET /api/rooms` costs the process with N public rooms listed: the listing's own work
 * (the matchmaker's query, the filter and sort, the page, its JSON) per request, with the sorted
 * listing kept for a second (`RoomListings`, as the server does) and without (`ttlMs: 0`: a query
 * and a sort on every request, as before issue 43). The requests come `--rate` a second of the
 * listing's clock, so a kept listing is rebuilt once every `rate` requests. Listings of a real
 * room's size are saved in Colyseus's local driver or its Redis driver (a redis-server of its
 * own), as `--driver` says; the sides alternate `--runs` times. Reported: the median and the mean
 * ms per request.
 *
 *   npx tsx --tsconfig tests/bench/server-tsconfig.json tests/bench/listingCost.ts [--rooms 3000] [--requests 500] [--rate 100] [--runs 3] [--driver local|redis|both]
 *
 * The Redis side needs redis-server (REDIS_SERVER, default /usr/bin/redis-server).
 */
import { performance } from 'node:perf_hooks';
import { LocalDriver, type MatchMakerDriver } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { redisOptions } from '../../server/src/cluster/config.js';
import { ROOM_NAME } from '../../server/src/games/directory.js';
import { RoomListings } from '../../server/src/http/listing.js';
import { RedisProcess } from '../support/redis.js';
import { median, round } from './loadgen/run.js';

const USAGE = 'usage: listingCost.ts [--rooms N] [--requests N] [--rate N] [--runs N] [--driver local|redis|both]';

interface Options {
  rooms: number;
  requests: number;
  rate: number;
  runs: number;
  driver: 'local' | 'redis' | 'both';
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = { rooms: 3000, requests: 500, rate: 100, runs: 3, driver: 'both' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[++i];
    if (a === '--driver') {
      if (v !== 'local' && v !== 'redis' && v !== 'both') throw new Error(`--driver takes local, redis or both\n${USAGE}`);
      o.driver = v;
    } else if (a === '--rooms' || a === '--requests' || a === '--rate' || a === '--runs') {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${a} takes a positive integer\n${USAGE}`);
      o[a.slice(2) as 'rooms' | 'requests' | 'rate' | 'runs'] = n;
    } else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  return o;
}

/** A waiting public room's listing metadata (`describeRoom`), created at `createdAt`. */
function metadata(code: string, createdAt: number) {
  return {
    code,
    phase: 'waiting',
    visibility: 'public',
    press_visibility: 'hidden',
    reveal_press_after_game: true,
    players: 4,
    seats: ['R', 'B', 'Y', 'G'].map((colour, i) => ({ colour, name: i < 2 ? `player ${colour}` : '', presence: i < 2 ? 'connected' : 'empty' })),
    seatsTaken: 2,
    spectators: 0,
    clock: { initialSeconds: 600, incrementSeconds: 5 },
    rules: { players: 4, layout: 'standard', reporter: 'adjacent', self_kill: false, maze_exit_order: 'any', no_progress_rounds: 0 },
    moves: 0,
    createdAt,
  };
}

/** Saves `rooms` public game room listings in `driver` (creation times shuffled, as a sort meets them). */
async function fill(driver: MatchMakerDriver, rooms: number): Promise<void> {
  const saves: unknown[] = [];
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < rooms; i++) {
    const roomId = `R${String(i).padStart(5, '0')}`;
    const createdAt = start + ((i * 7919) % rooms) * 1000;
    const listing = driver.createInstance({
      name: ROOM_NAME,
      roomId,
      processId: 'p1',
      clients: 2,
      maxClients: 200,
      private: false,
      metadata: metadata(roomId, createdAt),
    });
    saves.push(listing.save());
  }
  await Promise.all(saves);
}

/** Ms per request of `requests` first pages (50 rooms, as JSON) from `listings`, its clock moved `1000 / rate` ms each time. */
async function run(listings: RoomListings, clock: { t: number }, o: Options): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < o.requests; i++) {
    clock.t += 1000 / o.rate;
    const t0 = performance.now();
    const body = JSON.stringify(await listings.page(50, null));
    ms.push(performance.now() - t0);
    if (body.length < 100) throw new Error('empty listing');
  }
  return ms;
}

async function measure(name: string, driver: MatchMakerDriver, o: Options): Promise<void> {
  await fill(driver, o.rooms);
  const clock = { t: 0 };
  const query = async () => await driver.query({ name: ROOM_NAME, private: false });
  const sides = {
    'query and sort every request': new RoomListings({ now: () => clock.t, ttlMs: 0, query }),
    'kept for a second': new RoomListings({ now: () => clock.t, query }),
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (const side of Object.values(sides)) await run(side, clock, { ...o, requests: 20 }); // warm-up
  for (let r = 0; r < o.runs; r++) for (const [k, side] of Object.entries(sides)) samples[k].push(...(await run(side, clock, o)));
  console.log(`${name} driver, ${o.rooms} public rooms, ${o.requests} requests × ${o.runs} runs at ${o.rate} a second:`);
  for (const [k, ms] of Object.entries(samples)) {
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    console.log(`  ${k}: median ${round(median(ms), 3)} ms, mean ${round(mean, 3)} ms per request`);
  }
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.driver !== 'redis') await measure('local', new LocalDriver(), o);
  if (o.driver !== 'local') {
    const redis = await RedisProcess.start();
    const driver = new RedisDriver(redisOptions(redis.url));
    try {
      await measure('Redis', driver, o);
    } finally {
      await Promise.resolve(driver.shutdown()).catch(() => undefined);
      await redis.stop();
    }
  }
}

await main();
