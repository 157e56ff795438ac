/**
 * The bot brain: one decision per call, at three levels (notes §4.2). A cheap greedy fallback is
 * computed first, so every call returns a legal turn however soon its budget runs out; the
 * search then improves on it until the budget (wall clock or, reproducibly, evaluations) is spent.
 *
 * - easy: one ply over canonical placements, noisy softmax choice, sometimes blind to threats;
 * - normal: one ply over ranked placement candidates with the threat-aware evaluation, then a
 *   verification of the best moves against the replies of every opponent in true turn order;
 * - hard: every opponent's own best reply in true turn order (the ruler's extra turns included),
 *   with an insurance term for the reply that hurts the bot most, deepened while time remains:
 *   iterative deepening over opponent cycles (every candidate at one cycle, the best 12, 6 and 3
 *   at two to four), the best moves of one depth searched first at the next, and a
 *   transposition table so that a deeper line replays the replies it shares with shallower ones
 *   for free. The settings (`HARD`) are the ones measured in docs/benchmarks.md.
 */
import { type Colour, colourIndex, type Effect, hostileActs, playTurn, type Position, type Turn } from '@djambi/shared';
import { candidateTurns, isCapture, type Widths } from './candidates.js';
import { positionKey, SEAT_COLOURS } from './board.js';
import { DECISIVE, materialOf, scores, utilityOf, WEIGHTS, type EvalOptions, type Weights } from './evaluate.js';
import { seededRandom, type Random } from './rng.js';

/** Bot levels, weakest first. */
export const BOT_LEVELS = ['easy', 'normal', 'hard'] as const;
/** A bot level. */
export type BotLevel = (typeof BOT_LEVELS)[number];

/** Default wall-clock budget of one decision, per level (the p95 targets). */
export const LEVEL_TIME_MS: { readonly [L in BotLevel]: number } = { easy: 50, normal: 300, hard: 1000 };
/** Default evaluation budget of one decision in node-budget mode, per level. */
export const LEVEL_NODES: { readonly [L in BotLevel]: number } = { easy: 2_000, normal: 6_000, hard: 20_000 };
/**
 * Share of the wall-clock budget the search may use, per level; the rest is margin for the
 * answer. Hard keeps a wider margin: its last evaluations and its wide candidate lists overshoot
 * the deadline most on a loaded machine (docs/benchmarks.md, "Bots").
 */
const TIME_SHARE: { readonly [L in BotLevel]: number } = { easy: 0.85, normal: 0.85, hard: 0.75 };

/** Per-seat style (notes §4.4): weight multipliers (default 1) and the pact behaviour. */
export interface Personality {
  readonly aggression?: number;
  readonly caution?: number;
  readonly ambition?: number;
  /** Breaks pacts when that pays; otherwise the bot never harms a pact partner. */
  readonly treacherous?: boolean;
}

/** What one decision may use and must respect. */
export interface ThinkOptions {
  readonly level: BotLevel;
  /** Seed of this decision: the same seed, position and budget give the same turn. */
  readonly seed: number;
  /** Wall-clock budget in ms (default `LEVEL_TIME_MS`); ignored when `nodes` is set. */
  readonly timeMs?: number;
  /** Node-budget mode: stop after this many evaluations, never looking at the clock (reproducible). */
  readonly nodes?: number;
  readonly personality?: Personality;
  /** Players bound with the bot by a pact in force: its turns harm none of them unless treacherous. */
  readonly partners?: readonly Colour[];
  /** Partners whose threats against the bot's non-chief pieces are not feared (chief threats always are). */
  readonly trusted?: readonly Colour[];
  /** The clock (ms); `performance.now` by default. */
  readonly now?: () => number;
}

/** The answer of one decision. */
export interface Decision {
  readonly turn: Turn;
  /** True when the search found nothing better in time and the precomputed fallback is played. */
  readonly fallback: boolean;
  /** The chosen turn's value for the bot, in militants. */
  readonly score: number;
  /** Evaluations made. */
  readonly nodes: number;
  /** Opponent cycles looked ahead (0: static one ply). */
  readonly depth: number;
  /** Time spent, in ms. */
  readonly ms: number;
}

