/**
 * In-memory stores: `MemoryStore` (tests, `--store none`: nothing survives the process) and
 * `FaultyStore`, a wrapper that injects failures into another store on demand.
 */
import type { MatchEvent } from '../match/match.js';
import type { RoomConfig } from '../match/config.js';
import { byNewest, checkSeq, readLog } from './rows.js';
import {
  CodeTaken,
  Fenced,
  type GameInfo,
  type GameStore,
  type GameSummary,
  type Quarantined,
  type QuarantinedEvent,
  type StoredGame,
  StoreUnavailable,
} from './types.js';

interface MemoryGame {
  info: GameInfo;
  /** Somebody sat at the game (`markSeated`). */
  seated: boolean;
  readonly config: string;
  /** The log's payloads (JSON text), seq `i + 1` at index `i`. */
  readonly events: string[];
  readonly times: number[];
  readonly quarantine: QuarantinedEvent[];
}

/** A `GameStore` in a Map, with the SQL stores' semantics (values are copied in and out as JSON). */
export class MemoryStore implements GameStore {
  private readonly games = new Map<string, MemoryGame>();
  private closed = false;

  async createGame(code: string, config: RoomConfig, createdAt: number): Promise<void> {
    this.checkOpen('createGame');
    if (this.games.has(code)) throw new CodeTaken(code);
    const info: GameInfo = { code, status: 'open', visibility: config.visibility, createdAt, finishedAt: null, summary: null };
    this.games.set(code, { info, seated: false, config: JSON.stringify(config), events: [], times: [], quarantine: [] });
  }

  async append(code: string, seq: number, event: MatchEvent): Promise<void> {
    await this.appendMany(code, seq, [event]);
  }

  async appendMany(code: string, firstSeq: number, events: readonly MatchEvent[]): Promise<void> {
    checkSeq(firstSeq);
    this.checkOpen('append');
    const game = this.games.get(code);
    if (!game) throw new StoreUnavailable(`append: unknown game ${code}`);
    if (events.length === 0) return;
    if (firstSeq !== game.events.length + 1) throw new Fenced(code, firstSeq);
    for (const event of events) {
      game.events.push(JSON.stringify(event));
      game.times.push(event.at);
    }
  }

  async finish(code: string, finishedAt: number, summary: GameSummary): Promise<void> {
    this.checkOpen('finish');
    const game = this.games.get(code);
    if (!game) throw new StoreUnavailable(`finish: unknown game ${code}`);
    game.info = { ...game.info, status: 'finished', finishedAt, summary: JSON.parse(JSON.stringify(summary)) as GameSummary };
  }

  async load(code: string): Promise<StoredGame | null> {
    this.checkOpen('load');
    const game = this.games.get(code);
    if (!game) return null;
    const { status, createdAt, finishedAt } = game.info;
    const { events, broken } = readLog(game.events.map((payload, i) => [i + 1, payload] as const));
    return { code, config: JSON.parse(game.config) as RoomConfig, status, createdAt, finishedAt, events, broken, seated: game.seated };
  }

  async quarantine(code: string, fromSeq: number, reason: string): Promise<Quarantined> {
    checkSeq(fromSeq);
    this.checkOpen('quarantine');
    const game = this.games.get(code);
    const where = 'quarantined_events of the in-memory store (lost when the process ends)';
    if (!game || game.events.length < fromSeq) return { moved: 0, where };
    const at = Date.now();
    const moved = game.events.splice(fromSeq - 1);
    const times = game.times.splice(fromSeq - 1);
    for (const [i, payload] of moved.entries()) game.quarantine.push({ seq: fromSeq + i, payload, at: times[i]!, reason, quarantinedAt: at });
    return { moved: moved.length, where };
  }

  async quarantined(code: string): Promise<QuarantinedEvent[]> {
    this.checkOpen('quarantined');
    return (this.games.get(code)?.quarantine ?? []).map((q) => ({ ...q }));
  }

  async unfinished(options: { readonly activeSince?: number } = {}): Promise<string[]> {
    this.checkOpen('unfinished');
    const since = options.activeSince;
    return [...this.games.values()]
      .filter((g) => g.info.status !== 'finished' && (since === undefined || g.info.createdAt >= since || g.times.some((t) => t >= since)))
      .sort((a, b) => a.info.createdAt - b.info.createdAt || (a.info.code < b.info.code ? -1 : 1))
      .map((g) => g.info.code);
  }

  async markSeated(code: string): Promise<void> {
    this.checkOpen('markSeated');
    const game = this.games.get(code);
    if (game) game.seated = true;
  }

  async resumable(limit: number): Promise<string[]> {
    this.checkOpen('resumable');
    const active = (g: MemoryGame) => g.times[g.times.length - 1] ?? g.info.createdAt;
    return [...this.games.values()]
      .filter((g) => g.seated && g.info.status !== 'finished')
      .sort((a, b) => active(b) - active(a) || (a.info.code < b.info.code ? -1 : 1))
      .slice(0, Math.max(0, Math.floor(limit)))
      .map((g) => g.info.code);
  }

  async discardUnseated(code: string): Promise<boolean> {
    this.checkOpen('discardUnseated');
    const game = this.games.get(code);
    if (!game || game.seated || game.info.status === 'finished') return false;
    return this.games.delete(code);
  }

