/**
 * Bots and negotiation (notes §6): whether to accept a proposed non-aggression pact, valued by
 * the one-ply search with and without the pact's restrictions, trust from the public betrayal
 * record, the personalities, a bot's own pact plans (`Negotiator`: propose, leave openly,
 * remember betrayals) and the short table messages a bot writes. No I/O: the room driver sends
 * what these decide as ordinary press intents.
 */
import {
  activePlayers,
  BOT_PERSONALITIES,
  type BotPersonality,
  type Colour,
  colourIndex,
  COLOUR_NAMES,
  geometryOf,
  type Effect,
  hostileActs,
  KINDS,
  type PactView,
  playTurn,
  type Position,
} from '@djambi/shared';
import { SEAT_COLOURS } from './board.js';
import { candidateTurns } from './candidates.js';
import { scores, utilityOf, type EvalOptions } from './evaluate.js';
import { seededRandom } from './rng.js';
import type { Personality } from './search.js';

/** Gain (militants) a pact must bring to be accepted (θ of notes §6.1). */
export const PACT_THRESHOLD = 0.5;
/** Longest pact an honest bot accepts, in rounds (open-ended pacts are re-evaluated instead). */
export const MAX_ACCEPTED_ROUNDS = 5;
/** Trust below which no pact is accepted. */
export const MIN_TRUST = 0.5;
/** Trust at which a partner's threats on the bot's non-chief pieces stop being feared. */
export const FULL_TRUST = 0.7;

/** A proposal as the bot sees it (the fields of a `PactView` it needs). */
export type PactProposal = Pick<PactView, 'proposer' | 'members' | 'rounds'>;

/** A recorded betrayal (the fields of `Betrayal` the bot needs). */
export interface BetrayalRecord {
  readonly traitor: Colour;
  readonly victim: Colour;
}

/** Why a bot answered as it did. */
export type PactReason = 'helps' | 'no_gain' | 'not_member' | 'betrayed_me' | 'untrusted' | 'too_long' | 'leader' | 'winning_attack' | 'not_active';

/** A bot's answer to a pact proposal. */
export interface PactDecision {
  readonly accept: boolean;
  readonly reason: PactReason;
  /** Value with the pact minus value without it, in militants. */
  readonly gain: number;
}

/**
 * Trust in player q from the public betrayal record (notes §6.1 rule 5): 0.7 to start, ×0.4 for
 * each betrayal of anyone, ×0.2 for each betrayal of this bot.
 */
export function trustOf(q: Colour, me: Colour, betrayals: readonly BetrayalRecord[]): number {
  let t = 0.7;
  for (const b of betrayals) if (b.traitor === q) t *= b.victim === me ? 0.2 : 0.4;
  return t;
}

/** The bot's best one-ply value, optionally under a pact with `partners` (its harmful turns removed). */
function bestValue(pos: Position, me: number, partners: readonly Colour[], opts: EvalOptions): number {
  if (pos.toMove === null || colourIndex(pos.toMove) !== me) return utilityOf(scores(pos, opts), pos, me);
  let best = Number.NEGATIVE_INFINITY;
  for (const turn of candidateTurns(pos, { placement: 3, exit: 2 })) {
    const r = playTurn(pos, turn);
    if (!r.ok) continue;
    if (partners.length) {
      const acts = hostileActs(pos, r.value.effects, SEAT_COLOURS[me]);
      if (partners.some((q) => acts.has(q))) continue;
    }
    best = Math.max(best, utilityOf(scores(r.value.position, opts), r.value.position, me));
  }
  return best === Number.NEGATIVE_INFINITY ? utilityOf(scores(pos, opts), pos, me) : best;
}

/** Value of a pact with `partners` for `me` now: the search with its restrictions minus without. */
export function pactValue(pos: Position, me: Colour, partners: readonly Colour[], trust: (q: Colour) => number = () => 0.7): number {
  const m = colourIndex(me);
  let trusted = 0;
  for (const q of partners) if (trust(q) >= FULL_TRUST) trusted |= 1 << colourIndex(q);
  const without = bestValue(pos, m, [], {});
  const within = bestValue(pos, m, partners, { trusted, forPlayer: m });
  return within - without;
}

