/** The in-memory store (the same contract), the failure-injecting wrapper, and the store choice. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MatchEvent } from '../../server/src/match/match.js';
import type { RoomConfig } from '../../server/src/match/config.js';
import {
  Fenced,
  FaultyStore,
  type GameStore,
  type GameSummary,
  locateStore,
  MemoryStore,
  openStore,
  SqliteStore,
  StoreUnavailable,
} from '../../server/src/store/index.js';
import { storeOptionsFromEnv } from '../../server/src/store/open.js';
import { storeContract } from './contract.js';
import { event, newCode, roomConfig } from './helpers.js';

/** One host's connection to a shared MemoryStore: its own `close`, the shared data. */
class Handle implements GameStore {
  private closed = false;
  constructor(private readonly shared: MemoryStore) {}
  private get s(): MemoryStore {
    if (this.closed) throw new StoreUnavailable('closed');
    return this.shared;
  }
  async createGame(code: string, config: RoomConfig, at: number) {
    return this.s.createGame(code, config, at);
  }
  async append(code: string, seq: number, e: MatchEvent) {
    return this.s.append(code, seq, e);
  }
  async appendMany(code: string, seq: number, es: readonly MatchEvent[]) {
    return this.s.appendMany(code, seq, es);
  }
  async finish(code: string, at: number, summary: GameSummary) {
    return this.s.finish(code, at, summary);
  }
  async load(code: string) {
    return this.s.load(code);
  }
  async quarantine(code: string, fromSeq: number, reason: string) {
    return this.s.quarantine(code, fromSeq, reason);
  }
  async quarantined(code: string) {
    return this.s.quarantined(code);
  }
  async unfinished(o?: { activeSince?: number }) {
    return this.s.unfinished(o);
  }
  async markSeated(code: string) {
    return this.s.markSeated(code);
  }
  async resumable(limit: number) {
    return this.s.resumable(limit);
  }
  async discardUnseated(code: string) {
    return this.s.discardUnseated(code);
  }
  async sweepUnseated(before: number) {
    return this.s.sweepUnseated(before);
  }
  async listGames(codes: readonly string[]) {
    return this.s.listGames(codes);
  }
  async recentFinished(o: { limit: number; publicOnly: boolean }) {
    return this.s.recentFinished(o);
  }
  async close() {
    this.closed = true;
  }
}

const shared = new MemoryStore();
storeContract('memory', { open: async () => new Handle(shared), secondHost: true });

test('a closed MemoryStore rejects with StoreUnavailable', async () => {
  const store = new MemoryStore();
  await store.close();
  await expect(store.load('X')).rejects.toBeInstanceOf(StoreUnavailable);
});

