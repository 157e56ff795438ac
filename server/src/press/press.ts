/**
 * The press of one room: channels, pacts, draw offers and the after-game reveal behind one
 * object. Pure TypeScript (no Colyseus): the room calls it with the member (seat colour or
 * spectator id), the payload and the time, and sends the returned deliveries with `client.send`
 * to exactly the members listed; a rejection goes to the sender only.
 */
import { randomBytes } from 'node:crypto';
import {
  applyEvent,
  check,
  PRESS_CLIENT_MESSAGES,
  PRESS_CLIENT_SCHEMAS,
  type Colour,
  type Effect,
  type Position,
  type PressClientMessage,
  type PressClientPayload,
  type RecordEvent,
  type Turn,
} from '@djambi/shared';
import { Channels } from './channels.js';
import { Draws } from './draws.js';
import { Pacts } from './pacts.js';
import { PAGE_BURST, PAGE_INTERVAL_MS, RateLimiter } from './rateLimit.js';
import { buildReveal } from './reveal.js';
import { Roster } from './roster.js';
import { cleanName, refuse } from './text.js';
import type {
  Delivery,
  MemberId,
  PressHistory,
  PressPage,
  PressRejection,
  PressResult,
  PressReveal,
  PressRoomOptions,
  PressVisibility,
  SpectatorId,
} from './types.js';

/** Room create options read by the press. */
export const PRESS_OPTION_KEYS = ['press_visibility', 'reveal_press_after_game'] as const;

/** Defaults of the press room options. */
export const PRESS_DEFAULTS: PressRoomOptions = Object.freeze({ press_visibility: 'hidden', reveal_press_after_game: true });

/**
 * One accepted record event as the room's `Game` returns it (structurally its `Entry`, or its
 * `Applied`, which also carries the engine's effects and the position after the entry).
 */
export interface PressEntry {
  readonly kind: 'turn' | 'pass' | 'resign' | 'timeout' | 'draw';
  /** The player concerned (null for a draw by agreement). */
  readonly colour: Colour | null;
  /** The turn of `turn` and `pass` entries. */
  readonly turn: Turn | null;
  /** Turn notation ('' for resignations and draws). */
  readonly text: string;
  /** The engine's effects of the entry; with `position`, spares a replay. */
  readonly effects?: readonly Effect[];
  /** The position after the entry; with `effects`, spares a replay. */
  readonly position?: Position;
}

/** The record event of an entry (what `applyEvent` replays). */
export function eventOf(entry: PressEntry): RecordEvent {
  switch (entry.kind) {
    case 'turn':
    case 'pass':
      if (entry.turn === null) throw new Error(`press: a ${entry.kind} entry without its turn`);
      return { type: 'turn', turn: entry.turn };
    case 'resign':
    case 'timeout':
      if (entry.colour === null) throw new Error(`press: a ${entry.kind} entry without its colour`);
      return entry.kind === 'timeout' ? { type: 'resign', colour: entry.colour, timeout: true } : { type: 'resign', colour: entry.colour };
    case 'draw':
      return { type: 'draw' };
  }
}

/** How to build a room's press. */
export interface PressOptions extends Partial<PressRoomOptions> {
  /** The seats of the game (`seatsOf(rules)`). */
  readonly seats: readonly Colour[];
  /** Pact ids: unguessable, so that announced pacts do not tell how many secret ones exist. */
  readonly newId?: () => string;
}

/** Reads `press_visibility` and `reveal_press_after_game` from room create options (other keys ignored). */
export function parsePressOptions(options: unknown): { ok: true; value: PressRoomOptions } | { ok: false; code: 'bad_options'; message: string } {
  const o = options !== null && typeof options === 'object' && !Array.isArray(options) ? (options as Record<string, unknown>) : {};
  const visibility = o.press_visibility ?? PRESS_DEFAULTS.press_visibility;
  if (visibility !== 'hidden' && visibility !== 'existence')
    return { ok: false, code: 'bad_options', message: '"press_visibility" must be "hidden" or "existence"' };
  const reveal = o.reveal_press_after_game ?? PRESS_DEFAULTS.reveal_press_after_game;
  if (typeof reveal !== 'boolean') return { ok: false, code: 'bad_options', message: '"reveal_press_after_game" must be true or false' };
  return { ok: true, value: { press_visibility: visibility as PressVisibility, reveal_press_after_game: reveal } };
}

