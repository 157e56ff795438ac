/**
 * The journal of one table: its match, and every intent applied to it one at a time, in order
 * (each judged in a per-table chain against the state every earlier one left), with the accepted
 * events appended to the game log before anybody sees them. A failed append undoes the intent
 * (the match is rebuilt from the log without it); a throw from the match (a broken invariant)
 * does the same. A stored game re-opens from its log's longest valid prefix (`validPrefix`);
 * the events after it are moved to the store's quarantine first.
 */
import type { Colour } from '@djambi/shared';
import { JoinRefused, type Rejection } from '../errors.js';
import { type Accepted, type Intent, type LogBreak, Match } from '../match/match.js';
import { offerPending } from '../match/rematchVote.js';
import { type GameStore, type GameSummary, isStoreError, type StoredGame } from '../store/types.js';

/** Where game codes are kept unique (the process's, or the cluster's, presence). */
export interface GameCodes {
  /** A fresh code, reserved. */
  reserve(): Promise<string>;
  /** Gives a code back. */
  release(code: string): Promise<void>;
  /** Marks a stored game's code as in use again (a re-open). */
  claim(code: string): Promise<void>;
}

/** What the store keeps of a finished game for the lists: result, players' names, moves. */
export function summaryOf(match: Match): GameSummary {
  const players: Partial<Record<Colour, string>> = {};
  for (const seat of match.seats.seats.values()) if (seat.keyHash !== null) players[seat.colour] = seat.name;
  return { result: match.position.result, players, moves: match.game.length };
}

/** A store failure while creating or re-opening a game, as a join refusal. */
function storageError(e: unknown): JoinRefused {
  console.error('[djambi] store failure:', e);
  return new JoinRefused('storage_unavailable', 'the game store is unavailable; try again');
}

/**
 * A stored game read as its log's longest valid prefix: the game with `events` cut to it, its
 * match, and where the log breaks (a gap or unreadable payload the store found, or the first event
 * `Match.restoreValid` refuses), or null. Moves nothing: `Journal.reopen` quarantines the rest.
 */
export function validPrefix(stored: StoredGame): { game: StoredGame; match: Match; broken: LogBreak | null } {
  const { match, broken } = Match.restoreValid(stored.config, stored.events);
  // The match judges only the events before the store's break, so its own break comes first.
  const end = broken ?? stored.broken;
  const game = end === null ? stored : { ...stored, events: stored.events.slice(0, end.seq - 1), broken: end };
  return { game, match, broken: end };
}

/** What became of an intent: accepted and saved, or refused (with `fenced` when another process holds the game). */
export type Entry = { readonly ok: true; readonly out: Accepted } | { readonly ok: false; readonly rejection: Rejection; readonly fenced?: true };

const UNSAVED: Rejection = { code: 'storage_unavailable', message: 'the game could not be saved: nothing changed; try again' };
const BROKEN: Rejection = { code: 'internal_error', message: 'the server could not process this message' };

/** A match and its log. */
export class Journal {
  private chain: Promise<unknown> = Promise.resolve();
  /** Intents submitted to the chain and not yet done. */
  private queued = 0;
  /** The store knows the game is finished. */
  private finished = false;
  /** Somebody has sat at the game (the store knows it: `markSeated`). */
  private seated = false;

  private constructor(
    private current: Match,
    readonly code: string,
    private readonly store: GameStore | null,
    private readonly now: () => number,
  ) {}

  /** A new game under a fresh code, unique in `codes` and, with a store, in the log (its primary key). */
  static async create(match: Match, createdAt: number, codes: GameCodes, store: GameStore | null, now: () => number): Promise<Journal> {
    for (let attempt = 0; ; attempt++) {
      const code = await codes.reserve();
      if (!store) return new Journal(match, code, store, now);
      try {
        await store.createGame(code, match.config, createdAt);
        return new Journal(match, code, store, now);
      } catch (e) {
        await codes.release(code);
        if (!isStoreError(e, 'code_taken') || attempt >= 10) throw storageError(e);
      }
    }
  }

