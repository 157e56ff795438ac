import { geometryOf } from '../board/boards.js';
import type { Geometry } from '../board/geometry.js';
import { NECROMOBILE, type Position } from '../position.js';
import { openNeighbours, vertexRule } from './moves.js';

type Board = Pick<Position, 'board' | 'army' | 'kind' | 'sq' | 'alive' | 'control' | 'rules' | 'chiefs' | 'geometry'>;

/**
 * Is active player p encircled (R-8.1, N-5)? `chief` is p's own-colour chief (alive).
 * Conditions 1 (not on the maze) and 2 (no controlled living necromobile) hold under every
 * `encirclement` option; condition 3 depends on it. "Adjacent" is one step in any of the board's
 * directions, a corner step only where SX-4 lets it through (HEX.md SX-6: with the flanking
 * cells occupied it is no way out, as it is no move).
 */
export function isEncircled(b: Board, p: number, chief: number): boolean {
  const g = geometryOf(b);
  const at = b.sq[chief];
  if (at === g.maze) return false;
  const rule = vertexRule(b);
  if (b.rules.encirclement !== 'throne_access' && hasEscapeNextToChief(b, g, p, at, rule)) return false;
  for (let i = 0; i < b.army.length; i++) if (b.kind[i] === NECROMOBILE && b.alive[i] && b.control[b.army[i]] === p) return false;
  switch (b.rules.encirclement) {
    case 'literal_ring':
      return literalRing(b, g, at, rule);
    case 'throne_access':
      return !throneReachable(b, g, at, rule);
    default:
      return groupWalled(b, g, p, at, rule);
  }
}

/** Every neighbour holds a corpse (edges are walls; an empty maze or a living piece is an escape). */
function literalRing(b: Board, g: Geometry, at: number, rule: number): boolean {
  const ns = openNeighbours(b, g, at, rule);
  for (let k = 0; k < ns.length; k++) {
    const occ = b.board[ns[k]];
    if (occ < 0 || b.alive[occ]) return false;
  }
  return true;
}

/** What a flood does with a square: give the answer now, pass over it, or spread through it. */
const enum Visit {
  Found,
  Skip,
  Spread,
}

/** Flood from `at` by steps to the board's open neighbours (king steps on the square board); true as soon as `visit` says Found. */
function flood(b: Board, g: Geometry, at: number, rule: number, visit: (sq: number) => Visit): boolean {
  const seen = new Uint8Array(g.cells);
  const stack = [at];
  seen[at] = 1;
  while (stack.length) {
    const ns = openNeighbours(b, g, stack.pop()!, rule);
    for (let k = 0; k < ns.length; k++) {
      const n = ns[k];
      if (seen[n]) continue;
      seen[n] = 1;
      const v = visit(n);
      if (v === Visit.Found) return true;
      if (v === Visit.Spread) stack.push(n);
    }
  }
  return false;
}

/** A king-step path from the chief to the maze through squares without a corpse. */
function throneReachable(b: Board, g: Geometry, at: number, rule: number): boolean {
  const maze = g.maze;
  return flood(b, g, at, rule, (n) => {
    if (n === maze) return Visit.Found;
    const occ = b.board[n];
    return occ >= 0 && !b.alive[occ] ? Visit.Skip : Visit.Spread;
  });
}

/**
 * The "group" rule: the chief and the living pieces p controls that touch it (king steps,
 * transitively) have no neighbour that is empty (the empty maze included) or holds a living
 * piece p does not control.
 */
function groupWalled(b: Board, g: Geometry, p: number, at: number, rule: number): boolean {
  const escapes = flood(b, g, at, rule, (n) => {
    const occ = b.board[n];
    if (occ < 0) return Visit.Found;
    if (!b.alive[occ]) return Visit.Skip;
    return b.control[b.army[occ]] !== p ? Visit.Found : Visit.Spread;
  });
  return !escapes;
}

/**
 * A free square or a living piece p does not control next to the chief: an escape
 * for the group and literal_ring options (not throne_access: a free pocket may still be walled off).
 */
function hasEscapeNextToChief(b: Board, g: Geometry, p: number, at: number, rule: number): boolean {
  const ns = openNeighbours(b, g, at, rule);
  for (let k = 0; k < ns.length; k++) {
    const occ = b.board[ns[k]];
    if (occ < 0 || (b.alive[occ] && b.control[b.army[occ]] !== p)) return true;
  }
  return false;
}

/** Living own-colour chief of player p, or -1. */
export function livingChief(b: Pick<Position, 'chiefs' | 'alive'>, p: number): number {
  const i = b.chiefs[p];
  return i >= 0 && b.alive[i] ? i : -1;
}