/** The budget of one decision: evaluations counted, the clock read every few of them. */
class Budget {
  nodes = 0;
  private stopped = false;
  private readonly end: number;
  constructor(
    private readonly limitNodes: number | null,
    timeMs: number,
    private readonly now: () => number,
    start: number,
    share: number,
  ) {
    this.end = start + timeMs * share;
  }
  /** Count one evaluation. */
  tick(): void {
    this.nodes++;
  }
  /** True once the budget is spent (sticky). */
  spent(): boolean {
    if (this.stopped) return true;
    if (this.limitNodes !== null) this.stopped = this.nodes >= this.limitNodes;
    else this.stopped = this.now() >= this.end;
    return this.stopped;
  }
}

/** A candidate played: the turn, the position after it and its effects. */
interface Child {
  readonly turn: Turn;
  readonly pos: Position;
  readonly effects: readonly Effect[];
}

function play(pos: Position, turn: Turn): Child | null {
  const r = playTurn(pos, turn);
  return r.ok ? { turn, pos: r.value.position, effects: r.value.effects } : null;
}

/** Children of the candidates, without those harming a partner (all of them if every one does). */
function children(pos: Position, turns: readonly Turn[], me: number, partners: readonly Colour[], budget?: Budget): Child[] {
  const out: Child[] = [];
  for (const t of turns) {
    if (budget?.spent()) break;
    const c = play(pos, t);
    if (c) out.push(c);
  }
  if (partners.length === 0) return out;
  const mover = SEAT_COLOURS[me];
  const loyal = out.filter((c) => {
    const acts = hostileActs(pos, c.effects, mover);
    return !partners.some((q) => q !== mover && acts.has(q));
  });
  return loyal.length ? loyal : out;
}

/** Material balance of player p: own material minus the strongest other's. */
function balance(pos: Position, p: number): number {
  const m = materialOf(pos);
  let max = 0;
  for (let q = 0; q < m.length; q++) if (q !== p && (pos.activeMask >> q) & 1) max = Math.max(max, m[q]);
  return m[p] - max;
}

const CANONICAL: Widths = { placement: 1, exit: 1 };
/** The fallback's completions: unranked, so it costs little on the calling thread. */
const UNRANKED: Widths = { placement: 1, exit: 1, ranked: false };

/**
 * The fallback: greedy on material over unranked completions (never harming a partner when it
 * can help it). Cheap (one engine turn per candidate, no attack maps) and always legal.
 */
export function fallbackTurn(pos: Position, partners: readonly Colour[] = []): Turn {
  return fallbackOf(pos, partners).turn;
}

/** The fallback, the number of candidates, and whether the fallback wins the game outright. */
function fallbackOf(pos: Position, partners: readonly Colour[]): { turn: Turn; count: number; wins: boolean } {
  if (pos.toMove === null) return { turn: { pass: true }, count: 0, wins: false };
  const me = colourIndex(pos.toMove);
  const turns = candidateTurns(pos, UNRANKED);
  let best: Turn = turns[0] ?? { pass: true };
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const c of children(pos, turns, me, partners)) {
    const won = c.pos.result?.kind === 'win' && c.pos.result.winner === SEAT_COLOURS[me];
    const s = won ? DECISIVE : (c.pos.activeMask >> me) & 1 ? balance(c.pos, me) : -DECISIVE;
    if (s > bestScore) {
      bestScore = s;
      best = c.turn;
    }
  }
  return { turn: best, count: turns.length, wins: bestScore === DECISIVE };
}

/** Weights of a personality. */
function weightsOf(p: Personality | undefined): Weights {
  if (!p) return WEIGHTS;
  const a = p.aggression ?? 1;
  const c = p.caution ?? 1;
  const m = p.ambition ?? 1;
  return { ...WEIGHTS, attack: WEIGHTS.attack * a, attackChief: WEIGHTS.attackChief * a, chiefAttacked: WEIGHTS.chiefAttacked * c, power: WEIGHTS.power * m };
}

/** Everything a level needs during one decision. */
interface Search {
  readonly me: number;
  readonly budget: Budget;
  readonly random: Random;
  readonly eval: EvalOptions;
  readonly partners: readonly Colour[];
  /** The hard level's transposition table (null: no table, every line searched afresh). */
  readonly tt: Table | null;
  readonly hard: HardSettings;
}

