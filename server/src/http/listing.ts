/**
 * The public room listing of `GET /api/rooms`: the matchmaker's listings (so a shared driver
 * works too), without finished games, sorted by creation time then code, kept for
 * `LISTING_TTL_MS` of the server clock and paged by cursor (docs/PROTOCOL.md, "Listing pages").
 * Every request within that time reads the same sorted array; a public room created or disposed
 * in this process drops it at once, other processes' changes show when it expires.
 */
import type { EventEmitter } from 'node:events';
import { matchMaker } from '@colyseus/core';
import { ROOM_NAME } from '../games/directory.js';
import type { RoomListing } from '../rooms/DjambiRoom.js';

/** How long a sorted listing is served, ms of the server clock. */
export const LISTING_TTL_MS = 1000;

/** What the listing reads of a matchmaker listing. */
export interface ListingSource {
  readonly roomId: string;
  readonly clients: number;
  readonly metadata?: unknown;
}

/** A room as listed (its metadata, its code and its connections). */
export type Listed = RoomListing & { clients: number };

/** A position in the listing: rooms are ordered by creation time, then code. */
export interface Cursor {
  readonly createdAt: number;
  readonly code: string;
}

/** One page: the rooms, and the cursor of the next page (null on the last). */
export interface ListingPage {
  readonly rooms: readonly Listed[];
  readonly next: string | null;
}

/** The cursor after `room`. */
export function makeCursor(room: Cursor): string {
  return `${room.createdAt}.${room.code}`;
}

/** A cursor from its text, or null for a malformed one. */
export function parseCursor(text: string): Cursor | null {
  const m = /^(\d{1,16})\.([0-9A-Z]{1,16})$/.exec(text);
  return m ? { createdAt: Number(m[1]), code: m[2] } : null;
}

/** A room's listing as the API answers it. */
export function describe(room: ListingSource): Listed {
  return { ...(room.metadata as RoomListing), code: room.roomId, clients: room.clients };
}

/** The listing order: creation time, then code. */
function compare(a: Cursor, b: Cursor): number {
  return a.createdAt - b.createdAt || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** The listed rooms of `sources`, sorted. */
function sortListings(sources: readonly ListingSource[]): readonly Listed[] {
  return sources
    .filter((r) => r.metadata && (r.metadata as RoomListing).phase !== 'over')
    .map(describe)
    .sort(compare);
}

/** Index of the first room of `rooms` (sorted) after `cursor`. */
function firstAfter(rooms: readonly Listed[], cursor: Cursor): number {
  let lo = 0;
  let hi = rooms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(rooms[mid], cursor) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The public game rooms, as the matchmaker lists them. */
function queryPublicRooms(): Promise<readonly ListingSource[]> {
  return matchMaker.query({ name: ROOM_NAME, private: false });
}

/** Settings of a `RoomListings`. */
export interface RoomListingsOptions {
  /** The server clock, epoch ms. */
  readonly now: () => number;
  /** How long a sorted listing is served (default `LISTING_TTL_MS`). */
  readonly ttlMs?: number;
  /** The listings (default: the matchmaker's public game rooms). */
  readonly query?: () => Promise<readonly ListingSource[]>;
}

/** The sorted listing of one server, kept for a second. */
export class RoomListings {
  private kept: { readonly at: number; readonly rooms: Promise<readonly Listed[]> } | null = null;
  private readonly ttlMs: number;
  private readonly query: () => Promise<readonly ListingSource[]>;

  constructor(private readonly options: RoomListingsOptions) {
    this.ttlMs = options.ttlMs ?? LISTING_TTL_MS;
    this.query = options.query ?? queryPublicRooms;
  }

  /** At most `limit` rooms after `after` (from the first when null). Rejects when the query fails. */
  async page(limit: number, after: Cursor | null): Promise<ListingPage> {
    const rooms = await this.sorted();
    const start = after ? firstAfter(rooms, after) : 0;
    const list = rooms.slice(start, start + limit);
    return { rooms: list, next: start + list.length < rooms.length ? makeCursor(list[list.length - 1]) : null };
  }

  /** Drops the kept listing: the next request queries again. */
  invalidate(): void {
    this.kept = null;
  }

  /**
   * Drops the kept listing whenever a public room of `handler` (the game room's, as
   * `Server.define` returns it) is created or disposed in this process.
   */
  watch(handler: Pick<EventEmitter, 'on'>): void {
    const changed = (room: { listing?: { private?: boolean } }) => {
      if (room.listing?.private !== true) this.invalidate();
    };
    handler.on('create', changed);
    handler.on('dispose', changed);
  }

  /** The kept listing, or a new one (one query shared by the requests that arrive meanwhile). */
  private sorted(): Promise<readonly Listed[]> {
    const now = this.options.now();
    const kept = this.kept;
    if (kept && now - kept.at < this.ttlMs) return kept.rooms;
    const rooms = this.query().then(sortListings);
    const entry = { at: now, rooms };
    this.kept = entry;
    rooms.catch(() => {
      if (this.kept === entry) this.kept = null;
    });
    return rooms;
  }
}