  /**
   * A stored, unfinished game re-opened under its code (its match replayed from the log), or a
   * finished one whose rematch offer is still open (`offerPending`). A log that breaks is read as
   * its longest valid prefix, and the events after it are moved to the store's quarantine before
   * the game goes on (its next event follows the prefix).
   */
  static async reopen(code: string, codes: GameCodes, store: GameStore | null, now: () => number): Promise<{ journal: Journal; createdAt: number }> {
    const loaded = store ? await store.load(code).catch((e) => Promise.reject(storageError(e))) : null;
    const valid = loaded && validPrefix(loaded);
    const finished = loaded?.status === 'finished';
    if (!store || !valid || (finished && !offerPending(valid.game.events, now())))
      throw new JoinRefused('bad_options', `no unfinished game ${code} in the store`);
    if (valid.broken) await store.quarantine(code, valid.broken.seq, valid.broken.reason).catch((e) => Promise.reject(storageError(e)));
    await codes.claim(code);
    const journal = new Journal(valid.match, code, store, now);
    journal.finished = finished;
    journal.seated = valid.game.seated;
    return { journal, createdAt: valid.game.createdAt };
  }

  /** Whether a person has ever sat at this game (a game only made, or played by bots alone, has none). */
  get hasSeated(): boolean {
    return this.seated;
  }

  /**
   * Forgets the game if nobody ever sat at it and it is not over: the log keeps no room nobody
   * joined (their creator can make another; a restart brings none of them back). A failure is
   * logged: the boot's sweep (`GameStore.sweepUnseated`) deletes what is left.
   */
  async discardIfUnseated(): Promise<void> {
    if (this.seated || this.finished || this.current.phase === 'over') return;
    await this.settled();
    try {
      await this.store?.discardUnseated(this.code);
    } catch (e) {
      console.error(`[djambi ${this.code}] could not discard a game nobody joined:`, e);
    }
  }

  /** The match as every saved intent left it. */
  get match(): Match {
    return this.current;
  }

  /** Resolves once every intent submitted so far is done. */
  settled(): Promise<void> {
    return this.queued === 0 ? Promise.resolve() : this.chain.then(() => undefined);
  }

  /** Applies `intent` after every earlier one; resolves once it is saved (or refused, or undone). */
  submit(intent: Intent): Promise<Entry> {
    this.queued++;
    const run = this.chain.then(() => this.apply(intent)).finally(() => this.queued--);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async apply(intent: Intent): Promise<Entry> {
    const before = this.current.eventCount;
    let out: ReturnType<Match['apply']>;
    try {
      out = this.current.apply(intent, this.now());
    } catch (e) {
      console.error(`[djambi ${this.code}] ${intent.type} threw:`, e);
      this.undo(before);
      return { ok: false, rejection: BROKEN };
    }
    if (!out.ok) return out;
    if (this.store && this.current.eventCount > before) {
      try {
        // The store learns a person sat here before the seat is saved: a crash between the two
        // keeps a game that may have a player (never the other way round).
        if (!this.seated && intent.type === 'take_seat') await this.store.markSeated(this.code);
        await this.store.appendMany(this.code, before + 1, this.current.eventsFrom(before));
      } catch (e) {
        this.undo(before);
        if (isStoreError(e, 'fenced')) return { ok: false, rejection: UNSAVED, fenced: true };
        console.error(`[djambi ${this.code}] store append failed:`, e);
        return { ok: false, rejection: UNSAVED };
      }
      await this.finishIfOver();
    }
    if (intent.type === 'take_seat') this.seated = true;
    return { ok: true, out };
  }

  /**
   * Marks the game finished in the store once its match is over (its events are saved already;
   * a failure is logged and tried again when the game is re-opened from the log).
   */
  async finishIfOver(): Promise<void> {
    if (!this.store || this.finished || this.current.phase !== 'over') return;
    try {
      await this.store.finish(this.code, this.now(), summaryOf(this.current));
      this.finished = true;
    } catch (e) {
      console.error(`[djambi ${this.code}] could not mark the game finished:`, e);
    }
  }

  private undo(events: number): void {
    this.current = Match.restore(this.current.config, this.current.eventsFrom(0, events));
  }
}