const CLIENT_TYPES: ReadonlySet<string> = new Set(PRESS_CLIENT_MESSAGES);

/** True for a client → server press message type. */
function isPressClientMessage(type: string): type is PressClientMessage {
  return CLIENT_TYPES.has(type);
}

function randomPactId(): string {
  return randomBytes(6).toString('base64url');
}

/** The negotiation state of one room. */
export class Press {
  readonly options: PressRoomOptions;
  readonly roster: Roster;
  readonly channels: Channels;
  readonly pacts: Pacts;
  readonly draws: Draws;
  /** Messages, channel openings, pact proposals and draw offers, per limit key. */
  private readonly limiter = new RateLimiter();
  /** `press_page` requests, per limit key. */
  private readonly pageLimiter = new RateLimiter(PAGE_BURST, PAGE_INTERVAL_MS);
  private revealed: PressReveal | null = null;

  constructor(options: PressOptions) {
    this.options = {
      press_visibility: options.press_visibility ?? PRESS_DEFAULTS.press_visibility,
      reveal_press_after_game: options.reveal_press_after_game ?? PRESS_DEFAULTS.reveal_press_after_game,
    };
    this.roster = new Roster(options.seats);
    this.channels = new Channels(this.roster, this.options, this.limiter, this.pageLimiter);
    this.pacts = new Pacts(this.roster, this.limiter, options.newId ?? randomPactId);
    this.draws = new Draws(this.roster, this.limiter);
  }

  // ---- members and phases ------------------------------------------------------------------------

  /**
   * Registers a spectator (false for an id that is empty or a colour). Then send it
   * `historyFor(id)`. `limitKey` is what its rate limits and author caps are counted under, so
   * that they survive a rejoin: the room passes `addr:<client address>`. Without one (or with an
   * invalid one: empty, over 128 characters, a colour) the spectator's id is its key.
   */
  addSpectator(id: SpectatorId, name?: string, limitKey?: string): boolean {
    return this.roster.addSpectator(id, cleanName(name), limitKey);
  }

  /**
   * Forgets a spectator who left: its read state, and its buckets if they were keyed by its id
   * (that id never comes back). Buckets and author counts kept under a limit key stay: the next
   * connection from the same address finds them.
   */
  removeSpectator(id: SpectatorId): void {
    const key = this.roster.limitKeyOf(id);
    if (!this.roster.removeSpectator(id)) return;
    this.channels.forget(id);
    if (key === id) {
      this.limiter.forget(id);
      this.pageLimiter.forget(id);
    }
  }

  /**
   * Seat holders moved before the start (`from` → `to`, a swap is two moves): their rate-limit
   * buckets (messages and pages) go with them, so that a move buys no new burst.
   */
  moveSeats(moves: readonly { readonly from: Colour; readonly to: Colour }[]): void {
    const pairs = moves.map((m) => [m.from, m.to] as const);
    this.limiter.move(pairs);
    this.pageLimiter.move(pairs);
  }

  /** The key `member`'s rate limits and author caps are counted under. */
  limitKeyOf(member: MemberId): string {
    return this.roster.limitKeyOf(member);
  }

  /** The game started from `pos`: private and group channels, pacts and draw offers open. */
  start(pos: Position): void {
    if (this.roster.phase !== 'waiting') return;
    this.roster.phase = 'playing';
    this.roster.sync(pos);
  }

  // ---- client messages ---------------------------------------------------------------------------

  /**
   * Dispatches a client message of one of `PRESS_CLIENT_MESSAGES`. The payload is checked with
   * its shared schema (`PRESS_CLIENT_SCHEMAS`) first: a bad shape is `bad_payload` with the
   * path of the bad field, and reaches no handler.
   */
  handle(member: MemberId, type: string, payload: unknown, now: number): PressResult {
    if (!isPressClientMessage(type)) return refuse('unknown_message', `unknown press message "${String(type).slice(0, 32)}"`);
    return this.dispatch(type, member, payload, now);
  }

