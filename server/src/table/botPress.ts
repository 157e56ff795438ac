/**
 * The press of a room's computer players (notes §6), through ordinary `press` intents only,
 * reading only what each bot's own seat may read: answers to draw offers and pact proposals
 * (`decidePact`, in the worker), each bot's own pact plans before its turn (`Negotiator`:
 * propose, leave openly, remember betrayals), and its short table lines, kept under the press's
 * rate limit. Driven by `BotDriver` (`bots.ts`).
 */
import { type BotLevel, type BotPersonality, type Colour, COLOURS, colourIndex, type PactView, playTurn, type Position, type Turn } from '@djambi/shared';
import { scores } from '../bots/evaluate.js';
import { decidePact, leaveMessage, Negotiator, PERSONALITY_WEIGHTS, tableMessage } from '../bots/pact.js';
import type { Rejection } from '../errors.js';
import type { Accepted, Intent, Match } from '../match/match.js';
import { RATE_BURST, RATE_INTERVAL_MS } from '../press/rateLimit.js';
import type { MemberId } from '../press/types.js';
import type { Connections } from './connections.js';
import type { BotPool } from '../bots/pool.js';

/** Rate-limited press intents a bot seat sends in any `RATE_BURST` seconds (the bucket holds `RATE_BURST`, refilled one a second). */
const PRESS_PER_WINDOW = 3;

/** A draw is accepted when the bot's evaluation is this far (militants) below the mean of the active players. */
const BEHIND_MARGIN = 2;

/** What the press needs of its driver. */
/** What the driver needs of its room. */
/** The computer players of the rooms of one process. */
export interface BotSettings {
  /** The process's search worker (one per process); null: bots play the cheap fallback turn on the room's thread. */
  readonly pool: BotPool | null;
  /** Human-like delay before a bot's turn, drawn in [min, max] ms (tests: 0). */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** Node-budget mode (reproducible, for tests); null: the level's wall-clock budget. */
  readonly nodes: number | null;
  /** Shortest gap between two table messages of a room's bots, ms. */
  readonly tableMessageMs: number;
  /** Stand-in: a bot plays for a player away this long (ms), or at once when its clock has less than `standInFlagMs` left. */
  readonly standInMs: number;
  readonly standInFlagMs: number;
}

/** Defaults of the bot settings (`createServer` adds the process's pool). */
export const DEFAULT_BOT_SETTINGS: BotSettings = Object.freeze({
  pool: null,
  minDelayMs: 500,
  maxDelayMs: 1000,
  nodes: null,
  tableMessageMs: 20_000,
  standInMs: 60_000,
  standInFlagMs: 3_000,
});

export interface BotRoomPort {
  readonly match: () => Match;
  readonly links: Connections;
  /** One intent through the pipeline (as `Pipeline.step`): the accepted outcome, or null with `refused` called. */
  readonly submit: (intent: Intent, refused: (r: Rejection) => void) => Promise<Accepted | null>;
  /** Server time, epoch ms. */
  readonly now: () => number;
  /** Seed of the room's decisions (derived from its code). */
  readonly seed: number;
  /** A bug thrown while the bots played (the room closes and re-opens from the log: see `DjambiRoom.fault`). */
  readonly fault: (error: unknown) => void;
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
  /** Pact and draw answers, proposals, leaves, table messages. */
  press: number;
  /** Pacts the bots proposed. */
  proposals: number;
  /** Pacts the bots left openly. */
  leaves: number;
  /** Turns a bot played for an absent player. */
  standIns: number;
}

export interface BotPressHooks {
  /** The personality a bot plays with (easy bots: loyal). */
  readonly personalityFor: (colour: Colour, level: BotLevel) => BotPersonality;
  /** The driver was stopped: answers still under way are dropped. */
  readonly disposed: () => boolean;
  /** An intent of a bot was refused. */
  readonly refused: (r: Rejection) => void;
}

/** The press of the bots of one room. */
export class BotPress {
  /** Press questions already answered ("pact:ID:C", "draw:ID:C"). */
  private readonly answered = new Set<string>();
  private lastTableMessage = Number.NEGATIVE_INFINITY;
  /** Server times of each bot seat's recent rate-limited press intents (proposals, table lines). */
  private readonly recentPress = new Map<Colour, number[]>();
  /** The pact plans of each bot seat. */
  private readonly negotiators = new Map<Colour, Negotiator>();

  constructor(
    private readonly port: BotRoomPort,
    private readonly settings: BotSettings,
    private readonly stats: BotDriverStats,
    private readonly hooks: BotPressHooks,
  ) {}

