import { NECROMOBILE, type Position } from '../position.js';
import { NEIGHBOURS, NSQ } from '../squares.js';
import { MAZE_SQ } from '../types.js';

type Board = Pick<Position, 'board' | 'army' | 'kind' | 'sq' | 'alive' | 'control' | 'rules' | 'chiefs'>;

/**
 * Is active player p encircled (R-8.1, N-5)? `chief` is p's own-colour chief (alive).
 * Conditions 1 (not on the maze) and 2 (no controlled living necromobile) hold under every
 * `encirclement` option; condition 3 depends on it.
 */
export function isEncircled(b: Board, p: number, chief: number): boolean {
  const at = b.sq[chief];
  if (at === MAZE_SQ) return false;
  if (b.rules.encirclement !== 'throne_access' && hasEscapeNextToChief(b, p, at)) return false;
  for (let i = 0; i < b.army.length; i++) if (b.kind[i] === NECROMOBILE && b.alive[i] && b.control[b.army[i]] === p) return false;
  switch (b.rules.encirclement) {
    case 'literal_ring':
      return literalRing(b, at);
    case 'throne_access':
      return !throneReachable(b, at);
    default:
      return groupWalled(b, p, at);
  }
}

/** Every neighbour holds a corpse (edges are walls; an empty maze or a living piece is an escape). */
function literalRing(b: Board, at: number): boolean {
  const ns = NEIGHBOURS[at];
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

/** King-step flood from `at`; true as soon as `visit` says Found. */
function flood(at: number, visit: (sq: number) => Visit): boolean {
  const seen = new Uint8Array(NSQ);
  const stack = [at];
  seen[at] = 1;
  while (stack.length) {
    const ns = NEIGHBOURS[stack.pop()!];
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

/** A king-step path from the chief to e5 through squares without a corpse. */
function throneReachable(b: Board, at: number): boolean {
  return flood(at, (n) => {
    if (n === MAZE_SQ) return Visit.Found;
    const occ = b.board[n];
    return occ >= 0 && !b.alive[occ] ? Visit.Skip : Visit.Spread;
  });
}

/**
 * The "group" rule: the chief and the living pieces p controls that touch it (king steps,
 * transitively) have no neighbour that is empty (the empty maze included) or holds a living
 * piece p does not control.
 */
function groupWalled(b: Board, p: number, at: number): boolean {
  const escapes = flood(at, (n) => {
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
function hasEscapeNextToChief(b: Board, p: number, at: number): boolean {
  const ns = NEIGHBOURS[at];
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
