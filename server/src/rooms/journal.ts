/**
 * The journal of one room: its match, and every intent applied to it one at a time, in order
 * (each judged against the state every earlier one left), with the accepted events appended to
 * the game log before anybody sees them. A failed append undoes the intent (the match is rebuilt
 * from the log without it); a throw from the match (a broken invariant) does the same. A
 * synchronous store (SQLite) is written in the same tick as the intent is judged; an asynchronous
 * one (PostgreSQL) is awaited in a per-room chain, each intent judged inside it.
 */
import type { Presence } from '@colyseus/core';
import { type Accepted, type Intent, Match } from '../match/match.js';
import { offerPending } from '../match/rematchVote.js';
import { isStoreError, type GameStore } from '../store/types.js';
import type { Rejection } from '../errors.js';
import { CODES_KEY, releaseCode, reserveCode } from './codes.js';
import { joinError } from './join.js';
import { storageError, summaryOf } from './persistence.js';

/** What became of an intent: accepted and saved, or refused (with `fenced` when another process holds the game). */
export type Entry = { readonly ok: true; readonly out: Accepted } | { readonly ok: false; readonly rejection: Rejection; readonly fenced?: true };

const UNSAVED: Rejection = { code: 'storage_unavailable', message: 'the game could not be saved: nothing changed; try again' };
const BROKEN: Rejection = { code: 'internal_error', message: 'the server could not process this message' };

/** A match and its log. */
export class Journal {
  private chain: Promise<unknown> = Promise.resolve();
  /** Intents submitted to the chain and not yet done (an asynchronous store only). */
  private queued = 0;
  /** The store knows the game is finished. */
  private finished = false;

  /** Whether intents are saved in the tick they are submitted in (no store, or a synchronous one). */
  readonly synchronous: boolean;

  private constructor(
    private current: Match,
    readonly code: string,
    private readonly store: GameStore | null,
    private readonly now: () => number,
  ) {
    this.synchronous = store === null || (store.appendManySync !== undefined && store.finishSync !== undefined);
  }

  /** A new game under a fresh code, unique in presence and, with a store, in the log (its primary key). */
  static async create(match: Match, createdAt: number, presence: Presence, store: GameStore | null, now: () => number): Promise<Journal> {
    for (let attempt = 0; ; attempt++) {
      const code = await reserveCode(presence);
      if (!store) return new Journal(match, code, store, now);
      try {
        await store.createGame(code, match.config, createdAt);
        return new Journal(match, code, store, now);
      } catch (e) {
        await releaseCode(presence, code);
        if (!isStoreError(e, 'code_taken') || attempt >= 10) throw storageError(e);
      }
    }
  }

  /**
   * A stored, unfinished game re-opened under its code (its match replayed from the log), or a
   * finished one whose rematch offer is still open (`offerPending`).
   */
  static async reopen(code: string, presence: Presence, store: GameStore | null, now: () => number): Promise<{ journal: Journal; createdAt: number }> {
    const stored = store ? await store.load(code).catch((e) => Promise.reject(storageError(e))) : null;
    const finished = stored?.status === 'finished';
    if (!stored || (finished && !offerPending(stored.events, now()))) throw joinError('bad_options', `no unfinished game ${code} in the store`);
    await presence.sadd(CODES_KEY, code);
    const journal = new Journal(Match.restore(stored.config, stored.events), code, store, now);
    journal.finished = finished;
    return { journal, createdAt: stored.createdAt };
  }

  /** The match as every saved intent left it. */
  get match(): Match {
    return this.current;
  }

  /** Resolves once every intent submitted so far is done. */
  settled(): Promise<void> {
    return this.queued === 0 ? Promise.resolve() : this.chain.then(() => undefined);
  }

  /**
   * Applies `intent` after every earlier one; resolves once it is saved (or refused, or undone).
   * With no store or a synchronous one, the intent is judged, saved and applied before `submit`
   * returns (the promise is already settled); with an asynchronous store (PostgreSQL) it waits
   * its turn in the room's chain and is judged there, against the committed state.
   */
  submit(intent: Intent): Promise<Entry> {
    const settled = this.submitNow(intent);
    if (settled !== null) return Promise.resolve(settled);
    this.queued++;
    const run = this.chain.then(() => this.apply(intent)).finally(() => this.queued--);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * `submit` without a promise when it can be done in this call (no store, or a synchronous one,
   * and nothing queued): the entry; null when the intent must go through `submit`'s chain.
   */
  submitNow(intent: Intent): Entry | null {
    return this.synchronous && this.queued === 0 ? this.applyNow(intent) : null;
  }

  /** Judges `intent`; the events it adds, or the refusal (the match unchanged). */
  private judge(intent: Intent): { readonly before: number; readonly out: Accepted } | { readonly refusal: Entry } {
    const before = this.current.eventCount;
    let out: ReturnType<Match['apply']>;
    try {
      out = this.current.apply(intent, this.now());
    } catch (e) {
      console.error(`[djambi ${this.code}] ${intent.type} threw:`, e);
      this.undo(before);
      return { refusal: { ok: false, rejection: BROKEN } };
    }
    if (!out.ok) return { refusal: out };
    return { before, out };
  }

  /** A failed append: the intent is undone, and refused. */
  private unsaved(before: number, e: unknown): Entry {
    this.undo(before);
    if (isStoreError(e, 'fenced')) return { ok: false, rejection: UNSAVED, fenced: true };
    console.error(`[djambi ${this.code}] store append failed:`, e);
    return { ok: false, rejection: UNSAVED };
  }

  /** The synchronous path: judged, appended and applied in this call. */
  private applyNow(intent: Intent): Entry {
    const judged = this.judge(intent);
    if ('refusal' in judged) return judged.refusal;
    const { before, out } = judged;
    const store = this.store;
    if (store?.appendManySync && this.current.eventCount > before) {
      try {
        store.appendManySync(this.code, before + 1, this.current.eventsFrom(before));
      } catch (e) {
        return this.unsaved(before, e);
      }
      this.finishNow();
    }
    return { ok: true, out };
  }

  private async apply(intent: Intent): Promise<Entry> {
    const judged = this.judge(intent);
    if ('refusal' in judged) return judged.refusal;
    const { before, out } = judged;
    if (this.store && this.current.eventCount > before) {
      try {
        await this.store.appendMany(this.code, before + 1, this.current.eventsFrom(before));
      } catch (e) {
        return this.unsaved(before, e);
      }
      await this.finishIfOver();
    }
    return { ok: true, out };
  }

  /**
   * Marks the game finished in the store once its match is over (its events are saved already;
   * a failure is logged and tried again when the game is re-opened from the log).
   */
  async finishIfOver(): Promise<void> {
    if (this.store?.finishSync) return this.finishNow();
    if (!this.store || this.finished || this.current.phase !== 'over') return;
    try {
      await this.store.finish(this.code, this.now(), summaryOf(this.current));
      this.finished = true;
    } catch (e) {
      console.error(`[djambi ${this.code}] could not mark the game finished:`, e);
    }
  }

  /** `finishIfOver` on a synchronous store. */
  private finishNow(): void {
    if (!this.store?.finishSync || this.finished || this.current.phase !== 'over') return;
    try {
      this.store.finishSync(this.code, this.now(), summaryOf(this.current));
      this.finished = true;
    } catch (e) {
      console.error(`[djambi ${this.code}] could not mark the game finished:`, e);
    }
  }

  private undo(events: number): void {
    this.current = Match.restore(this.current.config, this.current.eventsFrom(0, events));
  }
}
