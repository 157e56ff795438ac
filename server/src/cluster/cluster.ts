/**
 * Several server processes as one: with `REDIS_URL`, Colyseus's presence and room listings live
 * in Redis (`@colyseus/redis-presence`, `@colyseus/redis-driver`), so a room created through any
 * process can be joined, watched and reclaimed through any other, and every process lists every
 * public room. Codes stay unique through the presence set and the store's primary key.
 *
 * Takeover. Each process records the games it hosts (`HOSTS_KEY`: code → processId). A process
 * is dead when its IPC channel `p:<id>` has no subscriber (Redis drops it with the connection; a
 * process drained by SIGTERM unlists its rooms first, so nothing of it is moved by force). Its
 * listings stay in Redis (Colyseus only health-checks at boot and on a timed-out reservation,
 * notes §4) and are ignored; its unfinished games are re-opened from the log, overwriting them:
 * lazily, when a client joins or looks up the code (`isLive`), and eagerly by a sweep every
 * `sweepMs`. A per-game lock in presence lets one process re-create a game; the log's (game, seq)
 * key fences any other copy.
 */
import { type IRoomCache, matchMaker, type Presence, type MatchMakerDriver } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';

import { type DirectoryPeers, type GameDirectory, ROOM_NAME } from '../games/directory.js';
import { type ClusterConfig, redisOptions } from './config.js';

/** Presence hash of the live games: code → processId of the process hosting it. */
export const HOSTS_KEY = 'djambi:hosts';
/** Prefix of the per-game re-open lock. */
export const LOCK_PREFIX = 'djambi:reopen:';
/** Games re-opened at once by one sweep. */
const SWEEP_PARALLEL = 4;
/** A full sweep at least this often (ms), when nothing calls for one sooner. */
export const FULL_SWEEP_MS = 30_000;
/** Sweeps that stay full after the set of processes changed (a booting process's health check may remove listings meanwhile). */
const FULL_AFTER_CHANGE = 3;
/** Colyseus's Redis hash of the room listings (`@colyseus/redis-driver`), one JSON document per room. */
const LISTINGS_KEY = 'roomcaches';
/** Listings read per round trip by a full sweep. */
const SCAN_COUNT = 250;

/**
 * Colyseus's Redis presence, plus a hash read in slices (`HSCAN`). A full sweep reads every room
 * listing of the cluster: Colyseus's own query reads the whole hash in one reply and builds a
 * `RoomData` of each (thousands at once: a stall of tens of milliseconds, and a scavenge that copies
 * them all); in slices, each reply is parsed as it comes and is garbage before the next.
 */
export class ClusterPresence extends RedisPresence {
  /** Calls `each` for every field of the hash at `key`, `count` fields per round trip (a field may come twice). */
  async scanHash(key: string, count: number, each: (field: string, value: string) => void): Promise<void> {
    let cursor = '0';
    do {
      const [next, flat] = await this.pub.hscan(key, cursor, 'COUNT', count);
      for (let i = 0; i + 1 < flat.length; i += 2) each(flat[i], flat[i + 1]);
      cursor = next;
    } while (cursor !== '0');
  }
}

/** What `Server` takes from the cluster. */
export interface ClusterServerOptions {
  presence?: Presence;
  driver?: MatchMakerDriver;
  publicAddress?: string;
  selectProcessIdToCreateRoom?: (roomName: string, options: unknown) => Promise<string>;
}

/**
 * The process of every listing of a game room: code → processId (what a full sweep needs of the
 * listings), read in slices. A listing that does not parse is skipped, as Colyseus's query would
 * fail on it.
 */
export async function listingOwners(presence: ClusterPresence): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const name = `"name":${JSON.stringify(ROOM_NAME)}`;
  await presence.scanHash(LISTINGS_KEY, SCAN_COUNT, (code, json) => {
    // The same pre-filter as the driver's query, before any parse.
    if (!json.includes(name)) return;
    try {
      const listing = JSON.parse(json) as { name?: unknown; processId?: unknown; roomId?: unknown };
      if (listing.name === ROOM_NAME && typeof listing.processId === 'string' && listing.roomId === code) owners.set(code, listing.processId);
    } catch {
      // not a listing
    }
  });
  return owners;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One process's membership of the cluster (or its absence: `shared` false). */
export class Cluster {
  private readonly presence: ClusterPresence | null;
  private readonly driver: MatchMakerDriver | null;
  private readonly excluded = new Set<string>();
  /** Codes of the rooms of this process. */
  private readonly local = new Set<string>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;
  /** The processes of Colyseus's stats at the last sweep. */
  private processes = new Set<string>();
  /** Time of the last full sweep (0: none yet), and full sweeps still due after a change of the processes. */
  private lastFull = 0;
  private fullAhead = 0;
  private stopped = false;