/** Whether `q` leads the active players clearly: no one scores more, and it is at least 1 militant and 15 % above the mean. */
export function isClearLeader(pos: Position, q: Colour): boolean {
  const s = scores(pos);
  const actives = activePlayers(pos);
  if (!actives.includes(q)) return false;
  const mean = actives.reduce((sum, c) => sum + s[colourIndex(c)], 0) / actives.length;
  const v = s[colourIndex(q)];
  return actives.every((c) => c === q || s[colourIndex(c)] <= v) && v - mean >= Math.max(1, 0.15 * Math.abs(mean));
}

/** The clear leader of the active players (`isClearLeader`), or null. */
export function clearLeader(pos: Position): Colour | null {
  return activePlayers(pos).find((q) => isClearLeader(pos, q)) ?? null;
}

/** Can `me` eliminate one of `partners` with its next turn (a winning attack it would give up)? */
function hasWinningAttack(pos: Position, me: Colour, partners: readonly Colour[]): boolean {
  if (pos.toMove !== me) return false;
  for (const turn of candidateTurns(pos, { placement: 3, exit: 2 })) {
    const r = playTurn(pos, turn);
    if (r.ok && r.value.effects.some((e) => e.type === 'eliminated' && partners.includes(e.colour))) return true;
  }
  return false;
}

/**
 * Answer a proposal (notes §6.1 rule 2): accept when the pact's value is at least the threshold,
 * no partner betrayed the bot, every partner is trusted, none is the clear leader, the length is
 * at most five rounds (or open) and the bot has no winning attack on a partner. A treacherous bot
 * accepts whatever does not cost it, meaning to break the pact when that pays.
 */
export function decidePact(
  pos: Position,
  me: Colour,
  proposal: PactProposal,
  betrayals: readonly BetrayalRecord[] = [],
  personality: Personality = {},
): PactDecision {
  const no = (reason: PactReason, gain = 0): PactDecision => ({ accept: false, reason, gain });
  if (!proposal.members.includes(me)) return no('not_member');
  const partners = proposal.members.filter((q) => q !== me);
  const active = (q: Colour) => (pos.activeMask >> colourIndex(q)) & 1;
  if (!active(me) || partners.some((q) => !active(q))) return no('not_active');
  if (partners.some((q) => betrayals.some((b) => b.traitor === q && b.victim === me))) return no('betrayed_me');
  const trust = (q: Colour) => trustOf(q, me, betrayals);
  const treacherous = personality.treacherous === true;
  if (!treacherous) {
    if (partners.some((q) => trust(q) < MIN_TRUST)) return no('untrusted');
    if (proposal.rounds !== null && proposal.rounds > MAX_ACCEPTED_ROUNDS) return no('too_long');
    if (partners.some((q) => isClearLeader(pos, q))) return no('leader');
    if (hasWinningAttack(pos, me, partners)) return no('winning_attack');
  }
  const gain = pactValue(pos, me, partners, trust);
  const threshold = treacherous ? 0 : PACT_THRESHOLD;
  return gain >= threshold ? { accept: true, reason: 'helps', gain } : no('no_gain', gain);
}

/**
 * Should a pragmatic bot leave a pact openly (notes §6.1 rule 4)? When its value has been
 * at most −1 militant for the last two evaluations. Loyal (easy) bots never leave.
 */
export function shouldLeavePact(recentValues: readonly number[]): boolean {
  const n = recentValues.length;
  return n >= 2 && recentValues[n - 1] <= -1 && recentValues[n - 2] <= -1;
}

/**
 * The search weights of each personality (notes §4.4): `loyal` plays the plain evaluation,
 * `cautious` fears attacks on its chief more and attacks less, `treacherous` attacks more and may
 * harm a pact partner when that pays (the server records the betrayal).
 */
export const PERSONALITY_WEIGHTS: { readonly [P in BotPersonality]: Personality } = {
  loyal: {},
  cautious: { caution: 1.5, aggression: 0.8 },
  treacherous: { treacherous: true, aggression: 1.2, ambition: 1.2 },
};

