/**
 * The way into a room and the limits at its edge: the matchmaker's `onAuth` (join options
 * checked, the client's address attached, the room's door asked when it lives in this process),
 * the admission of every reservation (seat holders' capacity apart from the spectators'), and
 * the message budget every connection spends before a frame is decoded (a flood is refused with
 * `rate_limited`, then closed with 1008), and the byte limit of each message type's payload
 * (`payload_too_large`, before decoding).
 */
import { JOIN_ERROR_STATUS, type JoinErrorCode, type Rejection } from '../errors.js';
import { type AuthContext, type Client, Protocol, ServerError } from '@colyseus/core';
import { normaliseAddress, rateKey } from '../http/address.js';
import type { Match } from '../match/match.js';
import { checkJoinOptions, type JoinOptions } from './validate.js';
import { hashSeatKey } from '../match/seats.js';
import { CREATE_KEYS } from '../match/config.js';
import { TokenBucket } from '../tokenBucket.js';
import { decode } from '@colyseus/schema';
import { MAX_PAYLOAD_BYTES, maxPayloadBytes } from '@djambi/shared';

/** Limits of admission (documented in docs/PROTOCOL.md, "Limits"). */
export interface AdmissionLimits {
  /** Spectators connected (checked again when a spectator's socket opens). */
  readonly spectators: number;
  /** Spectators from one client network (IPv6: its /48) in one room. */
  readonly spectatorsPerAddress: number;
  /** Unused reservations (seat takers and spectators) in one room. */
  readonly pending: number;
  /** Unused reservations of one client network in one room. */
  readonly pendingPerAddress: number;
  /** Unused reservations made with one seat's key. */
  readonly pendingPerSeat: number;
  /**
   * A reservation counts against the room's limits until its socket opens, for this long at
   * most (ms): a join whose socket never opens holds nothing after it (Colyseus still keeps the
   * reservation for a slow client; its join is checked again when it arrives).
   */
  readonly connectMs: number;
  /** Reservations of one network left unused within a minute after which it may hold one unused reservation only. */
  readonly noShows: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = Object.freeze({
  spectators: 100,
  spectatorsPerAddress: 50,
  pending: 32,
  pendingPerAddress: 6,
  pendingPerSeat: 4,
  connectMs: 3000,
  noShows: 2,
});

/** How long a network's unused reservations are remembered (ms). */
const NO_SHOW_MEMORY_MS = 60_000;

/**
 * Colyseus's own cap (`maxClients`, clients plus reservations): above every sum the limits allow
 * (4 seats with a reconnection and their reclaims, the spectators, the reservations a room may
 * hold while each lives its full reservation time), so Colyseus never locks a room against a
 * seat holder.
 */
export function colyseusCap(limits: AdmissionLimits, reservationSeconds = 15): number {
  const lives = Math.max(1, Math.ceil((reservationSeconds * 1000) / limits.connectMs));
  return 4 * (2 + limits.pendingPerSeat) + limits.spectators + lives * limits.pending + 16;
}

/** What a reservation is for. */
export type Request = { readonly kind: 'reclaim'; readonly seat: string } | { readonly kind: 'spectate' } | { readonly kind: 'take' };

interface Pending {
  readonly request: Request;
  readonly address: string;
  /** When it was granted (ms). */
  readonly at: number;
}

/** A refusal: the join error code and a sentence. */
export interface Refusal {
  readonly code: JoinErrorCode;
  readonly message: string;
}

/**
 * The reservations of one room that no connection has used yet, and the spectators it has. A
 * reservation counts for `connectMs` at most; one left unused that long is a no-show of its
 * network, and a network with `noShows` of them in the last minute may hold one unused
 * reservation only. Spectators are counted once connected: a reservation that never opens its
 * socket holds no spectator's place.
 */
export class Admission {
  private readonly pending = new Map<string, Pending>();
  /** Connected spectators: session id → address. */
  private readonly spectators = new Map<string, string>();
  /** Unused reservations per network: how many, and the last one's time. */
  private readonly noShows = new Map<string, { count: number; at: number }>();