  constructor(readonly config: ClusterConfig) {
    const redis = config.redisUrl ? redisOptions(config.redisUrl) : null;
    this.presence = redis ? new ClusterPresence(redis) : null;
    this.driver = redis ? new RedisDriver(redis) : null;
    if (config.redisUrl && !config.publicAddress) {
      console.warn('[djambi cluster] REDIS_URL without PUBLIC_ADDRESS: a client matchmaking through another process would open its WebSocket on that one');
    }
  }

  /** Whether other processes share this one's rooms (Redis). */
  get shared(): boolean {
    return this.presence !== null;
  }

  /**
   * The Colyseus `Server` options: presence, driver, public address, placement. A new room stays
   * on the process that was asked (the load balancer spreads the requests): Colyseus's default
   * sends it to the process with fewest rooms over IPC, whose 2 s timeout under load makes the
   * asking process create it as well (a duplicate) and drops the other from placement; and a
   * re-open must stay where its lock is held.
   */
  serverOptions(): ClusterServerOptions {
    const out: ClusterServerOptions = {};
    if (this.config.publicAddress) out.publicAddress = this.config.publicAddress;
    if (this.presence && this.driver) {
      out.presence = this.presence;
      out.driver = this.driver;
      out.selectProcessIdToCreateRoom = async () => matchMaker.processId;
    }
    return out;
  }

  /** How the directory checks liveness and locks a re-open; null when alone (its defaults). */
  peers(): DirectoryPeers | null {
    if (!this.shared) return null;
    return { isLive: (code) => this.isLive(code), exclusive: (code, reopen) => this.exclusive(code, reopen) };
  }

  /** After `listen`: records the games this process hosts and starts the sweep. */
  start(directory: GameDirectory): void {
    const presence = this.presence;
    if (!presence) return;
    const handler = matchMaker.getHandler(ROOM_NAME);
    handler.on('create', (room: { roomId: string }) => {
      this.local.add(room.roomId);
      presence.hset(HOSTS_KEY, room.roomId, matchMaker.processId).catch(() => undefined);
    });
    // Unconditional: a stale copy closed by fencing could remove its successor's entry; if that
    // successor dies too, its listing still names the game to the sweep.
    handler.on('dispose', (room: { roomId: string }) => {
      this.local.delete(room.roomId);
      presence.hdel(HOSTS_KEY, room.roomId).catch(() => undefined);
    });
    const tick = () => {
      if (this.stopped || this.sweeping) return;
      this.sweeping = this.sweep(directory)
        .catch((e) => console.error('[djambi cluster] sweep failed:', e))
        .finally(() => {
          this.sweeping = null;
        });
    };
    this.sweepTimer = setInterval(tick, this.config.sweepMs);
    this.sweepTimer.unref();
    tick();
  }

