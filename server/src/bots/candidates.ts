/**
 * Candidate turns for the bots (notes §3.3): every (piece, destination) the engine allows, each
 * completed with a ranked, capped list of placements and exits and every reporter choice. All
 * options come from the engine (`legalDestinations`, `nextChoice`), so every candidate is a legal
 * complete turn under the room's rule options.
 */
import {
  ASSASSIN,
  CHIEF,
  colourIndex,
  DIPLOMAT,
  isHostile,
  legalDestinations,
  livingChief,
  MILITANT,
  nextChoice,
  type PartialTurn,
  type SquareName,
  type Position,
  rulerIndex,
  type Turn,
} from '@djambi/shared';
import { attackMaps, type BotBoard, botBoard, chiefLiberties, hasNecromobile, kingDistance, ownerOf, VALUE } from './board.js';

/** How many completions to keep per choice. */
export interface Widths {
  /** Placement squares per move (1 = the canonical square only). */
  readonly placement: number;
  /** Exit squares per maze entry. */
  readonly exit: number;
  /**
   * false: no ranking, the square just left (else the engine's first option) for a placement
   * and the first exit; cheap enough for the calling thread (the fallback).
   */
  readonly ranked?: boolean;
}

/** What the ranking of placement and exit squares needs about the position, computed once. */
interface Context {
  readonly pos: Position;
  readonly bb: BotBoard;
  readonly ranked: boolean;
  readonly me: number;
  readonly ruler: number;
  readonly hit: Uint8Array;
  /** Squares next to an enemy chief that a corpse would help wall in: +score. */
  readonly wallBonus: Float64Array;
  /** Squares on open lines from an enemy killer to my chief. */
  readonly shield: Uint8Array;
  readonly myChiefSq: number;
  readonly myNecro: boolean;
}

function context(pos: Position, me: number, ranked: boolean): Context {
  const bb = botBoard(pos);
  const MAZE_SQ = bb.maze;
  const { neighbours: NEIGHBOURS, rays: RAYS } = bb.g;
  if (!ranked) {
    const none = new Uint8Array(0);
    return { pos, bb, ranked, me, ruler: -1, hit: none, wallBonus: new Float64Array(0), shield: none, myChiefSq: -1, myNecro: false };
  }
  const ruler = rulerIndex(pos);
  const { hit } = attackMaps(pos, bb);
  const wallBonus = new Float64Array(bb.cells);
  const encircleHelps = ruler < 0 || ruler === me;
  for (let q = 0; q < bb.seats; q++) {
    if (q === me || !((pos.activeMask >> q) & 1)) continue;
    const c = livingChief(pos, q);
    if (c < 0 || pos.sq[c] === MAZE_SQ || hasNecromobile(pos, q)) continue;
    const libs = chiefLiberties(pos, q, c);
    const bonus = encircleHelps ? (libs <= 2 ? 5 : 3) : -2;
    for (const n of NEIGHBOURS[pos.sq[c]]) wallBonus[n] += bonus;
  }
  const shield = new Uint8Array(bb.cells);
  const mine = livingChief(pos, me);
  const myChiefSq = mine < 0 ? -1 : pos.sq[mine];
  if (myChiefSq >= 0) {
    for (const ray of RAYS[myChiefSq]) {
      let k = 0;
      while (k < ray.length && pos.board[ray[k]] < 0) k++;
      if (k === ray.length) continue;
      const occ = pos.board[ray[k]];
      const kind = pos.kind[occ];
      const danger = kind === CHIEF || kind === ASSASSIN || kind === DIPLOMAT || (kind === MILITANT && k <= 1);
      if (!danger || !isHostile(pos, occ, me) || ownerOf(pos, occ) < 0) continue;
      for (let j = 0; j < k; j++) if (ray[j] !== MAZE_SQ) shield[ray[j]] = 1;
    }
  }
  return { pos, bb, ranked, me, ruler, hit, wallBonus, shield, myChiefSq, myNecro: hasNecromobile(pos, me) };
}

/** Enemy pieces' attacks on a square (any player but me). */
function enemyHits(ctx: Context, sq: number): number {
  let n = 0;
  const { seats, cells } = ctx.bb;
  for (let q = 0; q < seats; q++) if (q !== ctx.me) n += ctx.hit[q * cells + sq];
  return n;
}

