/**
 * The computer players of one room. After every commit the driver looks at the match: when the
 * player to move holds a bot seat, it asks the process's pool for a turn (`think`, which never
 * rejects and always answers a legal turn) and, after a human-like delay, submits a normal
 * `turn` intent through the pipeline: the same validation and record events as a person's, no
 * privileged path. A refused or late answer is replaced by the fallback turn, so a bot never
 * stalls a game nor lets its clock run out. Bots also answer draw offers and pact proposals,
 * propose pacts, leave them openly before attacking a partner, remember betrayals and write short
 * table messages (`botPress.ts`, through `press` intents, reading only what their own seat may
 * read); an honest bot's turn never harms a pact partner (`keepPacts`). Each bot seat has a personality (`loyal`, `cautious`, `treacherous`), named in the
 * `bots` create option or drawn at creation, kept with `autostart` and `stand_in` in the room's
 * stored config so a restored game keeps them. `dispose` stops everything: no timer outlives the room.
 */
import { randomInt } from 'node:crypto';
import {
  type BotLevel,
  type BotPersonality,
  BotsOption,
  type Colour,
  COLOURS,
  colourIndex,
  check,
  hostileActs,
  isPlainObject,
  type Output,
  playTurn,
  type Position,
  type Turn,
} from '@djambi/shared';
import { drawPersonality, PERSONALITY_WEIGHTS } from '../bots/pact.js';
import { decisionSeed } from '../bots/rng.js';
import { fallbackTurn, LEVEL_TIME_MS } from '../bots/search.js';
import { JoinRefused, type Rejection } from '../errors.js';
import type { Accepted, Intent, Match } from '../match/match.js';
import type { MemberId } from '../press/types.js';
import { type BotDriverStats, BotPress, type BotRoomPort, type BotSettings } from './botPress.js';

export type { BotDriverStats, BotRoomPort, BotSettings };
export { DEFAULT_BOT_SETTINGS } from './botPress.js';
import type { RoomConfig } from '../match/config.js';

/** The level of a stand-in bot. */
const STAND_IN_LEVEL: BotLevel = 'normal';

/** A bot with less than this on its clock (ms) skips its pact plans for the turn. */
const NEGOTIATION_MIN_CLOCK_MS = 10_000;

/** The bot driver of one room. */
export class BotDriver {
  readonly stats: BotDriverStats = { turns: 0, fallbacks: 0, refused: 0, codes: [], press: 0, standIns: 0, proposals: 0, leaves: 0 };
  /** The version (plies played) a decision is under way for, or -1. */
  private thinking = -1;
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;
  /** `autostart` create option (stored with the game): the game starts once every seat is taken (asked once). */
  private autostart: boolean;
  /** `stand_in` create option (stored with the game; on by default, also for games stored before it). */
  private readonly standIn: boolean;
  /** Seats a bot has played for since their player left (the mirror shows them while the player is away). */
  readonly standingIn = new Set<Colour>();
  /** Wakes the driver when an absent player's stand-in is due. */
  private wake: NodeJS.Timeout | null = null;
  /** The bots' press: answers, pact plans, table lines. */
  private readonly talk: BotPress;

  constructor(
    private readonly port: BotRoomPort,
    private readonly settings: BotSettings,
  ) {
    const config = port.match().config.bots;
    this.autostart = config?.autostart ?? false;
    this.standIn = config?.standIn ?? true;
    this.talk = new BotPress(port, settings, this.stats, {
      personalityFor: (colour, level) => this.personalityFor(colour, level),
      disposed: () => this.disposed,
      refused: (r) => this.refused(r),
    });
  }

  /**
   * The personality of the bot on seat `colour`: the one stored with the game (named in the
   * create option or drawn at creation), else drawn from the room's seed. A secret of the bot.
   */
  personalityOf(colour: Colour): BotPersonality {
    return this.port.match().config.bots?.personalities[colour] ?? drawPersonality(this.port.seed, colour);
  }

