/**
 * Which connection holds which seat, and the seats' presence: the room's side of the seats (the
 * match keeps their game-level state). Plain data, no Colyseus.
 *
 * `connected`: a live connection; `reconnecting`: the connection dropped and may come back
 * within the grace period; `away`: held by its key, nobody connected; `empty`: free.
 */
import type { Colour } from '@djambi/shared';
import type { SeatMove } from '../match/seats.js';

export type SeatPresence = 'empty' | 'connected' | 'reconnecting' | 'away' | 'bot';

/** The connection side of one seat. */
export interface SeatLink {
  sessionId: string | null;
  /** The seat key, kept in memory only to send it back to its holder (the match keeps its hash). */
  key: string | null;
  presence: SeatPresence;
  /** Epoch ms of the last presence change. */
  since: number;
}

/** The connections of a room's seats. */
export class Connections {
  private readonly links = new Map<Colour, SeatLink>();
  constructor(colours: readonly Colour[]) {
    for (const c of colours) this.links.set(c, { sessionId: null, key: null, presence: 'empty', since: 0 });
  }

  /** The link of `colour`. */
  of(colour: Colour): SeatLink {
    const link = this.links.get(colour);
    if (!link) throw new Error(`no seat ${colour}`);
    return link;
  }

  /** The seat a session holds. */
  colourOf(sessionId: string): Colour | null {
    for (const [colour, link] of this.links) if (link.sessionId === sessionId) return colour;
    return null;
  }

  /** A session now holds `colour`; returns the session it replaced (a reclaim from another device), if any. */
  connect(colour: Colour, sessionId: string, key: string, now: number): string | null {
    const link = this.of(colour);
    const replaced = link.sessionId !== null && link.sessionId !== sessionId ? link.sessionId : null;
    link.sessionId = sessionId;
    link.key = key;
    if (link.presence !== 'connected') link.since = now;
    link.presence = 'connected';
    return replaced;
  }

  /** The connection dropped and may come back (grace period): session kept. */
  dropped(sessionId: string, now: number): void {
    const colour = this.colourOf(sessionId);
    const link = colour && this.of(colour);
    if (link && link.presence === 'connected') {
      link.presence = 'reconnecting';
      link.since = now;
    }
  }

  /** The connection came back through `client.reconnect` (same session id). */
  reconnected(sessionId: string, now: number): Colour | null {
    const colour = this.colourOf(sessionId);
    const link = colour && this.of(colour);
    if (link && link.presence !== 'connected') {
      link.presence = 'connected';
      link.since = now;
    }
    return colour;
  }

  /** The connection of a seat is gone: the seat stays held by its key and shows as away. */
  away(sessionId: string, now: number): void {
    const colour = this.colourOf(sessionId);
    if (!colour) return;
    const link = this.of(colour);
    link.sessionId = null;
    // `since` keeps the moment the connection dropped when the grace period just ended.
    if (link.presence === 'connected') link.since = now;
    link.presence = 'away';
  }

  /** A seat held by its key with nobody connected (a game re-opened from the log). */
  absent(colour: Colour, now: number): void {
    const link = this.of(colour);
    link.sessionId = null;
    link.presence = 'away';
    link.since = now;
  }

  /** The seat is free again. */
  free(colour: Colour, now: number): void {
    this.vacate(colour, 'empty', now);
  }

  /** Holders moved seats (a swap): their connections follow them. */
  move(moves: readonly SeatMove[], now: number): void {
    const before = new Map([...this.links].map(([c, l]) => [c, { ...l }]));
    const moved = new Set(moves.map((m) => m.to));
    for (const m of moves) {
      const src = before.get(m.from)!;
      const dst = this.of(m.to);
      dst.sessionId = src.sessionId;
      dst.key = src.key;
      dst.presence = src.presence;
      dst.since = now;
    }
    for (const m of moves) {
      if (moved.has(m.from)) continue;
      const src = this.of(m.from);
      src.sessionId = null;
      src.key = null;
      src.presence = 'empty';
      src.since = now;
    }
  }

  /** A bot holds the seat (`bots.ts`): no connection, presence `bot`. */
  bot(colour: Colour, now: number): void {
    this.vacate(colour, 'bot', now);
  }

  /** The seat's connection and key are gone; it shows as `presence`. */
  private vacate(colour: Colour, presence: 'empty' | 'bot', now: number): void {
    const link = this.of(colour);
    link.sessionId = null;
    link.key = null;
    link.presence = presence;
    link.since = now;
  }
}
