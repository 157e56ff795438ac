/**
 * Batched loads of the PostgreSQL store. When a process takes over the games of a dead one,
 * hundreds of `load` calls come at once (each re-opened room replays its game from the log);
 * queued and sent as one pair of queries per batch (`= ANY($1)`), they cost a few round trips and
 * pooled connections instead of two per game, and leave the pool to the rooms' appends. Like the
 * appends (`pgAppends.ts`), a batch is sent on the next microtask, with `maxInFlight` batches out
 * at once; a load resolves with what was committed when its batch ran. A second queue of the
 * same kind batches the games' rows alone (`listGames`: a takeover asks each game's status first).
 * A game's log is read up to its first gap or unreadable payload (`readLog`): one broken log
 * never fails the other loads of its batch.
 */
import type pg from 'pg';
import type { LogBreak, MatchEvent } from '../match/match.js';
import type { GameRow } from './migrations.js';
import { readLog } from './rows.js';

const GAMES_SQL = 'SELECT id, status, visibility, options, created_at, finished_at, summary FROM games WHERE id = ANY($1::text[])';
const EVENTS_SQL = 'SELECT game_id, seq, payload FROM events WHERE game_id = ANY($1::text[]) ORDER BY game_id, seq';

/** A game's row and (with `log`) its events in order, up to `broken` (`StoredGame.broken`). */
export interface Loaded {
  readonly row: GameRow;
  readonly events: MatchEvent[];
  readonly broken: LogBreak | null;
}

interface Waiter {
  readonly code: string;
  readonly resolve: (game: Loaded | null) => void;
  readonly reject: (err: unknown) => void;
}

/** A game's row without its log (`listGames`), or its whole log too (`load`). */
export type LoadKind = 'row' | 'log';

/** The queue of one store's loads. */
export class LoadQueue {
  private queue: Waiter[] = [];
  private inFlight = 0;
  private scheduled = false;
  private counts = { batches: 0, loads: 0 };

  constructor(
    private readonly pool: pg.Pool,
    /** `row`: the games' rows only (their `events` are empty); `log`: with their logs. */
    private readonly kind: LoadKind = 'log',
    /** Batches out at once (default 2). */
    private readonly maxInFlight = 2,
    /** Games in one batch at most (default 250). */
    private readonly maxGames = 250,
  ) {}

  /** The row of `code` with (`log`) its whole log, or null when unknown; rejects with the driver's error. */
  load(code: string): Promise<Loaded | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ code, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.flush();
      });
    });
  }

  /** Batches sent and loads answered so far. */
  stats(): { readonly batches: number; readonly loads: number } {
    return { ...this.counts };
  }

  private flush(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch: Waiter[] = [];
      const codes = new Set<string>();
      while (this.queue.length > 0 && (codes.size < this.maxGames || codes.has(this.queue[0]!.code))) {
        const w = this.queue.shift()!;
        batch.push(w);
        codes.add(w.code);
      }
      this.inFlight++;
      void this.run(batch, [...codes]).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  private async run(batch: readonly Waiter[], codes: string[]): Promise<void> {
    this.counts.batches++;
    let games: Map<string, Loaded>;
    try {
      const [rows, events] = await Promise.all([
        this.pool.query<GameRow>(GAMES_SQL, [codes]),
        this.kind === 'log' ? this.pool.query<{ game_id: string; seq: number; payload: string }>(EVENTS_SQL, [codes]) : { rows: [] },
      ]);
      const logs = new Map<string, [number, string][]>();
      for (const e of events.rows) {
        let log = logs.get(e.game_id);
        if (!log) logs.set(e.game_id, (log = []));
        log.push([e.seq, e.payload]);
      }
      games = new Map(rows.rows.map((row) => [row.id, { row, ...readLog(logs.get(row.id) ?? []) }]));
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    this.counts.loads += batch.length;
    const handed = new Set<string>();
    for (const w of batch) {
      const game = games.get(w.code) ?? null;
      // Each caller gets its own events (a caller may keep and change them).
      w.resolve(game && handed.has(w.code) ? { ...game, events: structuredClone(game.events) } : game);
      handed.add(w.code);
    }
  }
}
