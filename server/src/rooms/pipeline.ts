/**
 * The path of one intent in a room: through the journal (one at a time, each judged against the
 * state every earlier one left, saved before anybody sees it), then published: seat moves, the
 * patch, the deliveries, the timers. A refusal is answered to its sender; a failed append changes
 * nothing and answers `storage_unavailable`; a fenced one (another process holds the game) closes
 * the room.
 */
import type { Client } from '@colyseus/core';
import type { Rejection } from '../errors.js';
import type { Accepted, Intent } from '../match/match.js';
import type { Connections } from './connections.js';
import type { Entry, Journal } from './journal.js';
import type { Outbox } from './outbox.js';
import type { Alarms } from './timers.js';

/** What the pipeline asks of its room. */
export interface PipelineHooks {
  /** Server time, epoch ms. */
  now(): number;
  /** Mirrors the match into the schema and sends the patch now (and the listing when `listing`). */
  commit(listing: boolean): void;
  /** Another process appended to this game's log: close this copy. */
  fenced(): void;
  /** A bug was thrown on the way (see `DjambiRoom.fault`): nothing thrown from `act` reaches its caller. */
  fault(error: unknown): void;
  /** A turn was accepted and took `ms` from its arrival to its patch (the process's metrics). */
  turnPatched?(ms: number): void;
}

/** The intents of one room, from the journal to every connection they concern. */
export class Pipeline {
  constructor(
    private readonly journal: Journal,
    private readonly links: Connections,
    private readonly outbox: Outbox,
    private readonly alarms: Alarms,
    private readonly hooks: PipelineHooks,
  ) {}

  /**
   * Applies an intent to the match and publishes what happened; a refusal goes to `client`. Never
   * throws and never leaves a rejected promise: a bug on the way goes to the room's `fault`.
   */
  act(intent: Intent, client?: Client, type: string = intent.type): void {
    try {
      const arrived = this.arrival(intent);
      // In this call when the journal can (most turns): no promise, no microtask before the patch.
      const entry = this.journal.submitNow(intent);
      if (entry === null) this.step(intent, client, type).catch(this.hooks.fault);
      else this.settle(entry, arrived, type, client);
    } catch (e) {
      this.hooks.fault(e);
    }
  }

  /**
   * One intent through the journal, then published; a refusal goes to `client` (as `type`), or
   * to `refused` (a join), an acceptance to `accepted` before it is published.
   */
  async step(
    intent: Intent,
    client?: Client,
    type: string = intent.type,
    refused?: (r: Rejection) => void,
    accepted?: (out: Accepted) => void,
  ): Promise<Accepted | null> {
    const arrived = this.arrival(intent);
    return this.settle(await this.journal.submit(intent), arrived, type, client, refused, accepted);
  }

  /** When a turn arrived (`performance.now()`) if its time to the patch is measured, else -1. */
  private arrival(intent: Intent): number {
    return intent.type === 'turn' && this.hooks.turnPatched ? performance.now() : -1;
  }

  /** Answers or publishes what the journal made of an intent. */
  private settle(
    entry: Entry,
    arrived: number,
    type: string,
    client?: Client,
    refused?: (r: Rejection) => void,
    accepted?: (out: Accepted) => void,
  ): Accepted | null {
    if (!entry.ok) {
      if (client) this.outbox.reply(client, type, entry.rejection);
      if (entry.fenced) this.hooks.fenced();
      refused?.(entry.rejection);
      return null;
    }
    accepted?.(entry.out);
    this.publish(entry.out);
    // An accepted entry may be a flag fall with the turn itself refused (`out.refused`): not a turn.
    if (arrived >= 0 && !entry.out.refused) this.hooks.turnPatched?.(performance.now() - arrived);
    if (entry.out.refused && client) this.outbox.reply(client, type, entry.out.refused);
    return entry.out;
  }

  /** Sends what an accepted intent returned: seat moves, the patch, deliveries, listing; then the timers. */
  private publish(out: Accepted): void {
    if (out.moves.length > 0) {
      this.links.move(out.moves, this.hooks.now());
      for (const m of out.moves) this.outbox.sendSeat(m.to, false);
    }
    if (out.removed) {
      // The host freed this seat: its holder is told, then watches (its key no longer works).
      const sid = this.links.of(out.removed).sessionId;
      this.links.free(out.removed, this.hooks.now());
      if (sid !== null) this.outbox.evict(sid, out.removed, 'removed');
    }
    this.hooks.commit(out.listingChanged);
    this.outbox.deliver(out.deliveries);
    this.alarms.scheduleFlag();
    if (this.journal.match.phase === 'over') this.alarms.armIdle();
  }
}