  /** Stops sweeping (before a graceful shutdown; Colyseus closes the presence and driver). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.sweeping;
  }

  /**
   * One sweep. Every `sweepMs` it reads the processes (Colyseus's stats and the live IPC
   * channels): cheap, whatever the number of games. A full sweep, which also reads every host
   * entry and listing (thousands of entries to parse with thousands of games), runs when a process
   * of the stats is dead, when the set of processes changed (and for `FULL_AFTER_CHANGE` sweeps
   * after), and at least every `FULL_SWEEP_MS`: it takes the dead processes out of placement,
   * puts back what another process removed of this one's rooms (`repair`), and re-opens every
   * unfinished game the dead ones hosted (from `HOSTS_KEY` and their listings); a finished or
   * unknown game's stale listing is removed instead.
   */
  async sweep(directory: GameDirectory): Promise<{ dead: number; reopened: number }> {
    const presence = this.presence;
    if (!presence) return { dead: 0, reopened: 0 };
    const [live, stats] = await Promise.all([this.liveProcesses(), matchMaker.stats.fetchAll()]);
    const self = matchMaker.processId;
    const isDead = (pid: string) => pid !== self && !live.has(pid);
    const processes = new Set(stats.map((x) => x.processId));
    const changed = processes.size !== this.processes.size || [...processes].some((pid) => !this.processes.has(pid));
    this.processes = processes;
    if (changed) this.fullAhead = FULL_AFTER_CHANGE;
    const now = Date.now();
    const due = now - this.lastFull >= FULL_SWEEP_MS || this.fullAhead > 0 || [...processes].some(isDead);
    if (!due) return { dead: 0, reopened: 0 };
    this.lastFull = now;
    if (this.fullAhead > 0) this.fullAhead--;
    const [hosts, listed] = await Promise.all([presence.hgetall(HOSTS_KEY), listingOwners(presence)]);
    const dead = new Set<string>();
    for (const pid of [...stats.map((x) => x.processId), ...Object.values(hosts ?? {}), ...listed.values()]) if (isDead(pid)) dead.add(pid);
    await Promise.all([...dead].map((pid) => this.exclude(pid)));
    await this.repair(hosts ?? {}, listed);
    const orphans = [
      ...new Set([
        ...Object.entries(hosts ?? {})
          .filter(([, pid]) => dead.has(pid))
          .map(([code]) => code),
        ...[...listed].filter(([, pid]) => dead.has(pid)).map(([code]) => code),
      ]),
    ];
    let reopened = 0;
    const next = async (): Promise<void> => {
      for (let code = orphans.shift(); code !== undefined && !this.stopped; code = orphans.shift()) {
        const t0 = performance.now();
        const found = await directory.reopen(code).catch((e: unknown) => {
          console.error(`[djambi cluster] could not take over ${code}:`, e);
          return null;
        });
        if (found === 'reopened') {
          reopened++;
          console.log(`[djambi cluster] took over ${code} from a dead process in ${Math.round(performance.now() - t0)} ms`);
        }
        // A finished or unknown game has nothing to come back to: only its traces go.
        if (found === 'finished' || found === 'unknown') await this.forget(code).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: SWEEP_PARALLEL }, next));
    return { dead: dead.size, reopened };
  }

  /**
   * Puts back what another process removed of this one's rooms: a listing (Colyseus's boot-time
   * health check of a dead process reads, then deletes its listings, and may delete one re-created
   * here meanwhile) and a host entry (removed by a fenced copy's disposal).
   */
  private async repair(hosts: Record<string, string>, listed: ReadonlyMap<string, string>): Promise<void> {
    const self = matchMaker.processId;
    for (const code of this.local) {
      const owner = listed.get(code);
      if (owner !== undefined && owner !== self) continue; // another copy is listed: fencing decides
      if (owner === undefined) {
        const room = matchMaker.getLocalRoomById(code);
        const now = await matchMaker.getRoomById(code); // still unlisted (the snapshot is older)?
        if (room?.listing && !now) await Promise.resolve(room.listing.save()).catch(() => undefined);
        else if (now && now.processId !== self) continue;
      }
      if (hosts[code] !== self) await this.presence?.hset(HOSTS_KEY, code, self).catch(() => undefined);
    }
  }

  /** Removes the listing (if on a dead process) and the host entry of a game that will not come back. */
  private async forget(code: string): Promise<void> {
    await this.exclusive(code, async () => {
      const listing = await matchMaker.getRoomById(code);
      if (listing && !(await this.isAlive(listing.processId))) await listing.remove();
      await this.presence?.hdel(HOSTS_KEY, code);
    });
  }

  /** Whether the room of `code` is listed on a living process (a dead one's listing does not count). */
  async isLive(code: string): Promise<boolean> {
    const listing: IRoomCache | undefined = await matchMaker.getRoomById(code);
    if (!listing) return false;
    return this.isAlive(listing.processId);
  }

  /** Runs `reopen` under the cluster-wide lock of `code`; null once another process made it live. */
  async exclusive<T>(code: string, reopen: () => Promise<T>): Promise<T | null> {
    const presence = this.presence;
    if (!presence) return reopen();
    const key = LOCK_PREFIX + code;
    const ttl = Math.max(1, Math.ceil(this.config.lockMs / 1000));
    const deadline = Date.now() + 2 * this.config.lockMs;
    for (;;) {
      // SET NX EX, in presence's terms: the first increment wins; the key expires if its holder dies.
      if (!(await presence.exists(key)) && (await presence.hincrbyex(key, 'n', 1, ttl)) === 1) {
        try {
          return await reopen();
        } finally {
          await Promise.resolve(presence.del(key)).catch(() => undefined);
        }
      }
      if ((await this.isLive(code)) || Date.now() > deadline) return null;
      await sleep(50);
    }
  }

  private async liveProcesses(): Promise<Set<string>> {
    const channels = this.presence ? await this.presence.channels('p:*') : [];
    return new Set(channels.map((c) => c.slice(2)));
  }

  private async isAlive(processId: string): Promise<boolean> {
    if (processId === matchMaker.processId || !this.presence) return true;
    if ((await this.presence.channels(`p:${processId}`)).length > 0) return true;
    await this.exclude(processId);
    return false;
  }

  /**
   * Takes a dead process out of Colyseus's placement stats (once). Its listings are not removed in
   * bulk (`driver.cleanup` reads, then deletes: it would delete a listing another process re-created
   * meanwhile); each is overwritten by the game's new room or removed by `forget`, under its lock.
   */
  private async exclude(processId: string): Promise<void> {
    if (this.excluded.has(processId)) return;
    this.excluded.add(processId);
    await matchMaker.stats.excludeProcess(processId);
    console.warn(`[djambi cluster] process ${processId} is gone: its games are taken over`);
  }
}
