/**
 * Everything a room sends to chosen connections: a seat's key and history to its holder, the
 * match's deliveries to exactly the members they name, rejections to their sender, and the
 * message that tells a replaced connection its seat was reclaimed.
 */
import type { Client, Deferred } from '@colyseus/core';
import type { Colour } from '@djambi/shared';
import type { Rejection } from '../errors.js';
import type { Delivery, MemberId } from '../press/types.js';
import type { Connections } from './connections.js';
import type { Journal } from './journal.js';

/** A room's game and the connection ↔ seat/member mapping. */
export interface RoomParts {
  /** The room (and game) code. */
  readonly code: string;
  /** The match (`journal.match`, as every saved intent left it) and its log. */
  readonly journal: Journal;
  /** Which connection holds which seat. */
  readonly links: Connections;
  /** Session ids of the connected spectators (their press member ids). */
  readonly spectatorIds: Set<string>;
  /** Dropped seat holders' connections that may still come back, by session id. */
  readonly reconnecting: Map<string, Deferred<Client>>;
}

/** What the outbox needs of Colyseus. */
export interface Sender {
  /** The room's connected clients. */
  clients(): Iterable<Client>;
  /** Sends one message, encoded once, to several clients. */
  sendEach(clients: Iterable<Client>, type: string, payload: unknown): void;
  /** Counts a refusal by its code (the process's metrics). */
  rejected?(code: string): void;
}

/** The sending side of one room. */
export class Outbox {
  constructor(
    private readonly room: RoomParts,
    private readonly sender: Sender,
  ) {}

  /** Sends `seat` to the seat's holder, then (unless told not to) its `press_history`. */
  sendSeat(colour: Colour, history = true): void {
    const link = this.room.links.of(colour);
    const client = link.sessionId === null ? undefined : this.client(link.sessionId);
    if (!client || link.key === null) return;
    client.send('seat', { colour, seatKey: link.key });
    if (history) this.deliver([this.room.journal.match.historyDelivery(colour)]);
  }

  /** Sends each delivery to the connected members it names (the others find it in their history). */
  deliver(deliveries: readonly Delivery[]): void {
    if (deliveries.length === 0) return;
    const bySession = new Map([...this.sender.clients()].map((c) => [c.sessionId, c]));
    for (const d of deliveries) {
      try {
        const to: Client[] = [];
        for (const member of d.to) {
          const sid = this.sessionOf(member);
          const client = sid === null ? undefined : bySession.get(sid);
          if (client) to.push(client);
        }
        this.sender.sendEach(to, d.type, d.payload);
      } catch (e) {
        console.error(`[djambi ${this.room.code}] could not deliver "${d.type}":`, e);
      }
    }
  }

  /** The `rejected` answer to a refused message. */
  reply(client: Client, type: string, rejection: Rejection): void {
    const { code, message, retryAfterMs, path } = rejection;
    this.sender.rejected?.(code);
    try {
      client.send('rejected', { type, code, message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), ...(path === undefined ? {} : { path }) });
    } catch (e) {
      console.error(`[djambi ${this.room.code}] could not send a rejection:`, e);
    }
  }

  /** Disconnects the connection a seat reclaim replaced, or whose seat the host freed (or cancels its reconnection). */
  evict(sessionId: string, colour: Colour, reason: 'reclaimed' | 'removed' = 'reclaimed'): void {
    const pending = this.room.reconnecting.get(sessionId);
    if (pending) {
      this.room.reconnecting.delete(sessionId);
      pending.reject(new Error('seat reclaimed'));
    }
    const old = this.client(sessionId);
    if (old) {
      old.send('seat_lost', { colour, reason });
      old.leave(4000);
    }
  }

  /** The session id of a press member's connection: a seat's holder, or the spectator itself. */
  private sessionOf(member: MemberId): string | null {
    if (this.room.journal.match.seats.get(member as Colour)) return this.room.links.of(member as Colour).sessionId;
    return this.room.spectatorIds.has(member) ? member : null;
  }

  private client(sessionId: string): Client | undefined {
    for (const c of this.sender.clients()) if (c.sessionId === sessionId) return c;
    return undefined;
  }
}
