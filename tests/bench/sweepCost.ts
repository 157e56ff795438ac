/**
 * What a full cluster sweep's read of the room listings costs the process that runs it: N
 * listings of the size a real game room writes (saved by Colyseus's Redis driver in a redis-server
 * of its own), read `--runs` times by each way, alternating: Colyseus's query (`driver.query`: the
 * whole hash in one reply, a `RoomData` for each) and the sweep's `listingOwners` (`HSCAN` in
 * slices); `--way` runs one of them only. A full collection comes before each read, so that no
 * read pays for the garbage of the one before. Reported per way: the medians of the read's time and of the longest stretch the event
 * loop was held (a 1 ms interval timer's longest lateness while the read runs).
 *
 *   npx tsx tests/bench/sweepCost.ts [--listings 2000] [--runs 10] [--json]
 *
 * Needs redis-server (REDIS_SERVER, default /usr/bin/redis-server; tests/support/redis.ts).
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RedisDriver } from '@colyseus/redis-driver';
import { ClusterPresence, listingOwners } from '../../server/src/cluster/cluster.js';
import { redisOptions } from '../../server/src/cluster/config.js';
import { ROOM_NAME } from '../../server/src/games/directory.js';
import { RedisProcess } from '../support/redis.js';
import { median, round, sleep } from './loadgen/run.js';

const USAGE = 'usage: sweepCost.ts [--listings N] [--runs N] [--way query|scan|both] [--json]';

interface Options {
  listings: number;
  runs: number;
  way: 'query' | 'scan' | 'both';
  json: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = { listings: 2000, runs: 10, way: 'both', json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') o.json = true;
    else if (a === '--way') {
      const v = argv[++i];
      if (v !== 'query' && v !== 'scan' && v !== 'both') throw new Error(`--way takes query, scan or both\n${USAGE}`);
      o.way = v;
    } else if (a === '--listings' || a === '--runs') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${a} takes a positive integer\n${USAGE}`);
      if (a === '--listings') o.listings = n;
      else o.runs = n;
    } else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  return o;
}

/** A listing's metadata as a playing room's (`describeRoom`). */
function metadata(code: string) {
  const names = ['Machiavelli', 'Borgia', 'Medici', 'Sforza'];
  return {
    code,
    phase: 'playing',
    visibility: 'public',
    press_visibility: 'hidden',
    reveal_press_after_game: true,
    players: 4,
    seats: ['R', 'B', 'Y', 'G'].map((colour, i) => ({ colour, name: names[i], presence: 'connected' })),
    seatsTaken: 4,
    spectators: 1,
    clock: null,
    rules: {
      players: 4,
      layout: 'standard',
      reporter: 'adjacent',
      self_kill: false,
      maze_exit_order: 'any',
      encirclement: 'standard',
      neutral_pieces_untouchable: true,
      encircled_chief: 'stays',
      power_transfer_of_neutral_armies: 'standard',
      master_moves: false,
      no_progress_rounds: 0,
    },
    moves: 42,
    createdAt: Date.now(),
  };
}

/** A full collection before each read, so that no read pays for the garbage of the one before it. */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Runs `read` while a 1 ms timer watches the event loop: the read's time and the loop's longest hold, ms. */
async function measure(read: () => Promise<number>): Promise<{ ms: number; heldMs: number; found: number }> {
  collect();
  let last = performance.now();
  let held = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last - 1);
    last = now;
  }, 1);
  await sleep(20);
  held = 0;
  last = performance.now();
  const t0 = performance.now();
  const found = await read();
  const ms = performance.now() - t0;
  // The hold that ends the read is seen by the timer's next call.
  await sleep(5);
  clearInterval(timer);
  return { ms, heldMs: Math.max(0, held), found };
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const redis = await RedisProcess.start();
  const driver = new RedisDriver(redisOptions(redis.url));
  const presence = new ClusterPresence(redisOptions(redis.url));
  try {
    const saves: Promise<unknown>[] = [];
    for (let i = 0; i < o.listings; i++) {
      const roomId = `R${String(i).padStart(5, '0')}`;
      const listing = driver.createInstance({
        name: ROOM_NAME,
        roomId,
        processId: `proc${i % 2}`,
        publicAddress: '127.0.0.1:8080/game1',
        clients: 5,
        maxClients: 16,
        metadata: metadata(roomId),
      });
      saves.push(Promise.resolve(listing.save()));
    }
    await Promise.all(saves);
    const all = {
      query: async () => (await driver.query({ name: ROOM_NAME })).length,
      scan: async () => (await listingOwners(presence)).size,
    };
    const ways = o.way === 'both' ? all : { [o.way]: all[o.way] };
    const results: Record<string, { ms: number[]; heldMs: number[] }> = Object.fromEntries(Object.keys(ways).map((name) => [name, { ms: [], heldMs: [] }]));
    // One unmeasured round first (JIT, connections).
    for (const read of Object.values(ways)) await read();
    for (let r = 0; r < o.runs; r++) {
      for (const [name, read] of Object.entries(ways)) {
        const m = await measure(read);
        if (m.found !== o.listings) throw new Error(`${name} found ${m.found} listings, not ${o.listings}`);
        results[name].ms.push(m.ms);
        results[name].heldMs.push(m.heldMs);
      }
    }
    const summary = Object.fromEntries(
      Object.entries(results).map(([name, r]) => [
        name,
        { medianMs: round(median(r.ms)), medianHeldMs: round(median(r.heldMs)), maxHeldMs: round(Math.max(...r.heldMs)) },
      ]),
    );
    if (o.json) console.log(JSON.stringify({ listings: o.listings, runs: o.runs, ...summary }));
    else {
      console.log(`${o.listings} listings, ${o.runs} runs each, alternating:`);
      for (const [name, s] of Object.entries(summary)) {
        console.log(
          `  ${name === 'query' ? "Colyseus's query" : 'listingOwners (HSCAN)'}: ${s.medianMs} ms; event loop held ${s.medianHeldMs} ms (median), ${s.maxHeldMs} ms (max)`,
        );
      }
    }
  } finally {
    await Promise.resolve(driver.shutdown()).catch(() => undefined);
    await Promise.resolve(presence.shutdown()).catch(() => undefined);
    // The presence's QUITs are not awaited by its shutdown: let them finish before Redis goes.
    await sleep(200);
    await redis.stop();
  }
}

await main();
