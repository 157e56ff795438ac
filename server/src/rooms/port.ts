/**
 * What the room's modules may use of their room, never the Colyseus room itself: its parts (the
 * game and who is connected to it), and for the lifecycle modules (`arrivals.ts`,
 * `departures.ts`) the room's machinery too (the sending side, the door, the intent pipeline, the
 * alarms) and the few Colyseus-side acts they need.
 */
import type { Client, Deferred } from '@colyseus/core';

export type { RoomParts };
import type { Door } from './door.js';
import type { Outbox, RoomParts } from './outbox.js';
import type { Pipeline } from './pipeline.js';
import type { Alarms } from './timers.js';

/** The narrow view of a room that joins and leaves work through. */
export interface RoomPort extends RoomParts {
  readonly outbox: Outbox;
  readonly door: Door;
  readonly pipeline: Pipeline;
  readonly alarms: Alarms;
  /** Server time, epoch ms. */
  now(): number;
  /** Mirrors the match into the schema and sends the patch now (and the listing when `listing`). */
  commit(listing: boolean): void;
  /** Keeps a dropped connection's place for `seconds` (Colyseus's `allowReconnection`). */
  holdFor(client: Client, seconds: number): Deferred<Client>;
}