  constructor(
    readonly limits: AdmissionLimits = DEFAULT_ADMISSION,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * May `request` from `address` get a reservation? `live(sessionId)` tells whether a pending
   * reservation still stands (Colyseus drops unused ones after its reservation time).
   */
  check(request: Request, address: string, live: (sessionId: string) => boolean): Refusal | null {
    this.prune(live);
    if (request.kind === 'reclaim') {
      let forSeat = 0;
      for (const p of this.pending.values()) if (p.request.kind === 'reclaim' && p.request.seat === request.seat) forSeat++;
      if (forSeat >= this.limits.pendingPerSeat)
        return { code: 'too_many_joins', message: 'too many joins with this seat key at once; try again in a few seconds' };
      return null;
    }
    if (request.kind === 'spectate') {
      const full = this.spectatorsFull(address);
      if (full) return full;
    }
    let total = 0;
    let fromAddress = 0;
    for (const p of this.pending.values()) {
      if (p.request.kind === 'reclaim') continue;
      total++;
      if (p.address === address) fromAddress++;
    }
    const allowed = (this.noShows.get(address)?.count ?? 0) >= this.limits.noShows ? 1 : this.limits.pendingPerAddress;
    if (total >= this.limits.pending || fromAddress >= allowed) {
      return { code: 'too_many_joins', message: 'too many joins at once; try again in a few seconds' };
    }
    return null;
  }

  /** Records a granted reservation. */
  reserved(sessionId: string, request: Request, address: string): void {
    this.pending.set(sessionId, { request, address, at: this.now() });
  }

  /**
   * The reservation was used: the connection joined (`spectatorAddress`: as a spectator from that
   * network). A spectator is refused here when the room filled up meanwhile.
   */
  joined(sessionId: string, spectatorAddress: string | null): Refusal | null {
    this.pending.delete(sessionId);
    if (spectatorAddress === null) return null;
    const full = this.spectatorsFull(spectatorAddress);
    if (full) return full;
    this.spectators.set(sessionId, spectatorAddress);
    return null;
  }

  /** A spectator left. */
  left(sessionId: string): void {
    this.spectators.delete(sessionId);
    this.pending.delete(sessionId);
  }

  private spectatorsFull(address: string): Refusal | null {
    if (this.spectators.size >= this.limits.spectators)
      return { code: 'spectators_full', message: `this game has ${this.limits.spectators} spectators already` };
    let fromAddress = 0;
    for (const a of this.spectators.values()) if (a === address) fromAddress++;
    if (fromAddress >= this.limits.spectatorsPerAddress) return { code: 'spectators_full', message: 'too many spectators from your address' };
    return null;
  }

  /** Drops reservations Colyseus dropped, and the others unused past `connectMs` (no-shows of their network). */
  private prune(live: (sessionId: string) => boolean): void {
    const now = this.now();
    for (const [sid, p] of this.pending) {
      // A reclaim counts until Colyseus drops it (a seat's key is its holder's only: 4 at most).
      const late = p.request.kind !== 'reclaim' && now - p.at >= this.limits.connectMs;
      if (live(sid) && !late) continue;
      this.pending.delete(sid);
      if (p.request.kind === 'reclaim') continue;
      const seen = this.noShows.get(p.address);
      this.noShows.set(p.address, { count: seen && now - seen.at < NO_SHOW_MEMORY_MS ? seen.count + 1 : 1, at: now });
    }
    for (const [address, seen] of this.noShows) if (now - seen.at >= NO_SHOW_MEMORY_MS) this.noShows.delete(address);
  }
}

/** What the matchmaker's `onAuth` hands to the reservation and the join. */
export interface AuthData {
  readonly join: JoinOptions;
  /** The client's address key (the socket's, or the trusted proxy's forwarded one; IPv6: its /64). */
  readonly address: string;
  /** The client's network for a room's own limits: the IPv4 address, or the /48 of an IPv6 one. */
  readonly network: string;
}

/** A join error as the SDK sees it: a numeric code and `code: message`. */
export function joinError(code: JoinErrorCode, message: string): ServerError {
  return new ServerError(JOIN_ERROR_STATUS[code], `${code}: ${message}`);
}

/** The kind of a join, or why it cannot be admitted at all. */
export function joinKind(match: Match, join: JoinOptions): Request | { code: JoinErrorCode; message: string } {
  if (join.spectate) return { kind: 'spectate' };
  if (join.seatKey !== undefined) {
    const seat = match.seats.byKey(join.seatKey);
    if (seat) return { kind: 'reclaim', seat: seat.colour };
    if (match.isBarred(hashSeatKey(join.seatKey))) return { code: 'removed', message: 'the host removed you from this game: you may watch it' };
    return { code: 'bad_seat_key', message: 'no seat has this key' };
  }
  if (join.device !== undefined && match.isBarred(hashSeatKey(join.device))) {
    return { code: 'removed', message: 'the host removed you from this game: join with { spectate: true } to watch it' };
  }
  if (match.phase !== 'waiting') {
    return { code: 'game_started', message: 'the game has started; join with { spectate: true } to watch or { seatKey } to return' };
  }
  if (match.seats.allTaken()) return { code: 'no_free_seat', message: 'every seat is taken; join with { spectate: true } to watch' };
  return { kind: 'take' };
}

/**
 * The address a join came from. Colyseus reads `x-real-ip`/`x-forwarded-for` first; the HTTP
 * guard sets `x-real-ip` to the resolved address on every request (see `http/address.ts`).
 * IPv6 clients are grouped by /64, as the HTTP limits do.
 */
export function clientAddress(context: AuthContext): { readonly address: string; readonly network: string } {
  const raw = context.ip ?? context.req?.socket?.remoteAddress ?? '';
  const first = (Array.isArray(raw) ? raw[0] : String(raw)).split(',')[0]?.trim() ?? '';
  const address = normaliseAddress(first.slice(0, 64));
  return address ? { address: rateKey(address), network: rateKey(address, 48) } : { address: 'unknown', network: 'unknown' };
}

/** The room id a `joinById` request names (from the matchmaker's URL), if any. */
export function joinedRoomId(context: AuthContext): string | undefined {
  return /\/matchmake\/joinById\/([A-Za-z0-9_-]+)/.exec(context.req?.url ?? '')?.[1];
}

/**
 * Join options are checked by the matchmaker before any reservation; the answer carries the
 * client's address. When the room named by a `joinById` lives in this process (`doorOf` finds
 * it), its door is asked too, so that a refusal reaches the client with its code
 * (`spectators_full`, `too_many_joins`...).
 */
export function authorise(options: unknown, context: AuthContext, doorOf: (roomId: string) => Door | undefined): AuthData {
  const join = checkJoinOptions(options, CREATE_KEYS);
  if (!join.ok) throw joinError('bad_options', join.error.message);
  const auth: AuthData = { join: join.value, ...clientAddress(context) };
  const roomId = joinedRoomId(context);
  const refusal = roomId ? doorOf(roomId)?.refusal(auth) : null;
  if (refusal) throw joinError(refusal.code, refusal.message);
  return auth;
}

/** The admission of one room, asked with the kind of join its match allows. */
export class Door {
  private readonly admission: Admission;

