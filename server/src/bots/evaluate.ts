/**
 * The static evaluation of the research notes (§4.3), in militants: a score S(p) for every
 * player from material, power, chief safety, threats and mobility, all four in one pass over
 * shared attack maps, and the root utility U = S(root) − ½·max S(others) − ½·mean S(others).
 * Side to move matters: the player who moves next makes its threats real and can still parry
 * the threats against itself.
 */
import { CHIEF, colourIndex, livingChief, NECROMOBILE, type Position, rulerIndex } from '@djambi/shared';
import { attackMaps, botBoard, chiefLiberties, ownerOf, VALUE, zeros } from './board.js';

/** Score of an eliminated player, and of the winner with the sign turned. */
export const DECISIVE = 1000;

/** Feature weights (notes §4.3 start values), scaled per seat by the personality. */
export interface Weights {
  readonly power: number;
  readonly powerExposed: number;
  readonly mazeAccess: number;
  readonly mazeDuel: number;
  readonly chiefAttacked: number;
  readonly chiefAttackedCap: number;
  readonly hangingUndefended: number;
  readonly hangingDefended: number;
  readonly attack: number;
  readonly attackChief: number;
  readonly enemyLiberties: number;
  readonly mobility: number;
  readonly necromobileBonus: number;
}

/** The start weights. */
export const WEIGHTS: Weights = {
  power: 5,
  powerExposed: 3,
  mazeAccess: 1,
  // The empty maze on a clear line from my chief and from an enemy chief: that enemy can take
  // power and, with the ruler's extra turn, kill my chief along the same line.
  mazeDuel: 2,
  chiefAttacked: 6,
  chiefAttackedCap: 15,
  hangingUndefended: 0.6,
  hangingDefended: 0.25,
  attack: 0.15,
  attackChief: 2,
  enemyLiberties: 0.7,
  mobility: 0.02,
  necromobileBonus: 1,
};

/** Evaluation switches. */
export interface EvalOptions {
  readonly weights?: Weights;
  /** Drop every threat term (the easy level's occasional blunder). */
  readonly ignoreSafety?: boolean;
  /**
   * Bitmask of players whose threats against `forPlayer`'s non-chief pieces are not counted (a
   * trusted pact partner); threats on the chief always count (notes §6.1 rule 1).
   */
  readonly trusted?: number;
  readonly forPlayer?: number;
}

/** Liberty penalty by liberty count (index), for a chief without a necromobile. */
const LIBERTY_PENALTY = [0, 5, 2, 0.5];

