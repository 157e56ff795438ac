/**
 * The games a process can serve: live rooms, and games in the log that it can re-open under
 * their code (a restart, an idle room disposed from memory, a process that died). A game in the
 * store but not live is re-opened on the first join or lookup of its code, and at boot the
 * unfinished games people sat at, newest first, up to a working set; a finished game is read from the store, and re-opened only while a rematch offer
 * made in it is open (its log ends with an offer before its deadline).
 */
import { matchMaker } from '@colyseus/core';
import { recordTags } from '@djambi/shared';
import type { Match } from '../match/match.js';
import { offerPending } from '../match/rematchVote.js';
import type { GameStore, StoredGame } from '../store/types.js';
import { validPrefix } from '../table/journal.js';

/** Room name of the game rooms. */
/** The create options server code uses to re-open a stored game (`{ restore: { code, token } }`). */
export function restoreOptions(code: string, token: string): { restore: { code: string; token: string } } {
  return { restore: { code, token } };
}

/** The code of a re-open request carrying this process's token, or null (a client's create). */
export function restoreRequest(options: unknown, token: string): string | null {
  if (!token || options === null || typeof options !== 'object') return null;
  const r = (options as { restore?: unknown }).restore;
  if (r === null || typeof r !== 'object') return null;
  const { code, token: given } = r as { code?: unknown; token?: unknown };
  return typeof code === 'string' && given === token ? code : null;
}

export const ROOM_NAME = 'djambi';

/** What `reopen` found. */
export type Reopened = 'live' | 'reopened' | 'finished' | 'unknown';

/** Games re-opened between two yields to the event loop during the boot restore. */
export const RESTORE_BATCH = 25;

/**
 * Games re-opened at once on demand (joins and lookups of codes that are not live). Past it, a
 * request waits its turn, first come first served: when a process takes over a dead one's games,
 * hundreds of joins ask at once, and opened all together each took nearly as long as all of them
 * (every step of every re-open interleaved); in turn, most games are back well before the last.
 */
export const REOPEN_PARALLEL = 16;

/** Runs at most `max` tasks at once; the others wait their turn, first come first served. */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Tasks running now, and waiting for a slot. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finished task hands its slot to the next waiting one (`running` stays as it is).
    if (this.running < this.max) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** Resolves after the event loop has run pending I/O (and timers) once. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How the directory shares games with other processes (`cluster/cluster.ts`); by default it is alone. */
export interface DirectoryPeers {
  /** Whether the room of `code` is live on a living process (a dead one's listing does not count). */
  isLive(code: string): Promise<boolean>;
  /** Runs `reopen` under the cluster-wide lock of `code`; null when another process made it live meanwhile. */
  exclusive<T>(code: string, reopen: () => Promise<T>): Promise<T | null>;
}

const ALONE: DirectoryPeers = {
  isLive: async (code) => (await matchMaker.getRoomById(code)) !== undefined,
  exclusive: (_code, reopen) => reopen(),
};

/** The live and stored games of one process. */
export class GameDirectory {
  private readonly opening = new Map<string, Promise<Reopened>>();
  /** The re-opens on demand (`open`), `REOPEN_PARALLEL` at once. */
  private readonly slots = new Limiter(REOPEN_PARALLEL);
  /** Games this process re-opened from the log (on demand and at boot), for the metrics. */
  private reopenedCount = 0;