  /**
   * `handle` for a message of a log being replayed: its payload passed the schema when it was
   * first accepted, so it goes to its handler unchecked (as the engine applies a stored turn
   * without its legality search). The press's own rules (text, membership, rate limits) still
   * run: they are what rebuilds the state.
   */
  replay<K extends PressClientMessage>(member: MemberId, type: K, payload: unknown, now: number): PressResult {
    // The schemas are strict objects that read a missing payload as `{}` and change nothing
    // else: an accepted payload is its own output.
    return this.handlers[type](member, (payload ?? {}) as PressClientPayload<K>, now);
  }

  private dispatch<K extends PressClientMessage>(type: K, member: MemberId, payload: unknown, now: number): PressResult {
    const shape = check(PRESS_CLIENT_SCHEMAS[type], payload);
    if (!shape.ok) {
      const { message, path } = shape.error;
      return { ok: false, error: path === undefined ? { code: 'bad_payload', message } : { code: 'bad_payload', message, path } };
    }
    // The schema's output is the payload type (`Output` only adds `readonly`).
    return this.handlers[type](member, shape.value as PressClientPayload<K>, now);
  }

  /** One handler per client message type, each given the payload its schema accepted. */
  private readonly handlers: { readonly [K in PressClientMessage]: (member: MemberId, p: PressClientPayload<K>, now: number) => PressResult } = {
    press_send: (m, p, now) => this.channels.send(m, p, now),
    press_open: (m, p, now) => this.channels.open(m, p, now),
    press_read: (m, p) => this.channels.markRead(m, p),
    press_page: (m, p, now) => this.channels.page(m, p, now),
    pact_propose: (m, p, now) => this.pacts.propose(m, p, now),
    pact_accept: (m, p, now) => this.pacts.accept(m, p, now),
    pact_decline: (m, p, now) => this.pacts.decline(m, p, now),
    pact_leave: (m, p, now) => this.pacts.leave(m, p, now),
    draw_offer: (m, _p, now) => this.draws.offerDraw(m, now),
    draw_accept: (m, p, now) => this.draws.accept(m, p, now),
    draw_decline: (m, p, now) => this.draws.decline(m, p, now),
  };

  /** `press_send { channel, text }`. */
  send(member: MemberId, payload: unknown, now: number): PressResult {
    return this.handle(member, 'press_send', payload, now);
  }

  /** Marks `member`'s messages up to `upToId` in `channel` as read (`press_read`). */
  markRead(member: MemberId, channel: unknown, upToId: unknown): PressResult {
    return this.handle(member, 'press_read', { channel, upTo: upToId }, 0);
  }

  // ---- game events -------------------------------------------------------------------------------

  /**
   * After each accepted turn or automatic pass: `before`/`after` positions, the engine's effects,
   * the player who moved (`before.toMove`), `ply` = `before.ply`. Lapses the draw offer, records
   * betrayals, releases eliminated players (who are sent their new history: they now read the
   * spectators channel), counts pact rounds, and reveals everything if the game ended.
   */
  afterTurn(before: Position, after: Position, effects: readonly Effect[], mover: Colour, ply: number, now: number, turnText = ''): Delivery[] {
    if (this.roster.phase === 'over') return [];
    if (this.roster.phase === 'waiting') this.start(before);
    const lapsed = this.draws.onTurn(now);
    const fromPacts = this.pacts.afterTurn(before, after, effects, mover, ply, turnText, now);
    // Both are new arrays, and on most turns both are empty.
    const out = lapsed.length === 0 ? fromPacts : fromPacts.length === 0 ? lapsed : [...lapsed, ...fromPacts];
    const gone = this.roster.sync(after);
    if (after.result) return [...out, ...this.endGame(now)];
    for (const c of gone) out.push(this.historyDelivery(c));
    return out;
  }

