/**
 * How one process joins the others: `REDIS_URL` shares
 * Colyseus's presence and room listings through Redis; `PUBLIC_ADDRESS` is where clients reach
 * this process's WebSockets; `CLUSTER_SWEEP_MS` and `CLUSTER_LOCK_MS` tune the takeover.
 */

/** A process's cluster settings. */
export interface ClusterConfig {
  /** `redis://…`: presence and driver in Redis; null: this process alone (embedded defaults). */
  readonly redisUrl: string | null;
  /** `host[:port][/prefix]` as clients see this process (no scheme); null: the client's own endpoint. */
  readonly publicAddress: string | null;
  /** Interval of the sweep that re-opens the games of dead processes, ms. */
  readonly sweepMs: number;
  /** Lifetime of the per-game lock held while one process re-opens a game, ms. */
  readonly lockMs: number;
}

/** Defaults: a sweep every 2 s (a dead process's games are back within about 2–3 s), 10 s locks. */
export const DEFAULT_CLUSTER: ClusterConfig = { redisUrl: null, publicAddress: null, sweepMs: 2000, lockMs: 10_000 };

const PUBLIC_ADDRESS = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?(\/[A-Za-z0-9._~-]+)*$/;

/** Whether `text` is a `host[:port][/prefix]` public address. */
export function isPublicAddress(text: string): boolean {
  return PUBLIC_ADDRESS.test(text);
}

/** The settings from the environment; throws with a readable message on a malformed value. */
export function clusterFromEnv(env: NodeJS.ProcessEnv = process.env): ClusterConfig {
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl !== null && !/^rediss?:\/\//i.test(redisUrl)) throw new Error(`REDIS_URL must be redis://host:port (got "${redisUrl}")`);
  if (redisUrl !== null) redisOptions(redisUrl); // a malformed database number fails at boot
  const publicAddress = env.PUBLIC_ADDRESS?.trim() || null;
  if (publicAddress !== null && !isPublicAddress(publicAddress)) {
    throw new Error(`PUBLIC_ADDRESS must be host[:port][/prefix] as clients see it, without a scheme (got "${publicAddress}")`);
  }
  const ms = (name: string, fallback: number): number => {
    const v = env[name]?.trim();
    if (!v) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 100) throw new Error(`${name} must be an integer of at least 100 (ms; got "${v}")`);
    return Number(v);
  };
  return { redisUrl, publicAddress, sweepMs: ms('CLUSTER_SWEEP_MS', DEFAULT_CLUSTER.sweepMs), lockMs: ms('CLUSTER_LOCK_MS', DEFAULT_CLUSTER.lockMs) };
}

/** The connection options of ioredis that `redisOptions` sets (ioredis is Colyseus's client). */
export interface RedisConnectionOptions {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  readonly db: number;
  readonly family?: number;
  readonly tls?: Record<string, never>;
  /**
   * Commands issued in the same tick go out in one write: a takeover re-opens hundreds of games at
   * once, each with about ten presence and listing commands, and a socket write per command was
   * the largest cost of a takeover (the benchmarks log at 1d9c9ed, "Cluster", session 11).
   */
  readonly enableAutoPipelining: true;
}

/** ioredis options for a `redis://` or `rediss://` URL (`[user[:password]@]host[:port][/db][?family=4|6]`). */
export function redisOptions(url: string): RedisConnectionOptions {
  const u = new URL(url);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isSafeInteger(db) || db < 0) throw new Error(`REDIS_URL: the database must be a number (got "${u.pathname.slice(1)}")`);
  const family = u.searchParams.get('family');
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    db,
    ...(family === '4' || family === '6' ? { family: Number(family) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    enableAutoPipelining: true,
  };
}
