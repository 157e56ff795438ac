/**
 * The computer players of one room. After every commit the driver looks at the match: when the
 * player to move holds a bot seat, it asks the process's pool for a turn (`think`, which never
 * rejects and always answers a legal turn) and, after a human-like delay, submits a normal
 * `turn` intent through the pipeline: the same validation and record events as a person's, no
 * privileged path. A refused or late answer is replaced by the fallback turn, so a bot never
 * stalls a game nor lets its clock run out. Bots also answer draw offers and pact proposals
 * (through `press` intents, reading only what their own seat may read) and write short table
 * messages. `dispose` stops everything: no timer outlives the room.
 */
import { type BotLevel, BotsOption, type Colour, COLOURS, check, isPlainObject, playTurn, type Position, type Turn } from '@djambi/shared';
import { colourIndex } from '../bots/board.js';
import { scores } from '../bots/evaluate.js';
import { decidePact, tableMessage } from '../bots/pact.js';
import { decisionSeed } from '../bots/rng.js';
import { fallbackTurn, LEVEL_TIME_MS } from '../bots/search.js';
import type { Rejection } from '../errors.js';
import type { Accepted, Intent, Match } from '../match/match.js';
import { RATE_INTERVAL_MS } from '../press/rateLimit.js';
import type { MemberId } from '../press/types.js';
import type { Connections } from './connections.js';
import { joinError } from './join.js';
import type { BotSettings } from './settings.js';

/** What the driver needs of its room. */
export interface BotRoomPort {
  readonly match: () => Match;
  readonly links: Connections;
  /** One intent through the pipeline (as `Pipeline.step`): the accepted outcome, or null with `refused` called. */
  readonly submit: (intent: Intent, refused: (r: Rejection) => void) => Promise<Accepted | null>;
  /** Server time, epoch ms. */
  readonly now: () => number;
  /** Seed of the room's decisions (derived from its code). */
  readonly seed: number;
}

/** What the bots of a room did (for tests and monitoring). */
export interface BotDriverStats {
  /** Turns submitted and accepted. */
  turns: number;
  /** Turns that came from the fallback (late pool, refused search turn). */
  fallbacks: number;
  /** Intents of the bots the match refused (a bug if ever non-zero, stale answers apart). */
  refused: number;
  /** Refusal codes, in order. */
  readonly codes: string[];
  /** Pact and draw answers, table messages. */
  press: number;
  /** Turns a bot played for an absent player. */
  standIns: number;
}

/** The level of a stand-in bot. */
const STAND_IN_LEVEL: BotLevel = 'normal';

/** A draw is accepted when the bot's evaluation is this far (militants) below the mean of the active players. */
const BEHIND_MARGIN = 2;

/** The bot driver of one room. */
export class BotDriver {
  readonly stats: BotDriverStats = { turns: 0, fallbacks: 0, refused: 0, codes: [], press: 0, standIns: 0 };
  /** The version (plies played) a decision is under way for, or -1. */
  private thinking = -1;
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;
  /** Press questions already answered ("pact:ID:C", "draw:ID:C"). */
  private readonly answered = new Set<string>();
  private lastTableMessage = Number.NEGATIVE_INFINITY;
  /** `autostart` create option: the game starts once every seat is taken (asked once). */
  private autostart = false;
  /** `stand_in` create option (on by default, also for games re-opened from the log). */
  private standIn = true;
  /** Seats a bot has played for since their player left (the mirror shows them while the player is away). */
  readonly standingIn = new Set<Colour>();
  /** Wakes the driver when an absent player's stand-in is due. */
  private wake: NodeJS.Timeout | null = null;

  constructor(
    private readonly port: BotRoomPort,
    private readonly settings: BotSettings,
  ) {}

  /** Reads the create options this driver acts on (`autostart`; the bots are seated by `seatCreationBots`). */
  created(options: unknown): void {
    this.autostart = isPlainObject(options) && options.autostart === true;
    this.standIn = !(isPlainObject(options) && options.stand_in === false);
  }

  /** Shows bot seats with presence `bot` (before each mirror). */
  sync(): void {
    const now = this.port.now();
    for (const seat of this.port.match().seats.seats.values()) {
      const link = this.port.links.of(seat.colour);
      if (seat.bot !== null && link.presence !== 'bot') {
        link.sessionId = null;
        link.key = null;
        link.presence = 'bot';
        link.since = now;
      } else if (seat.bot === null && link.presence === 'bot') {
        this.port.links.free(seat.colour, now);
      }
    }
  }

  /** After every commit: answer what the bots were asked, and play when a bot is to move. */
  afterCommit(): void {
    if (this.disposed) return;
    for (const c of this.standingIn) if (this.port.links.of(c).presence === 'connected') this.standingIn.delete(c);
    const match = this.port.match();
    if (match.phase === 'over') return;
    const host = match.seats.hostColour();
    if (this.autostart && match.phase === 'waiting' && host !== null && match.seats.allTaken()) {
      // The host's own `start`, as if it pressed the button: every seat is taken, nobody else can come.
      this.autostart = false;
      void this.port.submit({ type: 'start', colour: host }, (r) => this.refused(r));
    }
    this.answerPress(match);
    if (match.phase === 'playing') this.maybePlay(match);
  }

