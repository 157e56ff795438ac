/**
 * Bots and negotiation (notes §6): whether to accept a proposed non-aggression pact, valued by
 * the one-ply search with and without the pact's restrictions, trust from the public betrayal
 * record, and the short table messages a bot writes about its own turns. Pure functions.
 */
import { COLOURS, hostileActs, KINDS, playTurn, type Colour, type Effect, type PactView, type Position } from '@djambi/shared';
import { candidateTurns } from './candidates.js';
import { colourIndex } from './board.js';
import { scores, utilityOf, type EvalOptions } from './evaluate.js';
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
      const acts = hostileActs(pos, r.value.effects, COLOURS[me]);
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
    const s = scores(pos);
    const actives = COLOURS.filter((c) => active(c));
    const mean = actives.reduce((sum, c) => sum + s[colourIndex(c)], 0) / actives.length;
    const leads = (q: Colour) => {
      const v = s[colourIndex(q)];
      return actives.every((c) => c === q || s[colourIndex(c)] <= v) && v - mean >= Math.max(1, 0.15 * Math.abs(mean));
    };
    if (partners.some(leads)) return no('leader');
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

/** Colour names as the table reads them. */
export const COLOUR_NAMES: { readonly [C in Colour]: string } = { R: 'Red', B: 'Blue', Y: 'Yellow', G: 'Green' };

/**
 * One short table line about what `mover`'s turn did ("Blue takes the maze"), from the
 * position before it and the turn's effects; null for a quiet move.
 */
export function tableMessage(before: Position, effects: readonly Effect[], mover: Colour): string | null {
  const name = COLOUR_NAMES[mover];
  const owner = (piece: number) => {
    const c = before.control[before.army[piece]];
    return c >= 0 && c < 4 ? COLOURS[c] : null;
  };
  const kindOf = (piece: number) => KINDS[before.kind[piece]];
  const eliminated = effects.filter((e) => e.type === 'eliminated');
  for (const e of eliminated) {
    if (e.type !== 'eliminated' || e.colour === mover) continue;
    if (e.cause === 'encircled') return `${name} encircles ${COLOUR_NAMES[e.colour]}`;
    if (e.cause === 'killed') return `${name} kills ${COLOUR_NAMES[e.colour]}'s chief`;
  }
  for (const e of effects) {
    if (e.type === 'move' && e.to === 'e5' && kindOf(e.piece) === 'chief') return `${name} takes the maze`;
    if (e.type === 'displace' && e.from === 'e5') return `${name} drives ${COLOUR_NAMES[owner(e.piece) ?? mover]} from the maze`;
  }
  const kills = effects.filter((e) => e.type === 'kill' && e.by >= 0);
  if (kills.length) {
    const victims = kills.map((e) => (e.type === 'kill' ? e.piece : -1));
    const actor = kills[0].type === 'kill' ? kills[0].by : -1;
    const what = victims.map((v) => `${COLOUR_NAMES[owner(v) ?? COLOURS[before.army[v]]]}'s ${kindOf(v)}`).join(' and ');
    return `${name}'s ${kindOf(actor)} kills ${what}`;
  }
  const displaced = effects.find((e) => e.type === 'displace');
  if (displaced && displaced.type === 'displace' && kindOf(displaced.piece) === 'chief')
    return `${name}'s diplomat moves ${COLOUR_NAMES[owner(displaced.piece) ?? mover]}'s chief`;
  return null;
}