  /**
   * `game.match`: the match as every saved intent left it (the journal); `live(sessionId)`:
   * whether a pending reservation still stands (Colyseus drops unused ones).
   */
  constructor(
    limits: AdmissionLimits,
    private readonly game: { readonly match: Match },
    private readonly live: (sessionId: string) => boolean,
    now: () => number = Date.now,
  ) {
    this.admission = new Admission(limits, now);
  }

  /** Why a join with these options cannot have a reservation now, or null. */
  refusal(auth: AuthData): Refusal | null {
    const kind = joinKind(this.game.match, auth.join);
    return 'code' in kind ? kind : this.admission.check(kind, auth.network, this.live);
  }

  /** Whether a (non-reconnection) reservation may be granted: seat key holders always get in. */
  admits(authData: unknown): boolean {
    const auth = authData as AuthData | undefined;
    return auth?.join !== undefined && this.refusal(auth) === null;
  }

  /** A reservation was granted. */
  reserved(sessionId: string, authData: unknown): void {
    const auth = authData as AuthData;
    const kind = joinKind(this.game.match, auth.join);
    if (!('code' in kind)) this.admission.reserved(sessionId, kind, auth.network);
  }

  /** The reservation was used: the connection joined (a spectator counts from its network, and is refused if the room filled up meanwhile). */
  joined(sessionId: string, auth: AuthData): Refusal | null {
    return this.admission.joined(sessionId, auth.join.spectate ? auth.network : null);
  }