  /** Stops the driver: a pending decision is dropped, no timer is left. */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.clearWake();
  }

  private levelOf(match: Match, colour: Colour | null): BotLevel | null {
    return colour ? (match.seats.get(colour)?.bot ?? null) : null;
  }

  private maybePlay(match: Match): void {
    this.clearWake();
    const colour = match.position.toMove;
    const version = match.game.length;
    if (!colour || this.thinking === version) return;
    const level = this.levelOf(match, colour);
    if (level) {
      this.thinking = version;
      void this.play(match, colour, level, version, false);
      return;
    }
    const due = this.standInDue(match, colour);
    if (due === 0) {
      this.thinking = version;
      void this.play(match, colour, STAND_IN_LEVEL, version, true);
    } else if (due !== null) {
      this.wake = setTimeout(() => {
        this.wake = null;
        this.afterCommit();
      }, due);
    }
  }

  /** Ms until a bot stands in for the absent player `colour` (0: now), or null (present, or no stand-in). */
  private standInDue(match: Match, colour: Colour): number | null {
    if (!this.standIn || !match.seats.get(colour)?.keyHash) return null;
    const link = this.port.links.of(colour);
    if (link.presence === 'connected' || link.presence === 'bot' || link.presence === 'empty') return null;
    const now = this.port.now();
    const away = Math.max(0, this.settings.standInMs - (now - link.since));
    const flagMs = match.msToFlag(now);
    const clock = flagMs === null ? Infinity : Math.max(0, flagMs - this.settings.standInFlagMs);
    return Math.min(away, clock);
  }

  /** Still absent (a player who came back between two turns plays its own turn). */
  private stillAbsent(colour: Colour): boolean {
    const presence = this.port.links.of(colour).presence;
    return presence !== 'connected';
  }

  private clearWake(): void {
    if (this.wake) clearTimeout(this.wake);
    this.wake = null;
  }

  /** One decision: the pool's turn (or the fallback) after the delay, then the intent. */
  private async play(match: Match, colour: Colour, level: BotLevel, version: number, standIn: boolean): Promise<void> {
    const position = match.position;
    const flagMs = match.msToFlag(this.port.now());
    // The bot never times out on its clock: delay and search take a small part of what is left.
    const delay = Math.min(this.delayMs(version), flagMs === null ? Infinity : flagMs / 4);
    const partners = this.partnersOf(match, colour);
    const started = performance.now();
    const turn = await this.decide(position, colour, level, version, partners, flagMs);
    const wait = delay - (performance.now() - started);
    if (wait > 0) await new Promise<void>((resolve) => (this.timer = setTimeout(resolve, wait)));
    this.timer = null;
    if (this.disposed || this.port.match().game.length !== version) return;
    if (standIn && !this.stillAbsent(colour)) {
      this.thinking = -1;
      return;
    }
    let ok = await this.submitTurn(colour, turn, version, position, standIn);
    if (!ok && !this.disposed && this.port.match().game.length === version) {
      this.stats.fallbacks++;
      ok = await this.submitTurn(colour, fallbackTurn(position, partners), version, position, standIn);
    }
    if (!ok && !this.disposed && this.port.match().game.length === version) {
      // A refused fallback (the store was unavailable): try again shortly, never stall.
      this.timer = setTimeout(() => {
        this.timer = null;
        if (this.thinking === version) this.thinking = -1;
        this.afterCommit();
      }, 1000);
    }
  }

  private async decide(position: Position, colour: Colour, level: BotLevel, version: number, partners: Colour[], flagMs: number | null): Promise<Turn> {
    const pool = this.settings.pool;
    if (!pool) {
      this.stats.fallbacks++;
      return fallbackTurn(position, partners);
    }
    // The first decision waits for the worker to start (its deadline would otherwise run out while it loads).
    await pool.ready();
    if (this.disposed) return fallbackTurn(position, partners);
    const seed = decisionSeed(this.port.seed, version, colourIndex(colour));
    const nodes = this.settings.nodes;
    const timeMs = flagMs === null ? undefined : Math.max(5, Math.min(LEVEL_TIME_MS[level], flagMs / 4));
    const answer = await pool.think(position, {
      level,
      seed,
      partners,
      ...(nodes !== null ? { nodes } : {}),
      ...(timeMs !== undefined ? { timeMs } : {}),
    });
    if (answer.source === 'fallback') this.stats.fallbacks++;
    return answer.turn;
  }

  private async submitTurn(colour: Colour, turn: Turn, version: number, before: Position, standIn: boolean): Promise<boolean> {
    const intent: Intent = standIn ? { type: 'turn', colour, turn, version, standIn: true } : { type: 'turn', colour, turn, version };
    // Before the turn's own commit, so that its patch already shows who played it.
    if (standIn) this.standingIn.add(colour);
    const out = await this.port.submit(intent, (r) => this.refused(r));
    if (!out) return false;
    this.stats.turns++;
    if (standIn) this.stats.standIns++;
    else this.tableLine(colour, turn, before);
    return true;
  }

  private refused(r: Rejection): void {
    this.stats.refused++;
    this.stats.codes.push(r.code);
  }

  /** Players bound with `colour` by a pact in force. */
  private partnersOf(match: Match, colour: Colour): Colour[] {
    const out = new Set<Colour>();
    for (const pact of match.press.pacts.viewsFor(colour as MemberId)) {
      if (pact.status !== 'in_force' || !pact.standing.includes(colour)) continue;
      for (const q of pact.standing) if (q !== colour) out.add(q);
    }
    return [...out];
  }

  /** Draw offers (decline unless behind) and pact proposals (`decidePact`) to the bot seats. */
  private answerPress(match: Match): void {
    const position = match.position;
    const offer = match.press.draws.current();
    let offerOpen = offer !== null;
    for (const seat of match.seats.seats.values()) {
      if (seat.bot === null) continue;
      const me = seat.colour;
      if (!((position.activeMask >> colourIndex(me)) & 1)) continue;
      if (offer && offerOpen && offer.by !== me && !offer.accepted.includes(me) && this.first(`draw:${offer.id}:${me}`)) {
        const accept = this.isBehind(position, me);
        this.press(me, accept ? 'draw_accept' : 'draw_decline', { offer: offer.id });
        // One decline ends the offer: the other bots have nothing left to answer.
        if (!accept) offerOpen = false;
      }
      const betrayals = match.press.pacts.betrayalsFor(me as MemberId);
      for (const pact of match.press.pacts.viewsFor(me as MemberId)) {
        if (pact.status !== 'proposed' || pact.accepted.includes(me) || !this.first(`pact:${pact.id}:${me}`)) continue;
        const decision = decidePact(position, me, pact, betrayals);
        this.press(me, decision.accept ? 'pact_accept' : 'pact_decline', { pact: pact.id });
      }
    }
  }

  private first(key: string): boolean {
    if (this.answered.has(key)) return false;
    this.answered.add(key);
    return true;
  }

  private isBehind(position: Position, me: Colour): boolean {
    const s = scores(position);
    const actives = COLOURS.filter((c) => (position.activeMask >> colourIndex(c)) & 1);
    const mean = actives.reduce((sum, c) => sum + s[colourIndex(c)], 0) / Math.max(1, actives.length);
    return s[colourIndex(me)] < mean - BEHIND_MARGIN;
  }

  /** A short table line about a bot's own turn, at most one per `tableMessageMs` in the room. */
  private tableLine(colour: Colour, turn: Turn, before: Position): void {
    const now = this.port.now();
    // Never faster than the press's own rate (`rate_limited`), whatever the setting.
    if (now - this.lastTableMessage < Math.max(this.settings.tableMessageMs, RATE_INTERVAL_MS)) return;
    const played = playTurn(before, turn);
    const text = played.ok ? tableMessage(before, played.value.effects, colour) : null;
    if (!text) return;
    this.lastTableMessage = now;
    this.press(colour, 'press_send', { channel: 'table', text });
  }

  private press(member: Colour, message: 'draw_accept' | 'draw_decline' | 'pact_accept' | 'pact_decline' | 'press_send', payload: unknown): void {
    this.stats.press++;
    void this.port.submit({ type: 'press', member: member as MemberId, message, payload }, (r) => this.refused(r));
  }

  /** The delay before the turn of ply `version`, drawn from the room's seed in [min, max]. */
  private delayMs(version: number): number {
    const { minDelayMs, maxDelayMs } = this.settings;
    if (maxDelayMs <= minDelayMs) return minDelayMs;
    const x = Math.sin(this.port.seed * 12.9898 + version * 78.233) * 43758.5453;
    return minDelayMs + (x - Math.floor(x)) * (maxDelayMs - minDelayMs);
  }
}

/** A 32-bit seed from a room code. */
export function seedOfCode(code: string): number {
  let h = 2166136261;
  for (let i = 0; i < code.length; i++) h = Math.imul(h ^ code.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Seats the bots of the `bots` create option (checked already by `openGame`), in seat order, as
 * recorded `add_bot` events (so a restore rebuilds them); a game whose every seat is a bot
 * starts at once.
 */
export async function seatCreationBots(options: unknown, match: Match, submit: (intent: Intent) => Promise<Accepted | null>): Promise<void> {
  const parsed = check(BotsOption, isPlainObject(options) ? (options.bots ?? {}) : {});
  if (!parsed.ok) throw joinError('bad_options', parsed.error.message);
  const bots = parsed.value;
  const intents: Intent[] = COLOURS.filter((c) => bots[c] !== undefined).map((c) => ({
    type: 'add_bot',
    colour: null,
    target: c,
    level: bots[c]!,
    atCreation: true,
  }));
  for (const intent of intents) if (!(await submit(intent))) throw joinError('storage_unavailable', 'the bots could not be seated');
  if (match.seats.allBots() && !(await submit({ type: 'start', colour: null, auto: true }))) {
    throw joinError('storage_unavailable', 'the game could not be started');
  }
}
