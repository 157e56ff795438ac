/**
 * Group commit of the PostgreSQL store's appends. Every `appendMany` of the process (all its
 * rooms) joins a queue; a flush writes what is queued as ONE statement (one commit, one WAL
 * flush), and while `maxInFlight` flushes are out the next batch accumulates. A busy process's
 * appends then cost a few tens of commits a second instead of one transaction (BEGIN, one INSERT
 * per event, COMMIT: 3+ round trips holding a pooled connection) each.
 *
 * The statement keeps `appendMany`'s semantics per call (a "group"): it inserts a group's rows
 * only when the game exists and the group's first seq follows the game's last stored one, and
 * answers per group. A group of an unknown game rejects with `StoreUnavailable`, one that does
 * not follow the log with `Fenced`; the other groups of the batch are written. When the batch
 * statement fails on a constraint (two hosts inserting the same seq at once: the (game, seq) key
 * is the fence against a stale host) or on one group's data, nothing of the batch is in the log
 * (one statement, one transaction) and every group is tried again alone, so only the offending
 * one is refused and no group is ever partly written. Any other failure (the database down, the
 * connection lost) rejects every group of the batch with `StoreUnavailable`.
 *
 * A game has at most one group in flight: a second call for a game whose earlier call is not
 * answered waits for the next batch (the rooms' journals already send one at a time).
 *
 * The judging statement costs PostgreSQL as much planning as execution (its parameters are
 * arrays: it is planned again on each call). So once this queue has written a game's seq N, a
 * batch whose every group goes on from where this queue left its game is a plain insert
 * (`APPEND_PLAIN_SQL`): the (game, seq) key still fences another host that appended meanwhile
 * (the batch then fails on the key, and each group is tried alone with the judging statement,
 * which answers `Fenced`), and a game's first append by this process, or any group that does not
 * go on from the queue's last write, is judged.
 */
import type pg from 'pg';
import type { MatchEvent } from '../match/match.js';
import { Fenced, StoreUnavailable } from './types.js';

/**
 * The batch append. `$1` group index per row, `$2` game, `$3` seq, `$4` payload, `$5` time. A
 * group is admitted when its game exists and its first seq is the game's last stored seq + 1;
 * one row per group comes back with both verdicts. Rows are inserted in (game, seq) order, so two
 * hosts' concurrent batches take the key's index entries in the same order.
 */
export const APPEND_BATCH_SQL = `WITH input AS (
  SELECT t.g, t.game_id, t.seq, t.payload, t.at
  FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::bigint[]) AS t(g, game_id, seq, payload, at)
), groups AS (
  SELECT g, min(game_id) AS game_id, min(seq) AS first FROM input GROUP BY g
), judged AS (
  SELECT g, game_id,
    EXISTS (SELECT 1 FROM games WHERE games.id = groups.game_id) AS known,
    (SELECT COALESCE(max(e.seq), 0) FROM events e WHERE e.game_id = groups.game_id) = groups.first - 1 AS follows
  FROM groups
), inserted AS (
  INSERT INTO events (game_id, seq, payload, at)
  SELECT i.game_id, i.seq, i.payload, i.at FROM input i JOIN judged j ON j.g = i.g WHERE j.known AND j.follows
  ORDER BY i.game_id, i.seq
  RETURNING 1
)
SELECT g, known, follows FROM judged`;

/**
 * The plain batch append: `$1` game, `$2` seq, `$3` payload, `$4` time per row, in (game, seq)
 * order. Its groups are known to go on from this queue's last write of their games.
 */
export const APPEND_PLAIN_SQL = `INSERT INTO events (game_id, seq, payload, at)
SELECT t.game_id, t.seq, t.payload, t.at
FROM unnest($1::text[], $2::int[], $3::text[], $4::bigint[]) AS t(game_id, seq, payload, at)
ORDER BY t.game_id, t.seq`;

/** Games whose last written seq a queue remembers; past this, it forgets them all (they are judged again). */
const KNOWN_GAMES = 50_000;

/** SQLSTATE classes and codes after which each group of a failed batch is tried alone. */
const RETRY_ALONE = (code: string | undefined): boolean =>
  code !== undefined && (code.startsWith('23') || code.startsWith('22') || code === '40P01' || code === '40001');

/** One `appendMany` call waiting in the queue. */
interface Group {
  readonly code: string;
  readonly firstSeq: number;
  readonly payloads: readonly string[];
  readonly ats: readonly number[];
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

/** What a flush answers for one group. */
type Verdict = 'ok' | 'fenced' | 'unknown';

/** Counters of the queue (tests, diagnostics). */
export interface AppendStats {
  /** Batch statements sent (retries of single groups included). */
  readonly statements: number;
  /** Groups (`appendMany` calls) answered. */
  readonly groups: number;
  /** Largest batch, in groups. */
  readonly largest: number;
  /** Batches that failed on a constraint or data and were tried again group by group. */
  readonly split: number;
  /** Statements that were plain inserts (every group going on from this queue's last write). */
  readonly plain: number;
}

/** The queue of one store's appends. */
export class AppendQueue {
  private readonly queue: Group[] = [];
  /** Games with a group in flight. */
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;
  private idle: (() => void)[] = [];
  private counts = { statements: 0, groups: 0, largest: 0, split: 0, plain: 0 };
  /** The last seq this queue wrote of each game (see the module's comment). */
  private readonly lastSeqs = new Map<string, number>();

  constructor(
    private readonly pool: pg.Pool,
    /** Batches written at once (default 2). */
    private readonly maxInFlight = 2,
    /** Rows in one batch at most (default 2,000). */
    private readonly maxRows = 2000,
  ) {}