  /**
   * Convenience for the room: the entries one `game.play` / `game.resign` / `game.agreeDraw` call
   * returned (a turn and its automatic passes, a resignation, a draw), with `before` the position
   * before that call. The positions around each entry come from the entries themselves
   * (`position`, `effects`) or, when they do not carry them, from replaying each entry from
   * `before` (the engine is deterministic); each is then handed to `afterTurn`, `afterResign` or
   * `endGame`.
   */
  afterEntries(before: Position, entries: readonly PressEntry[], now: number): Delivery[] {
    const out: Delivery[] = [];
    let pos = before;
    for (const entry of entries) {
      let next: Position;
      let effects: readonly Effect[];
      if (entry.position !== undefined && entry.effects !== undefined) {
        next = entry.position;
        effects = entry.effects;
      } else {
        const r = applyEvent(pos, eventOf(entry));
        if (!r.ok) throw new Error(`press: entry ${entry.kind} does not replay: ${r.error.code} ${r.error.message}`);
        next = r.value.position;
        effects = r.value.effects;
      }
      if (entry.kind === 'turn' || entry.kind === 'pass') {
        out.push(...this.afterTurn(pos, next, effects, pos.toMove!, pos.ply, now, entry.text));
      } else if (entry.kind === 'resign' || entry.kind === 'timeout') {
        out.push(...this.afterResign(next, now));
      } else {
        out.push(...this.endGame(now, next));
      }
      pos = next;
    }
    return out;
  }

  /** After a resignation or a flag fall (not a turn: no betrayal can come of it). */
  afterResign(after: Position, now: number): Delivery[] {
    if (this.roster.phase !== 'playing') return [];
    const out = [...this.draws.onTurn(now)];
    const ply = this.roster.ply;
    const gone = this.roster.sync(after);
    out.push(...this.pacts.onEliminated(gone, ply, now));
    if (after.result) return [...out, ...this.endGame(now)];
    for (const c of gone) out.push(this.historyDelivery(c));
    return out;
  }

  /**
   * The game is over (any result, including a draw by agreement): pending offers lapse, pacts
   * end, and the reveal goes to every seat and spectator. Idempotent.
   */
  endGame(now: number, final?: Position): Delivery[] {
    if (this.roster.phase === 'over') return [];
    if (final) this.roster.sync(final);
    const out = this.draws.onTurn(now);
    this.roster.phase = 'over';
    this.pacts.endGame();
    this.revealed = buildReveal(this.channels, this.pacts, this.draws, this.options.reveal_press_after_game);
    out.push({ to: this.roster.everyone(), type: 'press_reveal', payload: this.revealed });
    return out.filter((d) => d.to.length > 0);
  }

  // ---- queries -----------------------------------------------------------------------------------

  /**
   * Everything `member` may see now (for `press_history` on join, reconnect and seat reclaim),
   * each channel with its latest `HISTORY_MESSAGES` messages (older ones: `press_page`).
   */
  historyFor(member: MemberId): PressHistory {
    const known = this.roster.isKnown(member);
    return {
      you: member,
      role: this.roster.isSeat(member) ? 'player' : 'spectator',
      phase: this.roster.phase,
      visibility: this.options.press_visibility,
      channels: known ? this.channels.viewsFor(member) : [],
      existing: known ? this.channels.existenceFor(member) : [],
      pacts: known ? this.pacts.viewsFor(member) : [],
      betrayals: known ? this.pacts.betrayalsFor(member) : [],
      draw: this.draws.current(),
      reveal: known ? this.revealed : null,
    };
  }

  /** `historyFor(member)` as a delivery to that member. */
  historyDelivery(member: MemberId): Delivery {
    return { to: [member], type: 'press_history', payload: this.historyFor(member) };
  }

  /**
   * A page of a revealed channel once the game is over (the archive's `?channel=&before=`):
   * up to `limit` messages older than `before` (absent: the latest ones). Before the end:
   * `game_not_started`; a channel the reveal does not hold: `no_such_channel`.
   */
  revealPage(channel: string, before: number | undefined, limit: number): { ok: true; page: PressPage } | { ok: false; error: PressRejection } {
    if (this.roster.phase !== 'over') return refuse('game_not_started', 'the reveal comes after the game');
    return this.channels.revealPage(channel, before, limit, this.options.reveal_press_after_game);
  }

  /** The reveal, once the game is over. */
  reveal(): PressReveal | null {
    return this.revealed;
  }
}
