/**
 * Chooses and opens the store: `DATABASE_URL=postgres://…` (or `postgresql://…`) → PostgreSQL,
 * `sqlite:/path/file.sqlite` → that SQLite file, `memory:` → nothing kept, and by default
 * `DATA_DIR/djambi.sqlite` (`DATA_DIR` defaults to `./data`; the directory is created).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MemoryStore } from './memory.js';
import { PgStore } from './postgres.js';
import { SqliteStore } from './sqlite.js';
import type { GameStore } from './types.js';

/** Where the store lives, as given by the environment (`DATABASE_URL`, `DATA_DIR`) or flags. */
export interface StoreOptions {
  /** `postgres://…`, `postgresql://…`, `sqlite:<file>` or `memory:`; unset → the default SQLite file. */
  readonly databaseUrl?: string | undefined;
  /** Directory of the default SQLite file (default `./data`). */
  readonly dataDir?: string | undefined;
  /** PostgreSQL: connections in the pool (default `DEFAULT_POOL_MAX`). */
  readonly poolMax?: number | undefined;
  /** PostgreSQL: errors of idle pooled connections (e.g. the server restarted); the pool reconnects. */
  readonly onPoolError?: (err: Error) => void;
}

/** A resolved store choice (`url` is the PostgreSQL connection string, `file` the SQLite path). */
export type StoreLocation =
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'memory' };

/**
 * PostgreSQL connections per process by default. Every room's appends queue for one of them, so
 * a busy process can want more (`DATABASE_POOL_MAX`): at 1,000 rooms per process a turn's
 * latency was the wait for a connection (the benchmarks log at 1d9c9ed, "Cluster").
 */
export const DEFAULT_POOL_MAX = 10;

/** The default SQLite file name inside `DATA_DIR`. */
export const DEFAULT_SQLITE_FILE = 'djambi.sqlite';

/** Resolves the options to a location without opening anything; throws on an unknown scheme. */
export function locateStore(options: StoreOptions = {}): StoreLocation {
  const url = options.databaseUrl?.trim();
  if (!url) return { kind: 'sqlite', file: resolve(options.dataDir?.trim() || './data', DEFAULT_SQLITE_FILE) };
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', url };
  if (/^memory:$/i.test(url)) return { kind: 'memory' };
  if (/^sqlite:/i.test(url)) {
    // sqlite:/abs/file, sqlite:rel/file, sqlite:///abs/file and sqlite::memory:
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new Error('DATABASE_URL sqlite: needs a file path (sqlite:/path/file.sqlite)');
    return { kind: 'sqlite', file: path === ':memory:' ? path : resolve(path) };
  }
  throw new Error(`DATABASE_URL: unknown scheme in ${url.replace(/\/\/[^@/]*@/, '//…@')} (use postgres://, sqlite: or memory:)`);
}

/** A short description of a location for the logs (no password). */
export function describeStore(location: StoreLocation): string {
  if (location.kind === 'postgres') return `postgres ${location.url.replace(/\/\/[^@/]*@/, '//…@')}`;
  return location.kind === 'sqlite' ? `sqlite ${location.file}` : 'memory';
}

/** Opens (and migrates) the store the options choose. */
export async function openStore(options: StoreOptions = {}): Promise<GameStore> {
  const location = locateStore(options);
  switch (location.kind) {
    case 'postgres':
      return PgStore.open({
        connectionString: location.url,
        max: options.poolMax ?? DEFAULT_POOL_MAX,
        ...(options.onPoolError ? { onPoolError: options.onPoolError } : {}),
      });
    case 'memory':
      return new MemoryStore();
    case 'sqlite':
      if (location.file !== ':memory:') mkdirSync(dirname(location.file), { recursive: true });
      return SqliteStore.open(location.file);
  }
}

/**
 * The options from the process environment (`DATABASE_URL`, `DATA_DIR`, `DATABASE_POOL_MAX`);
 * throws on a bad pool size.
 */
export function storeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): StoreOptions {
  const pool = env.DATABASE_POOL_MAX?.trim();
  if (pool && !/^[1-9]\d{0,3}$/.test(pool)) throw new Error(`DATABASE_POOL_MAX must be an integer from 1 to 9999 (got "${pool}")`);
  return { databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, ...(pool ? { poolMax: Number(pool) } : {}) };
}
