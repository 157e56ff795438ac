/** The game store: the event log of every game, on SQLite or PostgreSQL (see `types.ts`). */
export { FaultyStore, type FaultMode, MemoryStore } from './memory.js';
export { describeStore, locateStore, openStore, type StoreLocation, type StoreOptions, storeOptionsFromEnv } from './open.js';
export { PgStore } from './postgres.js';
export { SqliteStore } from './sqlite.js';
export * from './types.js';
