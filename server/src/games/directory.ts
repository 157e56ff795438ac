/**
 * The games a process can serve: live rooms, and games in the log that it can re-open under
 * their code (a restart, an idle room disposed from memory, a process that died). A game in the
 * store but not live is re-opened on the first join or lookup of its code, and every unfinished
 * game at boot; a finished game is never re-opened, it is read from the store.
 */
import { matchMaker } from '@colyseus/core';
import { Match } from '../match/match.js';
import { restoreOptions } from '../rooms/persistence.js';
import type { GameStore, StoredGame } from '../store/types.js';

/** Room name of the game rooms. */
export const ROOM_NAME = 'djambi';

/** What `reopen` found. */
export type Reopened = 'live' | 'reopened' | 'finished' | 'unknown';

/** The live and stored games of one process. */
export class GameDirectory {
  private readonly opening = new Map<string, Promise<Reopened>>();

  constructor(
    readonly store: GameStore | null,
    private readonly token: string,
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

  /** Re-opens every unfinished game of the store (at boot); returns how many and how long it took. */
  async restoreAll(): Promise<{ restored: number; failed: number; ms: number }> {
    const t0 = performance.now();
    let restored = 0;
    let failed = 0;
    if (this.store) {
      for (const code of await this.store.unfinished()) {
        try {
          // Known unfinished: no need to look the game up before re-opening it.
          await matchMaker.createRoom(ROOM_NAME, restoreOptions(code, this.token));
          restored++;
        } catch (e) {
          failed++;
          console.error(`[djambi] could not restore ${code}:`, e);
        }
      }
    }
    return { restored, failed, ms: performance.now() - t0 };
  }

  /** The stored game of `code`, live or not (null when unknown or without a store). */
  async stored(code: string): Promise<StoredGame | null> {
    return this.store ? this.store.load(code) : null;
  }

  /** The game record of a stored game as text (docs/NOTATION.md) and as JSON. */
  async record(code: string): Promise<{ text: string; json: unknown } | null> {
    const game = await this.stored(code);
    if (!game) return null;
    const match = Match.restore(game.config, game.events);
    return { text: match.game.recordText(), json: match.game.record() };
  }

  private async open(code: string): Promise<Reopened> {
    if (await matchMaker.getRoomById(code)) return 'live';
    const game = this.store ? await this.store.load(code) : null;
    if (!game) return 'unknown';
    if (game.status === 'finished') return 'finished';
    try {
      await matchMaker.createRoom(ROOM_NAME, restoreOptions(code, this.token));
      return 'reopened';
    } catch (e) {
      // Another request (or process) re-opened it meanwhile.
      if (await matchMaker.getRoomById(code)) return 'live';
      throw e;
    }
  }
}