/** A reply found once, kept for every later line through the same position. */
interface Reply {
  readonly pos: Position;
  readonly worst: number;
  readonly worstPos: Position;
}

/**
 * The transposition table of one decision, keyed by `positionKey`: the greedy reply chosen from a
 * position, and the bot's utility of a leaf. Iterative deepening replays the first cycles of
 * every line it deepens, and different root moves often lead to the same replies, so the table
 * saves those evaluations for deeper or wider search. It lives for one decision, so it needs no
 * replacement policy, and a hit returns exactly what the search would have computed.
 */
export class Table {
  readonly replies = new Map<number, Reply>();
  readonly leaves = new Map<number, number>();
  hits = 0;
}

function mask(colours: readonly Colour[] | undefined): number {
  let m = 0;
  for (const c of colours ?? []) m |= 1 << colourIndex(c);
  return m;
}

/**
 * Decide a turn for the player to move. Never throws on a legal position; always returns a legal
 * turn. `hard` replaces the hard level's settings (for A/B tournaments and tests).
 */
export function chooseTurn(pos: Position, opts: ThinkOptions, hard: HardSettings = HARD): Decision {
  const now = opts.now ?? (() => performance.now());
  const start = now();
  const partners = opts.personality?.treacherous ? [] : (opts.partners ?? []);
  const quick = fallbackOf(pos, partners);
  const fallback = quick.turn;
  const done = (turn: Turn, isFallback: boolean, score: number, nodes: number, depth: number): Decision => ({
    turn,
    fallback: isFallback,
    score,
    nodes,
    depth,
    ms: now() - start,
  });
  // No visible thinking over an obvious move: a pass, a single legal turn, or a win.
  const single = quick.count === 1 && 'from' in fallback && fallback.placement === undefined && fallback.exit === undefined;
  if (pos.toMove === null || 'pass' in fallback || single || quick.wins) return done(fallback, false, quick.wins ? DECISIVE : 0, 0, 0);
  const budget = new Budget(opts.nodes ?? null, opts.timeMs ?? LEVEL_TIME_MS[opts.level], now, start, TIME_SHARE[opts.level]);
  const me = colourIndex(pos.toMove);
  const s: Search = {
    me,
    budget,
    random: seededRandom(opts.seed),
    eval: { weights: weightsOf(opts.personality), trusted: mask(opts.trusted), forPlayer: me },
    partners,
    tt: opts.level === 'hard' && hard.tt ? new Table() : null,
    hard,
  };
  const best = opts.level === 'easy' ? easy(pos, s) : opts.level === 'normal' ? normal(pos, s) : hardTurn(pos, s);
  if (!best) return done(fallback, true, 0, budget.nodes, 0);
  return done(best.turn, false, best.score, budget.nodes, best.depth);
}

interface Pick {
  readonly turn: Turn;
  readonly score: number;
  readonly depth: number;
}

/** Static one-ply scores of the children (null when the budget ran out first). */
function scoreAll(kids: readonly Child[], s: Search, opts: EvalOptions): { child: Child; u: number; all: number[] }[] | null {
  const out: { child: Child; u: number; all: number[] }[] = [];
  for (const child of kids) {
    if (s.budget.spent()) return null;
    s.budget.tick();
    const all = scores(child.pos, opts);
    out.push({ child, u: utilityOf(all, child.pos, s.me), all });
  }
  return out;
}

function easy(pos: Position, s: Search): Pick | null {
  const blind = s.random() < 0.25;
  const kids = children(pos, candidateTurns(pos, CANONICAL), s.me, s.partners, s.budget);
  const scored = scoreAll(kids, s, { ...s.eval, ignoreSafety: blind });
  if (!scored || scored.length === 0) return null;
  // Softmax choice at T = 1.5 militants: visible, human mistakes, never random play.
  const max = Math.max(...scored.map((x) => x.u));
  const ws = scored.map((x) => Math.exp((x.u - max) / 1.5));
  let r = s.random() * ws.reduce((a, b) => a + b, 0);
  for (let i = 0; i < scored.length; i++) {
    r -= ws[i];
    if (r <= 0) return { turn: scored[i].child.turn, score: scored[i].u, depth: 0 };
  }
  const last = scored[scored.length - 1];
  return { turn: last.child.turn, score: last.u, depth: 0 };
}