  /** Shows bot seats with presence `bot` (before each mirror). */
  sync(): void {
    const match = this.port.match();
    const now = this.port.now();
    for (const seat of match.seats.seats.values()) {
      const link = this.port.links.of(seat.colour);
      if (seat.bot !== null && link.presence !== 'bot') {
        this.port.links.bot(seat.colour, now);
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
    // This runs after every turn: the host is looked for only when it may be asked to start.
    const host = this.autostart && match.phase === 'waiting' ? match.seats.hostColour() : null;
    if (host !== null && match.seats.allTaken()) {
      // The host's own `start`, as if it pressed the button: every seat is taken, nobody else can come.
      this.autostart = false;
      void this.port.submit({ type: 'start', colour: host }, (r) => this.refused(r));
    }
    // Only bot seats answer the press (a stand-in does not).
    if ([...match.seats.seats.values()].some((s) => s.bot !== null)) this.talk.answer(match);
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
      this.play(match, colour, level, version, false).catch(this.port.fault);
      return;
    }
    const due = this.standInDue(match, colour);
    if (due === 0) {
      this.thinking = version;
      this.play(match, colour, STAND_IN_LEVEL, version, true).catch(this.port.fault);
    } else if (due !== null) {
      this.wake = setTimeout(() => {
        this.wake = null;
        this.guarded(() => this.afterCommit());
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

  /** Runs a timer's work; a throw goes to the room's fault handler instead of the process. */
  private guarded(work: () => void): void {
    try {
      work();
    } catch (e) {
      this.port.fault(e);
    }
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
    // The partners of the pacts in force now: a pact left below still binds this turn (attack later).
    const bound = new Set(this.partnersOf(match, colour));
    const started = performance.now();
    // Talks only with time to spare: a pact valuation may take a few hundred ms of the bot's clock.
    if (!standIn && (flagMs === null || flagMs > NEGOTIATION_MIN_CLOCK_MS)) await this.talk.negotiate(match, colour, level);
    if (this.disposed || this.port.match().game.length !== version) return;
    for (const q of this.partnersOf(this.port.match(), colour)) bound.add(q);
    const searched = await this.decide(position, colour, level, version, [...bound], flagMs, standIn);
    const wait = delay - (performance.now() - started);
    if (wait > 0) await new Promise<void>((resolve) => (this.timer = setTimeout(resolve, wait)));
    this.timer = null;
    if (this.disposed || this.port.match().game.length !== version) return;
    if (standIn && !this.stillAbsent(colour)) {
      this.thinking = -1;
      return;
    }
    const turn = standIn || this.personalityFor(colour, level) !== 'treacherous' ? this.keepPacts(position, colour, searched, bound) : searched;
    let ok = await this.submitTurn(colour, turn, version, position, standIn);
    if (!ok && !this.disposed && this.port.match().game.length === version) {
      this.stats.fallbacks++;
      ok = await this.submitTurn(colour, fallbackTurn(position, [...bound]), version, position, standIn);
    }
    if (!ok && !this.disposed && this.port.match().game.length === version) {
      // A refused fallback (the store was unavailable): try again shortly, never stall.
      this.timer = setTimeout(() => {
        this.timer = null;
        if (this.thinking === version) this.thinking = -1;
        this.guarded(() => this.afterCommit());
      }, 1000);
    }
  }

  /**
   * An honest bot's turn harms no partner: one who joined a pact while the bot was thinking (it
   * accepted, or its proposal was) is added, and a turn that would harm a partner becomes the
   * fallback turn that respects them all.
   */
  private keepPacts(position: Position, colour: Colour, turn: Turn, bound: Set<Colour>): Turn {
    for (const q of this.partnersOf(this.port.match(), colour)) bound.add(q);
    if (bound.size === 0) return turn;
    const played = playTurn(position, turn);
    const acts = played.ok ? hostileActs(position, played.value.effects, colour) : null;
    if (acts && ![...bound].some((q) => acts.has(q))) return turn;
    this.stats.fallbacks++;
    return fallbackTurn(position, [...bound]);
  }

  /** The personality a bot plays with: easy bots are loyal (betrayal needs foresight, notes §6.1). */
  private personalityFor(colour: Colour, level: BotLevel): BotPersonality {
    return level === 'easy' ? 'loyal' : this.personalityOf(colour);
  }

  private async decide(
    position: Position,
    colour: Colour,
    level: BotLevel,
    version: number,
    partners: Colour[],
    flagMs: number | null,
    standIn: boolean,
  ): Promise<Turn> {
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
    // A stand-in plays for a person: plain weights, never a betrayal in their name.
    const personality = PERSONALITY_WEIGHTS[standIn ? 'loyal' : this.personalityFor(colour, level)];
    const answer = await pool.think(position, {
      level,
      seed,
      partners,
      personality,
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
    else this.talk.tableLine(colour, turn, before);
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
  const bots = creationBots(options);
  const intents: Intent[] = COLOURS.filter((c) => bots[c] !== undefined).map((c) => ({
    type: 'add_bot',
    colour: null,
    target: c,
    level: bots[c]!.level,
    atCreation: true,
  }));
  for (const intent of intents) if (!(await submit(intent))) throw new JoinRefused('storage_unavailable', 'the bots could not be seated');
  if (match.seats.allBots() && !(await submit({ type: 'start', colour: null, auto: true }))) {
    throw new JoinRefused('storage_unavailable', 'the game could not be started');
  }
}

/** The `bots` create option, checked (`bad_options` when it is not one). */
export function creationBots(options: unknown): Output<typeof BotsOption> {
  const parsed = check(BotsOption, isPlainObject(options) ? (options.bots ?? {}) : {});
  if (!parsed.ok) throw new JoinRefused('bad_options', parsed.error.message);
  return parsed.value;
}

/**
 * The bot options of a new room's config, from its (checked) create options: `autostart`,
 * `stand_in`, and a personality for every seat, the one named in `bots` or drawn now (so a
 * seat given a bot later has one too); stored with the game, so a restore keeps them.
 */
export function botConfigOf(options: unknown): NonNullable<RoomConfig['bots']> {
  const o = isPlainObject(options) ? options : {};
  const parsed = check(BotsOption, o.bots ?? {});
  const named = parsed.ok ? parsed.value : {};
  const seed = randomInt(2 ** 32);
  const personalities: Partial<Record<Colour, BotPersonality>> = {};
  for (const c of COLOURS) personalities[c] = named[c]?.personality ?? drawPersonality(seed, c);
  return { autostart: o.autostart === true, standIn: o.stand_in !== false, personalities };
}