/** S(p) of every seat of the board (index = colour index); eliminated players score −DECISIVE. */
export function scores(pos: Position, opts: EvalOptions = {}): number[] {
  const w = opts.weights ?? WEIGHTS;
  const bb = botBoard(pos);
  const N = bb.seats;
  const SQUARE_COUNT = bb.cells;
  const MAZE_SQ = bb.maze;
  const out = zeros(N);
  const active = pos.activeMask;
  if (pos.result?.kind === 'win') {
    const winner = colourIndex(pos.result.winner);
    for (let p = 0; p < N; p++) out[p] = p === winner ? DECISIVE : -DECISIVE;
    return out;
  }
  const { hit, guard, mobility } = attackMaps(pos, bb);
  const next = pos.toMove === null ? -1 : colourIndex(pos.toMove);
  const ruler = rulerIndex(pos);
  const material = zeros(N);
  const hanging = zeros(N);
  const attacks = zeros(N);
  const necros = zeros(N);
  const seen = new Uint8Array(SQUARE_COUNT);
  for (let i = 0; i < pos.army.length; i++) {
    const p = ownerOf(pos, i);
    if (p < 0) continue;
    if (pos.kind[i] === NECROMOBILE) necros[p]++;
    const sq = pos.sq[i];
    const v = VALUE[pos.kind[i]];
    material[p] += v;
    if (pos.kind[i] === CHIEF && pos.army[i] !== p) material[p] += 2; // a captured chief still alive (two-player satellites)
    let threatened = false;
    for (let q = 0; q < N; q++) {
      if (q === p || !((active >> q) & 1)) continue;
      const n = hit[q * SQUARE_COUNT + sq];
      if (n === 0) continue;
      const isOwnChief = pos.chiefs[p] === i;
      if (isOwnChief) {
        attacks[q] += w.attackChief * (q === next ? 2 : 1);
        // chief threats on p: counted per attacking piece, more when that attacker moves next
        out[p] -= (opts.ignoreSafety ? 0 : 1) * Math.min(w.chiefAttackedCap, w.chiefAttacked * n * (q === next ? 1.5 : 1)) * (p === next ? 0.4 : 1);
      } else {
        attacks[q] += Math.min(6, v) * w.attack * (q === next ? 2 : 1);
        if (opts.trusted && opts.forPlayer === p && (opts.trusted >> q) & 1) continue;
        threatened = true;
      }
    }
    if (threatened && !opts.ignoreSafety)
      hanging[p] += v * (guard[p * SQUARE_COUNT + sq] > 0 ? w.hangingDefended : w.hangingUndefended) * (p === next ? 0.5 : 1);
  }
  for (let p = 0; p < N; p++) {
    if (!((active >> p) & 1)) {
      out[p] = -DECISIVE;
      continue;
    }
    let s = out[p] + material[p] - hanging[p] + Math.min(6, attacks[p]) + mobility[p] * w.mobility;
    const chief = livingChief(pos, p);
    if (ruler === p) {
      s += w.power;
      for (let q = 0; q < N; q++) if (q !== p && (active >> q) & 1 && hit[q * SQUARE_COUNT + MAZE_SQ]) s -= w.powerExposed;
    } else if (chief >= 0 && pos.board[MAZE_SQ] < 0 && hasLineToMaze(pos, pos.sq[chief])) {
      s += w.mazeAccess;
      if (!opts.ignoreSafety && p !== next && rivalReachesMaze(pos, p)) s -= w.mazeDuel;
    }
    if (chief >= 0 && pos.sq[chief] !== MAZE_SQ && pos.rules.encirclement !== 'throne_access') {
      const libs = chiefLiberties(pos, p, chief, seen);
      if (necros[p] === 0 && !opts.ignoreSafety && libs < LIBERTY_PENALTY.length) s -= LIBERTY_PENALTY[libs];
      if (necros[p] > 0 && libs <= 3) s += w.necromobileBonus * necros[p];
    }
    if (ruler === p || ruler < 0) {
      for (let q = 0; q < N; q++) {
        if (q === p || !((active >> q) & 1)) continue;
        const c = livingChief(pos, q);
        if (c < 0 || pos.sq[c] === MAZE_SQ || necros[q] > 0) continue;
        s += w.enemyLiberties * Math.max(0, 3 - chiefLiberties(pos, q, c, seen));
      }
    }
    out[p] = s;
  }
  return out;
}

/** Does an enemy chief of p have a clear line to the empty maze? */
function rivalReachesMaze(pos: Position, p: number): boolean {
  const N = botBoard(pos).seats;
  for (let q = 0; q < N; q++) {
    if (q === p || !((pos.activeMask >> q) & 1)) continue;
    const c = livingChief(pos, q);
    if (c >= 0 && hasLineToMaze(pos, pos.sq[c])) return true;
  }
  return false;
}

/** A clear queen line from `from` to the maze. */
function hasLineToMaze(pos: Position, from: number): boolean {
  const bb = botBoard(pos);
  const MAZE_SQ = bb.maze;
  for (const ray of bb.g.rays[from]) {
    const k = ray.indexOf(MAZE_SQ);
    if (k < 0) continue;
    for (let j = 0; j < k; j++) if (pos.board[ray[j]] >= 0) return false;
    return true;
  }
  return false;
}

/** The root utility of `root` from a score vector: own score minus the leader's and the mean of the others. */
export function utilityOf(s: readonly number[], pos: Position, root: number): number {
  if (pos.result?.kind === 'draw') return 0;
  if (!((pos.activeMask >> root) & 1)) return -DECISIVE - 1000 / (1 + pos.ply);
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  let n = 0;
  for (let q = 0; q < s.length; q++) {
    if (q === root || !((pos.activeMask >> q) & 1)) continue;
    max = Math.max(max, s[q]);
    sum += s[q];
    n++;
  }
  // Sooner wins are better than later ones.
  if (n === 0) return DECISIVE + 1000 / (1 + pos.ply);
  return s[root] - 0.5 * max - (0.5 * sum) / n;
}

/** U(root) of a position. */
export function utility(pos: Position, root: number, opts: EvalOptions = {}): number {
  return utilityOf(scores(pos, opts), pos, root);
}

/** Material each player controls (living non-chief pieces), for cheap move choices. */
export function materialOf(pos: Position): number[] {
  const N = botBoard(pos).seats;
  const out = zeros(N);
  for (let i = 0; i < pos.army.length; i++) {
    const p = ownerOf(pos, i);
    if (p >= 0) out[p] += VALUE[pos.kind[i]];
  }
  for (let p = 0; p < N; p++) if (!((pos.activeMask >> p) & 1)) out[p] = -DECISIVE;
  return out;
}
