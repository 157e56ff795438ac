/**
 * The patch that follows every commit, sent without Colyseus's `broadcastPatch`.
 *
 * A Colyseus 0.16 room object is in V8's dictionary mode: the matchmaker's `__init` turns four of
 * its data properties into accessors (`Object.defineProperties`), which V8 cannot do in place. So
 * every `this.x` read on a room is a hash lookup through the `LoadIC` builtin, in memory that has
 * gone cold by the room's next turn (1,000 rooms at one turn per room per second). The room's
 * `commit` and the `broadcastPatch` it called made about twenty of them per turn (three for
 * properties no room has, `onBeforePatch` and `_simulationInterval`, looked for along the whole
 * prototype chain). `perf` put 94 samples in 12 s on `LoadIC` called from `commit` alone, about
 * 4 µs per turn.
 *
 * The patcher is a plain object, made once the room has a state, holding what a patch needs: the
 * model `mirror` reads, the state, the sender of the patch (`patchSender`, internals.ts: one frame
 * built per patch and written to every client's socket), the clients and Colyseus's queue of
 * messages sent after the next patch. What `broadcastPatch` does besides is not needed here: the room
 * defines no `onBeforePatch`, and it ticks the room's Colyseus clock, which no room uses (timers
 * are plain Node timers, `timers.ts`).
 */
import type { Client } from '@colyseus/core';
import type { Match } from '../match/match.js';
import { mirrorer, type RoomModel } from './mirror.js';
import type { DjambiState } from './schema.js';

/** What a patch needs of Colyseus's internals (`GuardedRoom.patchParts`). */
export interface PatchParts {
  /** Encodes the changes once and sends them to every joined client (`patchSender`, internals.ts); false when there was nothing to send. */
  readonly send: (clients: Client[]) => boolean;
  /** The room's clients (the same array for the room's whole life). */
  readonly clients: Client[];
  /** Messages sent with `afterNextPatch` (the same array for the room's whole life). */
  readonly afterPatch: readonly unknown[];
  /** Sends them. */
  readonly dequeue: () => void;
}

/**
 * What `mirror` reads of the room: the parts that stay as they are, and the two it reads again at
 * each patch (the journal's current match, rebuilt by a failed append; the spectators).
 */
export type PatchSource = Omit<RoomModel, 'match' | 'spectators'> & {
  readonly match: () => Match;
  readonly spectatorIds: ReadonlySet<string>;
};

/** Mirrors the match into the state and sends the patch, reading nothing of the room object. */
export class Patcher {
  private readonly model: { -readonly [K in keyof RoomModel]: RoomModel[K] };
  /** `mirror` into this state (what it last wrote there found once, not at each patch). */
  private readonly mirror: (model: RoomModel) => void;

  constructor(
    private readonly source: PatchSource,
    state: DjambiState,
    private readonly parts: PatchParts,
  ) {
    this.model = { code: source.code, match: source.match(), links: source.links, spectators: source.spectatorIds.size, standIns: source.standIns };
    this.mirror = mirrorer(state);
  }

  /** Writes what changed into the state and sends it to every joined client. */
  patch(): void {
    const model = this.model;
    model.match = this.source.match();
    model.spectators = this.source.spectatorIds.size;
    this.mirror(model);
    const parts = this.parts;
    parts.send(parts.clients);
    if (parts.afterPatch.length > 0) parts.dequeue();
  }
}