/** A personality drawn from `seed` for seat `colour` (the same seed gives the same one). */
export function drawPersonality(seed: number, colour: Colour): BotPersonality {
  const random = seededRandom((seed ^ Math.imul(colourIndex(colour) + 1, 0x9e3779b9)) >>> 0);
  random();
  return BOT_PERSONALITIES[Math.floor(random() * BOT_PERSONALITIES.length)];
}

/** Length in rounds of the pacts a bot proposes. */
export const PROPOSED_ROUNDS = 3;
/** Rounds a bot waits after a proposal before it considers another (notes §6.1 rule 3). */
export const PROPOSAL_COOLDOWN_ROUNDS = 3;
/** Proposals one bot makes in a game at most (the press keeps at most `MAX_PACTS` pacts a game). */
export const MAX_PROPOSALS = 40;

/** What a bot values before its turn: the pacts it may leave, and the players it may propose one to. */
export interface PactAsk {
  readonly watch: readonly { readonly id: string; readonly partners: readonly Colour[] }[];
  readonly candidates: readonly Colour[];
}

/** What a bot does in the press before its turn (each an ordinary press intent). */
export interface PressPlan {
  /** Pacts to leave openly (`pact_leave`), with the partners it leaves. */
  readonly leave: readonly { readonly id: string; readonly partners: readonly Colour[] }[];
  /** A pact to propose (`pact_propose`), or null. */
  readonly propose: { readonly with: readonly Colour[]; readonly rounds: number; readonly announce: boolean } | null;
}

/**
 * The pact plans of one bot seat (notes §6.1 rules 3–5): it proposes a pact to the player it
 * gains most from being at peace with (never a betrayer of its own, an untrusted player or the
 * clear leader; one open proposal at a time, a cool-down after each), announces it when a third
 * player leads, and leaves a pact openly when the pact's value stayed at −1 militant or below
 * for two evaluations (`cautious` only: `loyal` keeps its pacts to their end, `treacherous`
 * breaks them instead of leaving). Betrayals of the bot are remembered: it never trusts the
 * traitor again and says so once at the table.
 */
export class Negotiator {
  private readonly history = new Map<string, number[]>();
  private quietUntil = 0;
  private proposals = 0;
  private readonly remembered = new Set<string>();

  constructor(
    readonly me: Colour,
    readonly personality: BotPersonality,
    /** False for easy bots: they answer proposals but make none. */
    readonly proposes: boolean,
  ) {}

  /** What to value now, from the pacts and betrayals this seat may see. */
  ask(pos: Position, pacts: readonly PactView[], betrayals: readonly BetrayalRecord[]): PactAsk {
    const me = this.me;
    const bound = pacts.filter((p) => p.status === 'in_force' && p.standing.includes(me));
    const watch = this.personality === 'cautious' ? bound.map((p) => ({ id: p.id, partners: p.standing.filter((q) => q !== me) })) : [];
    const open = pacts.some((p) => p.status === 'proposed' && p.members.includes(me));
    if (!this.proposes || open || pos.ply < this.quietUntil || pos.toMove !== me || this.proposals >= MAX_PROPOSALS) return { watch, candidates: [] };
    const bound2 = new Set(bound.flatMap((p) => p.standing));
    const candidates = activePlayers(pos).filter(
      (q) =>
        q !== me &&
        !bound2.has(q) &&
        !isClearLeader(pos, q) &&
        !betrayals.some((b) => b.traitor === q && b.victim === me) &&
        trustOf(q, me, betrayals) >= MIN_TRUST,
    );
    return { watch, candidates };
  }

  /** The partner groups of `ask`, in the order `plan` reads their values. */
  static groups(ask: PactAsk): Colour[][] {
    return [...ask.watch.map((w) => [...w.partners]), ...ask.candidates.map((q) => [q])];
  }