/** Rank placement squares for the piece on `to` (or on the maze for a maze entry), best first. */
function rankPlacements<S extends string>(ctx: Context, partial: PartialTurn, options: readonly S[]): S[] {
  const { pos, me, bb } = ctx;
  const NEIGHBOURS = bb.g.neighbours;
  const parse = (name: string): number => bb.g.byName.get(name) ?? -1;
  const from = parse(partial.from ?? '');
  const to = parse(partial.to ?? '');
  const actor = pos.board[from];
  const victim = pos.board[to];
  const living = pos.kind[actor] === DIPLOMAT;
  const victimKind = victim >= 0 ? pos.kind[victim] : -1;
  const scored = options.map((name) => {
    const s = parse(name);
    let score = 0;
    if (living) {
      // A displaced enemy: into my killers' reach, far from my chief, chiefs into tight spots.
      const mineHits = ctx.hit[me * bb.cells + s];
      score += mineHits > 0 ? 2 + VALUE[victimKind] : 0;
      if (ctx.myChiefSq >= 0) score += 0.2 * kingDistance(bb, s, ctx.myChiefSq);
      if (victimKind === CHIEF) {
        let walls = 0;
        for (const n of NEIGHBOURS[s]) {
          const occ = pos.board[n];
          if (occ >= 0 && !pos.alive[occ]) walls++;
        }
        score += walls + 8 - NEIGHBOURS[s].length;
        if (s === bb.maze) score -= 1;
      }
      if (s === from) score += 0.5;
    } else {
      score += ctx.wallBonus[s];
      if (ctx.shield[s]) score += 2.5;
      if (ctx.myChiefSq >= 0 && !ctx.myNecro && kingDistance(bb, s, ctx.myChiefSq) === 1) score -= 4;
      if (ctx.ruler >= 0 && ctx.ruler !== me && bb.mazeRing.includes(s)) score += 1.5;
      if (ctx.ruler === me && bb.mazeRing.includes(s)) score -= 1;
      if (s === from) score += 1;
      else if (ctx.myChiefSq >= 0) score += 0.01 * kingDistance(bb, s, ctx.myChiefSq);
    }
    return { name, s, score };
  });
  scored.sort((a, b) => b.score - a.score || a.s - b.s);
  return scored.map((x) => x.name);
}

/** Rank exit squares: unattacked first, then the farthest from the enemies' reach. */
function rankExits<S extends string>(ctx: Context, options: readonly S[]): S[] {
  const scored = options.map((name) => {
    const s = ctx.bb.g.byName.get(name) ?? -1;
    return { name, s, score: -3 * enemyHits(ctx, s) - 0.1 * kingDistance(ctx.bb, s, ctx.bb.maze) };
  });
  scored.sort((a, b) => b.score - a.score || a.s - b.s);
  return scored.map((x) => x.name);
}

/** Complete `partial` with every kept option of each remaining choice, pushing the turns. */
function complete(ctx: Context, partial: PartialTurn, widths: Widths, out: Turn[]): void {
  const res = nextChoice(ctx.pos, partial);
  if (!res.ok) return;
  const choice = res.value;
  switch (choice.kind) {
    case 'complete':
      out.push(choice.turn);
      return;
    case 'placement': {
      if (!ctx.ranked) {
        const left = choice.options.find((s) => s === partial.from) ?? choice.options[0];
        return left === undefined ? undefined : complete(ctx, { ...partial, placement: left }, widths, out);
      }
      for (const s of rankPlacements(ctx, partial, choice.options).slice(0, Math.max(1, widths.placement)))
        complete(ctx, { ...partial, placement: s }, widths, out);
      return;
    }
    case 'exit': {
      if (!ctx.ranked) return choice.options.length ? complete(ctx, { ...partial, exit: choice.options[0] }, widths, out) : undefined;
      for (const s of rankExits(ctx, choice.options).slice(0, Math.max(1, widths.exit))) complete(ctx, { ...partial, exit: s }, widths, out);
      return;
    }
    case 'reporter':
      for (const s of choice.options) complete(ctx, { ...partial, reporterTarget: s }, widths, out);
      if (!choice.required) complete(ctx, { ...partial, reporterTarget: null }, widths, out);
      return;
    default:
      return;
  }
}

/**
 * Candidate complete turns of the player to move, placements and exits capped by `widths`;
 * `[{pass:true}]` when it must pass, `[]` when the game is over.
 */
export function candidateTurns(pos: Position, widths: Widths): Turn[] {
  if (pos.result || pos.toMove === null) return [];
  const me = colourIndex(pos.toMove);
  const ctx = context(pos, me, widths.ranked !== false);
  const out: Turn[] = [];
  for (let i = 0; i < pos.army.length; i++) {
    if (ownerOf(pos, i) !== me) continue;
    // The engine's turn types say SquareName but carry any board's cell names (as legalDestinations does).
    const from = ctx.bb.g.names[pos.sq[i]] as SquareName;
    for (const to of legalDestinations(pos, from)) complete(ctx, { from, to }, widths, out);
  }
  if (out.length === 0) out.push({ pass: true });
  return out;
}

/** True when the turn lands on a living hostile piece or names a reporter victim (a capture). */
export function isCapture(pos: Position, turn: Turn): boolean {
  if ('pass' in turn) return false;
  if (turn.reporterTarget !== undefined) return true;
  const at = pos.board[botBoard(pos).g.byName.get(turn.to) ?? -1];
  return at >= 0 && pos.alive[at] === 1 && pos.toMove !== null && isHostile(pos, at, colourIndex(pos.toMove));
}