  constructor(
    readonly store: GameStore | null,
    private readonly token: string,
    private readonly peers: DirectoryPeers = ALONE,
    /** The rooms' clock, epoch ms (a finished game's rematch deadline). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Makes the game of `code` live if the store has it unfinished (once, however many ask at once). */
  reopen(code: string): Promise<Reopened> {
    let pending = this.opening.get(code);
    if (!pending) {
      pending = this.open(code).finally(() => this.opening.delete(code));
      this.opening.set(code, pending);
    }
    return pending;
  }

  /**
   * The boot restore: deletes what crashed processes left of rooms nobody sat at (made before
   * `unseatedBefore`, epoch ms, with no event since), then re-opens the working set: up to
   * `limit` unfinished games somebody sat at, newest activity first. Any other unfinished game
   * re-opens on the first join or lookup of its code. Returns how many and how long it took.
   * Games are re-opened in batches of `RESTORE_BATCH`, yielding to the event loop between
   * batches, so the server answers `/healthz`, lookups and joins during a long boot restore. A
   * code that a join is re-opening meanwhile (`reopen`) is waited for, not opened twice.
   */
  async restoreAll(options: {
    readonly limit: number;
    readonly unseatedBefore: number;
  }): Promise<{ restored: number; failed: number; swept: number; ms: number }> {
    const t0 = performance.now();
    let restored = 0;
    let failed = 0;
    let swept = 0;
    try {
      swept = this.store ? await this.store.sweepUnseated(options.unseatedBefore) : 0;
    } catch (e) {
      console.error('[djambi] could not sweep the games nobody joined:', e);
    }
    const codes = this.store ? await this.store.resumable(options.limit) : [];
    for (let i = 0; i < codes.length; i++) {
      if (i > 0 && i % RESTORE_BATCH === 0) await yieldToEventLoop();
      const code = codes[i];
      try {
        await this.restoreOne(code);
        restored++;
      } catch (e) {
        failed++;
        console.error(`[djambi] could not restore ${code}:`, e);
      }
    }
    return { restored, failed, swept, ms: performance.now() - t0 };
  }

  /** Re-opens a game known to be unfinished (no store lookup before it), unless a join is opening it or it is live. */
  private restoreOne(code: string): Promise<Reopened> {
    let pending = this.opening.get(code);
    if (!pending) {
      pending = this.create(code).finally(() => this.opening.delete(code));
      this.opening.set(code, pending);
    }
    return pending;
  }

  /** Creates the room of a stored game (`live` when another request made it live meanwhile). */
  private async create(code: string): Promise<Reopened> {
    try {
      await matchMaker.createRoom(ROOM_NAME, restoreOptions(code, this.token));
      this.reopenedCount++;
      return 'reopened';
    } catch (e) {
      // Another request (or process) re-opened it meanwhile.
      if (await matchMaker.getRoomById(code)) return 'live';
      throw e;
    }
  }

  /** Games re-opened from the log so far, and the re-opens on demand running and waiting now (`djambi_reopens`). */
  get reopens(): { readonly total: number; readonly running: number; readonly waiting: number } {
    return { total: this.reopenedCount, ...this.slots.load };
  }

  /**
   * The stored game of `code`, live or not, its log read as its longest valid prefix (null when
   * unknown or without a store). A read moves nothing: the room that re-opens the game does.
   */
  async stored(code: string): Promise<StoredGame | null> {
    const game = this.store ? await this.store.load(code) : null;
    return game && validPrefix(game).game;
  }

  /** A stored game (its log's longest valid prefix) and its match replayed from it, once. */
  async replayed(code: string): Promise<{ readonly game: StoredGame; readonly match: Match } | null> {
    const game = this.store ? await this.store.load(code) : null;
    if (!game) return null;
    const valid = validPrefix(game);
    return { game: valid.game, match: valid.match };
  }

  /**
   * The game record of a stored game (its log's longest valid prefix) as text (docs/NOTATION.md,
   * with its tags; `site`: the game's address) and as JSON.
   */
  async record(code: string, site?: string): Promise<{ text: string; json: unknown } | null> {
    const replay = await this.replayed(code);
    if (!replay) return null;
    const info = replay.match.recordInfo(site, replay.game.createdAt);
    const record = replay.match.game.record();
    return { text: replay.match.game.recordText(info), json: { ...record, tags: recordTags(record, info, replay.match.game.position) } };
  }

  private async open(code: string): Promise<Reopened> {
    // A live game (every join of a live room asks) never waits for a slot.
    if (await this.peers.isLive(code)) return 'live';
    return this.slots.run(() => this.openStored(code));
  }

  /** Whether a finished game's rematch offer is still open: its room comes back for the vote (reads its log). */
  private async rematchPending(code: string): Promise<boolean> {
    const game = await this.stored(code);
    return game !== null && offerPending(game.events, this.now());
  }

  /** `open` once the game is known not to be live. */
  private async openStored(code: string): Promise<Reopened> {
    // The game's row only: its log is loaded once, by the room that replays it.
    const [game] = this.store ? await this.store.listGames([code]) : [];
    if (!game) return 'unknown';
    if (game.status === 'finished' && !(await this.rematchPending(code))) return 'finished';
    const opened = await this.peers.exclusive(code, async (): Promise<Reopened> => {
      if (await this.peers.isLive(code)) return 'live';
      return this.create(code);
    });
    return opened ?? 'live';
  }
}