  async sweepUnseated(before: number): Promise<number> {
    this.checkOpen('sweepUnseated');
    let swept = 0;
    for (const [code, g] of this.games) {
      if (g.seated || g.info.status === 'finished' || g.info.createdAt >= before || g.times.some((t) => t >= before)) continue;
      this.games.delete(code);
      swept++;
    }
    return swept;
  }

  async listGames(codes: readonly string[]): Promise<GameInfo[]> {
    this.checkOpen('listGames');
    return [...new Set(codes)].flatMap((code) => this.games.get(code)?.info ?? []).sort(byNewest);
  }

  async recentFinished(options: { readonly limit: number; readonly publicOnly: boolean }): Promise<GameInfo[]> {
    this.checkOpen('recentFinished');
    return [...this.games.values()]
      .map((g) => g.info)
      .filter((g) => g.status === 'finished' && (!options.publicOnly || g.visibility === 'public'))
      .sort((a, b) => b.finishedAt! - a.finishedAt! || (a.code < b.code ? -1 : 1))
      .slice(0, Math.max(0, Math.floor(options.limit)));
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private checkOpen(what: string): void {
    if (this.closed) throw new StoreUnavailable(`${what}: the store is closed`);
  }
}

/** Which calls a `FaultyStore` lets through. */
export type FaultMode = 'ok' | 'read_only' | 'down';

/**
 * Wraps a store and fails on demand: `failAppends(n)` fails the next `n` appends, `mode('read_only')`
 * rejects every write and `mode('down')` every call, all with `StoreUnavailable` (or `Fenced`).
 * Calls let through reach the wrapped store unchanged.
 */
export class FaultyStore implements GameStore {
  private current: FaultMode = 'ok';
  private appendFaults = 0;
  private appendFault: 'unavailable' | 'fenced' = 'unavailable';
  /** Appends attempted (including failed ones). */
  appendCalls = 0;

  constructor(readonly inner: GameStore) {}

  /** Sets which calls pass: all (`ok`), reads only (`read_only`) or none (`down`). */
  mode(mode: FaultMode): this {
    this.current = mode;
    return this;
  }

  /** Fails the next `count` appends (default: every one until `heal`), as `StoreUnavailable` or `Fenced`. */
  failAppends(count = Number.POSITIVE_INFINITY, as: 'unavailable' | 'fenced' = 'unavailable'): this {
    this.appendFaults = count;
    this.appendFault = as;
    return this;
  }

  /** Clears every fault. */
  heal(): this {
    this.current = 'ok';
    this.appendFaults = 0;
    return this;
  }

  async createGame(code: string, config: RoomConfig, createdAt: number): Promise<void> {
    this.gate('createGame', true);
    return this.inner.createGame(code, config, createdAt);
  }

  async append(code: string, seq: number, event: MatchEvent): Promise<void> {
    this.appendCalls++;
    this.gateAppend(code, seq);
    return this.inner.append(code, seq, event);
  }

  async appendMany(code: string, firstSeq: number, events: readonly MatchEvent[]): Promise<void> {
    this.appendCalls++;
    this.gateAppend(code, firstSeq);
    return this.inner.appendMany(code, firstSeq, events);
  }

  async finish(code: string, finishedAt: number, summary: GameSummary): Promise<void> {
    this.gate('finish', true);
    return this.inner.finish(code, finishedAt, summary);
  }

  async load(code: string): Promise<StoredGame | null> {
    this.gate('load', false);
    return this.inner.load(code);
  }

  async quarantine(code: string, fromSeq: number, reason: string): Promise<Quarantined> {
    this.gate('quarantine', true);
    return this.inner.quarantine(code, fromSeq, reason);
  }

  async quarantined(code: string): Promise<QuarantinedEvent[]> {
    this.gate('quarantined', false);
    return this.inner.quarantined(code);
  }

  async unfinished(options?: { readonly activeSince?: number }): Promise<string[]> {
    this.gate('unfinished', false);
    return this.inner.unfinished(options);
  }

  async markSeated(code: string): Promise<void> {
    this.gate('markSeated', true);
    return this.inner.markSeated(code);
  }

  async resumable(limit: number): Promise<string[]> {
    this.gate('resumable', false);
    return this.inner.resumable(limit);
  }

  async discardUnseated(code: string): Promise<boolean> {
    this.gate('discardUnseated', true);
    return this.inner.discardUnseated(code);
  }

  async sweepUnseated(before: number): Promise<number> {
    this.gate('sweepUnseated', true);
    return this.inner.sweepUnseated(before);
  }

  async listGames(codes: readonly string[]): Promise<GameInfo[]> {
    this.gate('listGames', false);
    return this.inner.listGames(codes);
  }

  async recentFinished(options: { readonly limit: number; readonly publicOnly: boolean }): Promise<GameInfo[]> {
    this.gate('recentFinished', false);
    return this.inner.recentFinished(options);
  }

  async close(): Promise<void> {
    return this.inner.close();
  }

  private gate(what: string, write: boolean): void {
    if (this.current === 'down' || (write && this.current === 'read_only')) throw new StoreUnavailable(`${what}: injected fault (${this.current})`);
  }

  private gateAppend(code: string, seq: number): void {
    this.gate('append', true);
    if (this.appendFaults <= 0) return;
    this.appendFaults--;
    if (this.appendFault === 'fenced') throw new Fenced(code, seq);
    throw new StoreUnavailable('append: injected fault');
  }
}