describe('FaultyStore', () => {
  test('failAppends(n) fails the next n appends, then appends pass again', async () => {
    const store = new FaultyStore(new MemoryStore());
    const code = newCode();
    await store.createGame(code, roomConfig(), 1);
    store.failAppends(2);
    await expect(store.append(code, 1, event(1))).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.appendMany(code, 1, [event(1)])).rejects.toBeInstanceOf(StoreUnavailable);
    await store.append(code, 1, event(1));
    expect(store.appendCalls).toBe(3);
    expect((await store.load(code))!.events).toHaveLength(1);
  });

  test('failAppends(…, "fenced") fences; failAppends() fails until heal', async () => {
    const store = new FaultyStore(new MemoryStore());
    const code = newCode();
    await store.createGame(code, roomConfig(), 1);
    store.failAppends(1, 'fenced');
    await expect(store.append(code, 1, event(1))).rejects.toBeInstanceOf(Fenced);
    store.failAppends();
    for (let i = 0; i < 3; i++) await expect(store.append(code, 1, event(1))).rejects.toBeInstanceOf(StoreUnavailable);
    store.heal();
    await store.append(code, 1, event(1));
  });

  test('read_only rejects writes and serves reads; down rejects everything', async () => {
    const store = new FaultyStore(new MemoryStore());
    const code = newCode();
    await store.createGame(code, roomConfig(), 1);
    store.mode('read_only');
    await expect(store.createGame(newCode(), roomConfig(), 1)).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.append(code, 1, event(1))).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.finish(code, 2, { result: null, players: {}, moves: 0 })).rejects.toBeInstanceOf(StoreUnavailable);
    expect(await store.load(code)).not.toBeNull();
    expect(await store.unfinished()).toEqual([code]);
    store.mode('down');
    await expect(store.load(code)).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.listGames([code])).rejects.toBeInstanceOf(StoreUnavailable);
    store.heal();
    expect(await store.listGames([code])).toHaveLength(1);
  });

  test('wraps a real SQLite store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'djambi-faulty-'));
    const store = new FaultyStore(SqliteStore.open(join(dir, 'f.sqlite')));
    const code = newCode();
    await store.createGame(code, roomConfig(), 1);
    store.failAppends(1);
    await expect(store.append(code, 1, event(1))).rejects.toBeInstanceOf(StoreUnavailable);
    await store.append(code, 1, event(1));
    await store.close();
    await expect(store.inner.load(code)).rejects.toBeInstanceOf(StoreUnavailable);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('choosing the store', () => {
  test.each([
    [{}, { kind: 'sqlite', file: resolve('data', 'djambi.sqlite') }],
    [{ dataDir: '/srv/dj' }, { kind: 'sqlite', file: '/srv/dj/djambi.sqlite' }],
    [
      { databaseUrl: '', dataDir: '/srv/dj' },
      { kind: 'sqlite', file: '/srv/dj/djambi.sqlite' },
    ],
    [{ databaseUrl: 'sqlite:/tmp/a.sqlite' }, { kind: 'sqlite', file: '/tmp/a.sqlite' }],
    [{ databaseUrl: 'sqlite:///tmp/b.sqlite' }, { kind: 'sqlite', file: '/tmp/b.sqlite' }],
    [{ databaseUrl: 'sqlite:rel/c.sqlite' }, { kind: 'sqlite', file: resolve('rel/c.sqlite') }],
    [{ databaseUrl: 'sqlite::memory:' }, { kind: 'sqlite', file: ':memory:' }],
    [{ databaseUrl: 'postgres://u:p@h:5432/db' }, { kind: 'postgres', url: 'postgres://u:p@h:5432/db' }],
    [{ databaseUrl: 'postgresql://h/db' }, { kind: 'postgres', url: 'postgresql://h/db' }],
    [{ databaseUrl: 'memory:' }, { kind: 'memory' }],
  ])('%j → %j', (options, location) => {
    expect(locateStore(options)).toEqual(location);
  });

  test('an unknown scheme throws without echoing the password', () => {
    expect(() => locateStore({ databaseUrl: 'mysql://root:secret@h/db' })).toThrow(/unknown scheme/);
    expect(() => locateStore({ databaseUrl: 'mysql://root:secret@h/db' })).not.toThrow(/secret/);
    expect(() => locateStore({ databaseUrl: 'sqlite:' })).toThrow(/file path/);
  });

  test('DATABASE_POOL_MAX: a pool size from 1 to 9999, anything else refused', () => {
    expect(storeOptionsFromEnv({ DATABASE_URL: 'postgres://h/db' })).toEqual({ databaseUrl: 'postgres://h/db', dataDir: undefined });
    expect(storeOptionsFromEnv({ DATABASE_POOL_MAX: ' 30 ' }).poolMax).toBe(30);
    for (const bad of ['0', '-1', '1.5', 'ten', '10000']) expect(() => storeOptionsFromEnv({ DATABASE_POOL_MAX: bad })).toThrow(/DATABASE_POOL_MAX/);
  });

  test('the default store creates DATA_DIR and its djambi.sqlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'djambi-open-'));
    const dataDir = join(dir, 'nested', 'data');
    const store = await openStore({ dataDir });
    expect(store).toBeInstanceOf(SqliteStore);
    expect(existsSync(join(dataDir, 'djambi.sqlite'))).toBe(true);
    await store.close();
    expect(await openStore({ databaseUrl: 'memory:' })).toBeInstanceOf(MemoryStore);
    rmSync(dir, { recursive: true, force: true });
  });
});