  /** Draw offers (decline unless behind) and pact proposals (`decidePact`) to the bot seats. */
  answer(match: Match): void {
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
      const remembered = this.negotiator(me, seat.bot).remember(betrayals);
      if (remembered) this.say(me, remembered, true);
      for (const pact of match.press.pacts.viewsFor(me as MemberId)) {
        if (pact.status !== 'proposed' || pact.accepted.includes(me) || !this.first(`pact:${pact.id}:${me}`)) continue;
        this.answerPact(position, me, seat.bot, pact, betrayals).catch(this.port.fault);
      }
    }
  }

  /** A pact proposal to a bot seat: `decidePact` in the worker (on this thread without a pool), then the answer if still wanted. */
  private async answerPact(
    position: Position,
    me: Colour,
    level: BotLevel,
    pact: PactView,
    betrayals: readonly { traitor: Colour; victim: Colour }[],
  ): Promise<void> {
    const personality = PERSONALITY_WEIGHTS[this.hooks.personalityFor(me, level)];
    const pool = this.settings.pool;
    if (pool) await pool.ready();
    const decision = pool ? await pool.answerPact(position, me, pact, betrayals, personality) : decidePact(position, me, pact, betrayals, personality);
    if (this.hooks.disposed()) return;
    const now = this.port
      .match()
      .press.pacts.viewsFor(me as MemberId)
      .find((p) => p.id === pact.id);
    if (now?.status !== 'proposed' || now.accepted.includes(me)) return;
    this.press(me, decision?.accept ? 'pact_accept' : 'pact_decline', { pact: pact.id });
  }

  /** The negotiator of bot seat `me` (easy bots are loyal and make no proposals). */
  private negotiator(me: Colour, level: BotLevel): Negotiator {
    let n = this.negotiators.get(me);
    if (!n) {
      n = new Negotiator(me, this.hooks.personalityFor(me, level), level !== 'easy');
      this.negotiators.set(me, n);
    }
    return n;
  }

  /**
   * Before a bot's own turn: values its pacts and the pacts it might propose (in the worker), then
   * leaves openly the pacts that no longer pay (with a table line) and proposes the best one.
   */
  async negotiate(match: Match, me: Colour, level: BotLevel): Promise<void> {
    const pool = this.settings.pool;
    if (!pool) return;
    const negotiator = this.negotiator(me, level);
    const position = match.position;
    const pacts = match.press.pacts.viewsFor(me as MemberId);
    const betrayals = match.press.pacts.betrayalsFor(me as MemberId);
    const ask = negotiator.ask(position, pacts, betrayals);
    const groups = Negotiator.groups(ask);
    if (groups.length === 0) return;
    await pool.ready();
    const values = await pool.valuePacts(position, me, groups, betrayals);
    if (this.hooks.disposed() || this.port.match().position !== position) return;
    const plan = negotiator.plan(position, ask, values);
    for (const leave of plan.leave) {
      this.stats.leaves++;
      this.press(me, 'pact_leave', { pact: leave.id });
      this.say(me, leaveMessage(me, leave.partners), true);
    }
    if (plan.propose && this.pressAllowed(me)) {
      this.stats.proposals++;
      this.press(me, 'pact_propose', { with: [...plan.propose.with], rounds: plan.propose.rounds, announce: plan.propose.announce });
    }
  }

  /**
   * Takes one of bot seat `me`'s rate-limited press intents, if it may send one now: at most
   * `PRESS_PER_WINDOW` in `RATE_BURST` seconds, so the press's own bucket (`RATE_BURST` at once,
   * one more a second) never runs dry and no bot intent is ever `rate_limited`.
   */
  private pressAllowed(me: Colour): boolean {
    const now = this.port.now();
    const recent = (this.recentPress.get(me) ?? []).filter((t) => now - t < RATE_BURST * RATE_INTERVAL_MS);
    if (recent.length >= PRESS_PER_WINDOW) return false;
    recent.push(now);
    this.recentPress.set(me, recent);
    return true;
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

  /** A short table line about a bot's own turn (`say`). */
  tableLine(colour: Colour, turn: Turn, before: Position): void {
    const played = playTurn(before, turn);
    const text = played.ok ? tableMessage(before, played.value.effects, colour) : null;
    if (text) this.say(colour, text);
  }

  /**
   * A table message of bot seat `colour`: at most one per `tableMessageMs` in the room (lines
   * about pacts and betrayals, `news`, are not held back by it), and within the seat's press rate.
   */
  private say(colour: Colour, text: string, news = false): void {
    const now = this.port.now();
    if (!news && now - this.lastTableMessage < Math.max(this.settings.tableMessageMs, RATE_INTERVAL_MS)) return;
    if (!this.pressAllowed(colour)) return;
    if (!news) this.lastTableMessage = now;
    this.press(colour, 'press_send', { channel: 'table', text });
  }

  private press(
    member: Colour,
    message: 'draw_accept' | 'draw_decline' | 'pact_accept' | 'pact_decline' | 'pact_propose' | 'pact_leave' | 'press_send',
    payload: unknown,
  ): void {
    this.stats.press++;
    void this.port.submit({ type: 'press', member: member as MemberId, message, payload }, (r) => this.hooks.refused(r));
  }
}