/** Widths per level. */
const NORMAL_WIDTHS: Widths = { placement: 8, exit: 3 };
/** Moves the normal level verifies. */
const VERIFY = 8;

function normal(pos: Position, s: Search): Pick | null {
  const kids = children(pos, candidateTurns(pos, NORMAL_WIDTHS), s.me, s.partners, s.budget);
  const scored = scoreAll(kids, s, s.eval);
  if (!scored || scored.length === 0) return null;
  const ranked = scored.map((x) => ({ ...x, v: x.u + (s.random() - 0.5) * 0.4 })).sort((a, b) => b.v - a.v);
  // Verification: replay each of the best moves against greedy captures of every opponent until
  // the bot moves again; veto those that lose the chief or two militants net.
  for (let i = 0; i < Math.min(VERIFY, ranked.length); i++) {
    const x = ranked[i];
    if (x.u >= DECISIVE) break;
    const line = replyLine(x.child.pos, s, 'material');
    if (!line) break;
    if (!((line.activeMask >> s.me) & 1)) x.v -= DECISIVE / 2;
    else {
      const loss = materialOf(x.child.pos)[s.me] - materialOf(line)[s.me];
      if (loss >= 2) x.v -= loss - 1;
    }
  }
  ranked.sort((a, b) => b.v - a.v);
  return { turn: ranked[0].child.turn, score: ranked[0].u, depth: 0 };
}

/**
 * Let every opponent play until the bot is to move again, in true turn order, each choosing its
 * greedy reply (`material`: cheap balance; `full`: its own utility). Null when out of budget.
 */
function replyLine(pos: Position, s: Search, mode: 'material' | 'full'): Position | null {
  let cur = pos;
  for (let guard = 0; guard < 8 && cur.toMove !== null && colourIndex(cur.toMove) !== s.me; guard++) {
    const next = greedyReply(cur, s, mode);
    if (!next) return null;
    cur = next.pos;
  }
  return cur;
}

/** The mover's greedy reply and, among its three best, the one worst for the bot (from the table when known). */
function greedyReply(pos: Position, s: Search, mode: 'material' | 'full'): Reply | null {
  const key = s.tt && mode === 'full' ? positionKey(pos) : -1;
  if (key >= 0) {
    const known = s.tt!.replies.get(key);
    if (known) {
      s.tt!.hits++;
      return known;
    }
  }
  const q = colourIndex(pos.toMove!);
  const kids = children(pos, candidateTurns(pos, CANONICAL), q, [], s.budget);
  const scored: { pos: Position; own: number; mine: number }[] = [];
  for (const c of kids) {
    if (s.budget.spent()) return null;
    s.budget.tick();
    if (mode === 'material') {
      const won = c.pos.result?.kind === 'win';
      scored.push({ pos: c.pos, own: won ? DECISIVE : balance(c.pos, q), mine: 0 });
    } else {
      const all = scores(c.pos, q === s.me ? s.eval : undefined);
      scored.push({ pos: c.pos, own: utilityOf(all, c.pos, q), mine: utilityOf(all, c.pos, s.me) });
    }
  }
  if (scored.length === 0) return null;
  // Stable: the first of equals (the engine's order) wins, so replies are deterministic.
  const order = scored.map((x, i) => ({ x, i })).sort((a, b) => b.x.own - a.x.own || a.i - b.i);
  let worst = order[0].x;
  for (const { x } of order.slice(0, 3)) if (x.mine < worst.mine) worst = x;
  const reply: Reply = { pos: order[0].x.pos, worst: worst.mine, worstPos: worst.pos };
  if (key >= 0) s.tt!.replies.set(key, reply);
  return reply;
}

/** The bot's utility of a leaf (from the table when known); null when out of budget. */
function leafValue(pos: Position, s: Search): number | null {
  const key = s.tt ? positionKey(pos) : -1;
  if (key >= 0) {
    const known = s.tt!.leaves.get(key);
    if (known !== undefined) {
      s.tt!.hits++;
      return known;
    }
  }
  if (s.budget.spent()) return null;
  s.budget.tick();
  let v = utilityOf(scores(pos, s.eval), pos, s.me);
  // Quiescence on kills: with the bot to move, it may stand pat or take the best capture.
  if (s.hard.quiesce && pos.toMove !== null && colourIndex(pos.toMove) === s.me && !pos.result) {
    const captures = candidateTurns(pos, CANONICAL).filter((t) => isCapture(pos, t));
    for (const c of children(pos, captures, s.me, s.partners, s.budget)) {
      if (s.budget.spent()) return null;
      s.budget.tick();
      v = Math.max(v, utilityOf(scores(c.pos, s.eval), c.pos, s.me));
    }
  }
  if (key >= 0) s.tt!.leaves.set(key, v);
  return v;
}