  /** Decides from the values of `Negotiator.groups(ask)` (null: not valued in time, nothing is done). */
  plan(pos: Position, ask: PactAsk, values: readonly number[] | null): PressPlan {
    if (!values) return { leave: [], propose: null };
    const leave: { id: string; partners: readonly Colour[] }[] = [];
    ask.watch.forEach((w, i) => {
      const h = [...(this.history.get(w.id) ?? []), values[i]].slice(-4);
      this.history.set(w.id, h);
      if (shouldLeavePact(h)) leave.push(w);
    });
    if (ask.candidates.length === 0) return { leave, propose: null };
    const rounds = activePlayers(pos).length;
    let best = -1;
    ask.candidates.forEach((_, j) => {
      const v = values[ask.watch.length + j];
      if (v >= PACT_THRESHOLD && (best < 0 || v > values[ask.watch.length + best])) best = j;
    });
    // Valued again in a round when nobody was worth a pact, in three after a proposal.
    this.quietUntil = pos.ply + rounds * (best < 0 ? 1 : PROPOSAL_COOLDOWN_ROUNDS);
    if (best < 0) return { leave, propose: null };
    this.proposals++;
    const partner = ask.candidates[best];
    const leader = clearLeader(pos);
    return { leave, propose: { with: [partner], rounds: PROPOSED_ROUNDS, announce: leader !== null && leader !== this.me && leader !== partner } };
  }

  /** The table line about a betrayal of this bot not remembered yet (one per traitor), or null. */
  remember(betrayals: readonly (BetrayalRecord & { readonly pactId?: string })[]): string | null {
    for (const b of betrayals) {
      if (b.victim !== this.me || this.remembered.has(b.traitor)) continue;
      this.remembered.add(b.traitor);
      return `${COLOUR_NAMES[this.me]} will remember ${COLOUR_NAMES[b.traitor]}'s betrayal`;
    }
    return null;
  }
}

/** The table line of a bot leaving a pact openly ("Green leaves the pact with Red"). */
export function leaveMessage(me: Colour, partners: readonly Colour[]): string {
  return `${COLOUR_NAMES[me]} leaves the pact with ${partners.map((q) => COLOUR_NAMES[q]).join(' and ')}`;
}

/**
 * One short table line about what `mover`'s turn did ("Blue takes the maze"), from the
 * position before it and the turn's effects; null for a quiet move.
 */
export function tableMessage(before: Position, effects: readonly Effect[], mover: Colour): string | null {
  const name = COLOUR_NAMES[mover];
  const g = geometryOf(before);
  const maze = g.names[g.maze];
  const owner = (piece: number) => {
    const c = before.control[before.army[piece]];
    return c >= 0 && c < SEAT_COLOURS.length ? SEAT_COLOURS[c] : null;
  };
  const kindOf = (piece: number) => KINDS[before.kind[piece]];
  const eliminated = effects.filter((e) => e.type === 'eliminated');
  for (const e of eliminated) {
    if (e.type !== 'eliminated' || e.colour === mover) continue;
    if (e.cause === 'encircled') return `${name} encircles ${COLOUR_NAMES[e.colour]}`;
    if (e.cause === 'killed') return `${name} kills ${COLOUR_NAMES[e.colour]}'s chief`;
  }
  for (const e of effects) {
    if (e.type === 'move' && e.to === maze && kindOf(e.piece) === 'chief') return `${name} takes the maze`;
    if (e.type === 'displace' && e.from === maze) return `${name} drives ${COLOUR_NAMES[owner(e.piece) ?? mover]} from the maze`;
  }
  const kills = effects.filter((e) => e.type === 'kill' && e.by >= 0);
  if (kills.length) {
    const victims = kills.map((e) => (e.type === 'kill' ? e.piece : -1));
    const actor = kills[0].type === 'kill' ? kills[0].by : -1;
    const what = victims.map((v) => `${COLOUR_NAMES[owner(v) ?? SEAT_COLOURS[before.army[v]]]}'s ${kindOf(v)}`).join(' and ');
    return `${name}'s ${kindOf(actor)} kills ${what}`;
  }
  const displaced = effects.find((e) => e.type === 'displace');
  if (displaced && displaced.type === 'displace' && kindOf(displaced.piece) === 'chief')
    return `${name}'s diplomat moves ${COLOUR_NAMES[owner(displaced.piece) ?? mover]}'s chief`;
  return null;
}