  /** A spectator left. */
  left(sessionId: string): void {
    this.admission.left(sessionId);
  }
}

/** Limits of the message budget (documented in docs/PROTOCOL.md, "Limits"). */
export interface BudgetLimits {
  /** Messages a connection may send at once. */
  readonly burst: number;
  /** Messages earned per second after the burst. */
  readonly perSecond: number;
  /** Messages refused for the budget before the connection is closed. */
  readonly strikes: number;
  /** Strikes forgiven per second of calm. */
  readonly strikesPerSecond: number;
}

/** Defaults: 40 messages at once, then 20 per second; 100 refused messages close the connection. */
export const DEFAULT_BUDGET: BudgetLimits = Object.freeze({ burst: 40, perSecond: 20, strikes: 100, strikesPerSecond: 10 });

/** What to do with one message: handle it, refuse it (`rate_limited`), or close the connection (1008). */
export type BudgetVerdict = 'ok' | 'limited' | 'close';

/** The budget of one connection. */
export class MessageBudget {
  private readonly tokens: TokenBucket;
  private readonly strikes: TokenBucket;
  /** The time of the last `take`, for `retryAfterMs`. */
  private last = 0;

  constructor(limits: BudgetLimits = DEFAULT_BUDGET) {
    this.tokens = new TokenBucket(limits.burst, limits.perSecond / 1000);
    this.strikes = new TokenBucket(limits.strikes, limits.strikesPerSecond / 1000);
  }

  /** Spends `cost` tokens for a message received at `now`. */
  take(now: number, cost = 1): BudgetVerdict {
    this.last = now;
    if (this.tokens.take(now, cost)) return 'ok';
    // The refusal that spends the last strike closes.
    return this.strikes.take(now) && this.strikes.available(now) > 0 ? 'limited' : 'close';
  }

  /** Milliseconds until one message is affordable again. */
  retryAfterMs(): number {
    return this.tokens.waitMs(this.last);
  }
}

/** Token cost of a frame: one per message, one more per started 2 KB beyond the first. */
export function frameCost(bytes: number): number {
  return 1 + Math.floor(Math.max(0, bytes - 1) / 2048);
}

/** Answers a refused frame to its sender. */
export type Reply = (client: Client, type: string, rejection: Rejection) => void;

/** The budgets of a room's connections. */
export class FrameGate {
  private readonly budgets = new WeakMap<Client, MessageBudget>();

  constructor(private readonly limits: BudgetLimits) {}

  /** True when Colyseus may decode and dispatch the frame. */
  admit(client: Client, frame: Buffer, now: number, reply: Reply): boolean {
    let budget = this.budgets.get(client);
    if (!budget) this.budgets.set(client, (budget = new MessageBudget(this.limits)));
    const verdict = budget.take(now, frameCost(frame.length));
    if (verdict === 'close') {
      client.leave(1008, 'message budget exceeded');
      return false;
    }
    if (verdict === 'limited') {
      // Every refused message is answered (never a silent drop): a client that waits
      // `retryAfterMs` and resends gets through; one that keeps flooding runs out of strikes.
      reply(client, typeOf(frame), { code: 'rate_limited', message: 'too many messages', retryAfterMs: budget.retryAfterMs() });
      return false;
    }
    if (frame[0] === Protocol.ROOM_DATA_BYTES) {
      reply(client, typeOf(frame), { code: 'bad_payload', message: 'raw byte messages are not part of the protocol' });
      return false;
    }
    // The payload's exact bytes, before msgpack reads any: a frame no larger than the smallest
    // limit needs no look at its type.
    if (frame.length > MAX_PAYLOAD_BYTES) {
      const head = headOf(frame);
      const limit = maxPayloadBytes(head.type);
      if (frame.length - head.payloadAt > limit) {
        reply(client, String(head.type).slice(0, 64), { code: 'payload_too_large', message: `payload over ${limit} bytes` });
        return false;
      }
    }
    return true;
  }
}

/** The message type a frame names ('?' if undecodable) and where its payload starts. */
function headOf(frame: Buffer): { type: string | number; payloadAt: number } {
  try {
    const it = { offset: 1 };
    const type = decode.stringCheck(frame, it) ? decode.string(frame, it) : decode.number(frame, it);
    return { type, payloadAt: it.offset };
  } catch {
    return { type: '?', payloadAt: frame.length };
  }
}

/** The message type a frame names, for a refusal ('?' if undecodable). */
function typeOf(frame: Buffer): string {
  return String(headOf(frame).type).slice(0, 64);
}