/**
 * Value for the bot of a position after its own move: opponents reply in true order (their own
 * best, with `insurance` weight on the worst of their three best for the bot), the bot
 * replies greedily for `cycles - 1` more cycles, and the final position is evaluated with the
 * bot to move.
 */
function lineValue(pos: Position, s: Search, cycles: number): number | null {
  let cur = pos;
  let insurance = Number.POSITIVE_INFINITY;
  for (let c = 0; c < cycles; c++) {
    for (let guard = 0; guard < 8 && cur.toMove !== null && colourIndex(cur.toMove) !== s.me; guard++) {
      const r = greedyReply(cur, s, 'full');
      if (!r) return null;
      insurance = Math.min(insurance, r.worst);
      cur = r.pos;
    }
    if (cur.toMove === null || c === cycles - 1) break;
    const mine = greedyReply(cur, s, 'full');
    if (!mine) return null;
    cur = mine.pos;
  }
  const v = leafValue(cur, s);
  if (v === null) return null;
  const w = s.hard.insurance;
  return insurance === Number.POSITIVE_INFINITY ? v : (1 - w) * v + w * Math.min(v, insurance);
}

/** The hard level's settings. */
export interface HardSettings {
  /** Use the transposition table. */
  readonly tt: boolean;
  /** Root placement squares per move. */
  readonly placement: number;
  /** Moves searched at each opponent-cycle depth (index 0: depth 1; 0 there = every candidate). */
  readonly widths: readonly number[];
  /** Weight of the worst reply for the bot against the expected line. */
  readonly insurance: number;
  /** Extend leaves with the bot to move by its captures (stand pat or the best capture). */
  readonly quiesce: boolean;
}

/** The hard level's tuned settings (docs/benchmarks.md, "Bots"). */
export const HARD: HardSettings = {
  tt: true,
  placement: 8,
  widths: [0, 12, 6, 3],
  insurance: 0.3,
  quiesce: false,
};

function hardTurn(pos: Position, s: Search): Pick | null {
  const h = s.hard;
  const kids = children(pos, candidateTurns(pos, { placement: h.placement, exit: 3 }), s.me, s.partners, s.budget);
  const scored = scoreAll(kids, s, s.eval);
  if (!scored || scored.length === 0) return null;
  const ranked = scored.map((x) => ({ ...x, v: x.u + (s.random() - 0.5) * 0.1 })).sort((a, b) => b.v - a.v);
  let best: Pick = { turn: ranked[0].child.turn, score: ranked[0].u, depth: 0 };
  if (ranked[0].u >= DECISIVE) return best;
  // Iterative deepening over opponent cycles, the best moves of one depth first at the next; a
  // depth cut short still ranks the moves it reached.
  for (let cycles = 1; cycles <= h.widths.length; cycles++) {
    const width = h.widths[cycles - 1] === 0 ? ranked.length : Math.min(ranked.length, h.widths[cycles - 1]);
    const results: { turn: Turn; v: number; u: number }[] = [];
    for (let i = 0; i < width; i++) {
      const v = lineValue(ranked[i].child.pos, s, cycles);
      if (v === null) break;
      results.push({ turn: ranked[i].child.turn, v, u: ranked[i].u });
    }
    if (results.length === 0) break;
    results.sort((a, b) => b.v - a.v);
    best = { turn: results[0].turn, score: results[0].v, depth: cycles };
    if (results.length < width) break;
    // Next depth: only the best of this one, in its order.
    const keep = new Set(results.map((r) => r.turn));
    const byTurn = new Map(ranked.map((r) => [r.child.turn, r]));
    const reordered = results.map((r) => byTurn.get(r.turn)!).filter((r) => keep.has(r.child.turn));
    ranked.splice(0, reordered.length, ...reordered);
  }
  return best;
}