  /** Queues the events of one call; resolves once they are committed (see the module's comment for the rejections). */
  append(code: string, firstSeq: number, events: readonly MatchEvent[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ code, firstSeq, payloads: events.map((e) => JSON.stringify(e)), ats: events.map((e) => e.at), resolve, reject });
      this.schedule();
    });
  }

  /** The counters so far. */
  stats(): AppendStats {
    return { ...this.counts };
  }

  /** Resolves once nothing is queued or in flight. */
  drain(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Flushes on the next microtask, so that the calls of one tick share a batch. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.maxInFlight) {
      const batch = this.take();
      if (batch.length === 0) break;
      this.inFlight++;
      for (const g of batch) this.busy.add(g.code);
      void this.write(batch).finally(() => {
        for (const g of batch) this.busy.delete(g.code);
        this.inFlight--;
        if (this.queue.length > 0) this.flush();
        if (this.queue.length === 0 && this.inFlight === 0) for (const done of this.idle.splice(0)) done();
      });
    }
  }

  /** The next batch: queued groups in order, one per game, none of a game in flight, up to `maxRows` rows (at least one group). */
  private take(): Group[] {
    const batch: Group[] = [];
    const games = new Set<string>();
    let rows = 0;
    for (let i = 0; i < this.queue.length; ) {
      const g = this.queue[i]!;
      if (this.busy.has(g.code) || games.has(g.code) || (batch.length > 0 && rows + g.payloads.length > this.maxRows)) {
        i++;
        continue;
      }
      batch.push(g);
      games.add(g.code);
      rows += g.payloads.length;
      this.queue.splice(i, 1);
      if (rows >= this.maxRows) break;
    }
    return batch;
  }

  /** Writes one batch and settles each of its groups. */
  private async write(batch: readonly Group[]): Promise<void> {
    this.counts.largest = Math.max(this.counts.largest, batch.length);
    const plain = batch.every((g) => this.lastSeqs.get(g.code) === g.firstSeq - 1);
    let verdicts: Verdict[];
    try {
      verdicts = plain ? await this.plainStatement(batch) : await this.statement(batch);
    } catch (err) {
      // A plain batch is judged group by group, even one group alone (a key violation: Fenced).
      if ((batch.length > 1 || plain) && RETRY_ALONE(pgCode(err))) {
        this.counts.split++;
        await Promise.all(batch.map((g) => this.alone(g)));
        return;
      }
      for (const g of batch) this.settle(g, err);
      return;
    }
    for (const [i, g] of batch.entries()) this.settle(g, verdicts[i]!);
  }

  /** One group as a batch of its own (after its batch failed). */
  private async alone(g: Group): Promise<void> {
    try {
      const [verdict] = await this.statement([g]);
      this.settle(g, verdict!);
    } catch (err) {
      this.settle(g, err);
    }
  }

  private settle(g: Group, outcome: Verdict | unknown): void {
    this.counts.groups++;
    if (outcome === 'ok') {
      if (this.lastSeqs.size >= KNOWN_GAMES && !this.lastSeqs.has(g.code)) this.lastSeqs.clear();
      this.lastSeqs.set(g.code, g.firstSeq + g.payloads.length - 1);
      g.resolve();
      return;
    }
    this.lastSeqs.delete(g.code);
    if (outcome === 'fenced') g.reject(new Fenced(g.code, g.firstSeq));
    else if (outcome === 'unknown') g.reject(new StoreUnavailable(`append: unknown game ${g.code}`));
    // A key violation of a group alone: another host appended this seq meanwhile.
    else if (pgCode(outcome) === UNIQUE_VIOLATION) g.reject(new Fenced(g.code, g.firstSeq));
    else g.reject(new StoreUnavailable(`append: ${(outcome as Error).message}`, { cause: outcome }));
  }

  /** Runs the plain batch insert (see `APPEND_PLAIN_SQL`): every group is written, or the statement fails. */
  private async plainStatement(batch: readonly Group[]): Promise<Verdict[]> {
    this.counts.statements++;
    this.counts.plain++;
    const { codes, seqs, payloads, ats } = rowsOf(batch);
    await this.pool.query({ name: 'djambi_append_plain', text: APPEND_PLAIN_SQL, values: [codes, seqs, payloads, ats] });
    return batch.map(() => 'ok');
  }

  /** Runs the batch statement; the verdict of each group, in order. */
  private async statement(batch: readonly Group[]): Promise<Verdict[]> {
    this.counts.statements++;
    const { g, codes, seqs, payloads, ats } = rowsOf(batch);
    const res = await this.pool.query<{ g: number; known: boolean; follows: boolean }>({
      name: 'djambi_append_batch',
      text: APPEND_BATCH_SQL,
      values: [g, codes, seqs, payloads, ats],
    });
    const out: Verdict[] = batch.map(() => 'fenced');
    for (const row of res.rows) out[row.g] = !row.known ? 'unknown' : row.follows ? 'ok' : 'fenced';
    return out;
  }
}

/** A batch's rows as the statements' array parameters: group index, game, seq, payload, time. */
function rowsOf(batch: readonly Group[]): { g: number[]; codes: string[]; seqs: number[]; payloads: string[]; ats: number[] } {
  const rows = { g: [] as number[], codes: [] as string[], seqs: [] as number[], payloads: [] as string[], ats: [] as number[] };
  for (const [i, group] of batch.entries()) {
    for (let k = 0; k < group.payloads.length; k++) {
      rows.g.push(i);
      rows.codes.push(group.code);
      rows.seqs.push(group.firstSeq + k);
      rows.payloads.push(group.payloads[k]!);
      rows.ats.push(group.ats[k]!);
    }
  }
  return rows;
}

/** PostgreSQL's SQLSTATE for a duplicate key. */
export const UNIQUE_VIOLATION = '23505';

/** The SQLSTATE of a `pg` error, if it has one. */
export function pgCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
