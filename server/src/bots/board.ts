/**
 * Read-only board helpers for the bots: piece values, ray tables, liberties and the attack
 * maps of every player. They read the engine's `Position` arrays and never decide legality: a
 * turn a bot plays always comes from the engine's own choices (`candidates.ts`).
 */
import {
  ALL_COLOURS,
  ASSASSIN,
  CHIEF,
  type Colour,
  colourIndex,
  type Geometry,
  geometryOf,
  isHostile,
  KINDS,
  MILITANT,
  NECROMOBILE,
  REPORTER,
  type Position,
} from '@djambi/shared';

/** Piece values in militants, by kind index (notes §4.3); the chief is valued apart. */
export const VALUE: readonly number[] = KINDS.map((k) => ({ chief: 0, assassin: 3, reporter: 3, diplomat: 2, necromobile: 2, militant: 1 })[k]);

/**
 * What the bots read about a board, derived from its geometry once and cached by its name: the
 * cell count, the maze, the cells sharing a side with the maze (where a reporter can kill the
 * ruler), the number of seats, and the step distance between any two cells (a breadth-first
 * search over the one-step neighbours: the king distance on the square board).
 */
export interface BotBoard {
  readonly g: Geometry;
  readonly cells: number;
  readonly maze: number;
  readonly seats: number;
  readonly mazeRing: readonly number[];
  /** `dist[a * cells + b]`: steps from a to b. */
  readonly dist: Uint8Array;
}

const BOARDS = new Map<string, BotBoard>();

/** The bot tables of a geometry (built on first use). */
export function botBoardOf(g: Geometry): BotBoard {
  let bb = BOARDS.get(g.name);
  if (bb) return bb;
  const n = g.cells;
  const dist = new Uint8Array(n * n).fill(255);
  const queue = new Int32Array(n);
  for (let a = 0; a < n; a++) {
    let head = 0;
    let tail = 0;
    dist[a * n + a] = 0;
    queue[tail++] = a;
    while (head < tail) {
      const c = queue[head++];
      const d = dist[a * n + c] + 1;
      for (const m of g.neighbours[c]) {
        if (dist[a * n + m] !== 255) continue;
        dist[a * n + m] = d;
        queue[tail++] = m;
      }
    }
  }
  bb = { g, cells: n, maze: g.maze, seats: g.seats, mazeRing: Array.from(g.sides[g.maze]), dist };
  BOARDS.set(g.name, bb);
  return bb;
}

let last: BotBoard | null = null;

/** The bot tables of a position's board (the last one asked for is kept at hand). */
export function botBoard(pos: Position): BotBoard {
  if (last !== null && last.g.name === pos.geometry) return last;
  last = botBoardOf(geometryOf(pos));
  return last;
}

/** A packed array of n zeros. */
export function zeros(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(0);
  return out;
}

/** Step distance between two cells (the king distance on the square board). */
export const kingDistance = (bb: BotBoard, a: number, b: number): number => bb.dist[a * bb.cells + b];

/**
 * Every seat's colour by colour index, the hex boards' P and W included. The engine's turn and
 * betrayal types still say `Colour` (the square board's four) but carry all six, as
 * `Position.toMove` does.
 */
export const SEAT_COLOURS = ALL_COLOURS as readonly string[] as readonly Colour[];

/** Player (colour index) controlling a living piece, or -1 (corpse, frozen, hostage, absent). */
export function ownerOf(pos: Position, piece: number): number {
  if (!pos.alive[piece]) return -1;
  const c = pos.control[pos.army[piece]];
  return c >= 0 && c < ALL_COLOURS.length ? c : -1;
}

/** Does player p control a living necromobile (which makes its chief safe from encirclement)? */
export function hasNecromobile(pos: Position, p: number): boolean {
  for (let i = 0; i < pos.army.length; i++) if (pos.kind[i] === NECROMOBILE && ownerOf(pos, i) === p) return true;
  return false;
}

/**
 * Liberties of player p's chief group (R-8.1 "group"): distinct squares next to the chief or a
 * living piece of p touching it (transitively) that are empty or hold a piece p does not control.
 */
export function chiefLiberties(pos: Position, p: number, chief: number, seen: Uint8Array = new Uint8Array(pos.board.length)): number {
  const NEIGHBOURS = geometryOf(pos).neighbours;
  seen.fill(0);
  const stack = [pos.sq[chief]];
  seen[pos.sq[chief]] = 1;
  let liberties = 0;
  while (stack.length) {
    const ns = NEIGHBOURS[stack.pop()!];
    for (let k = 0; k < ns.length; k++) {
      const n = ns[k];
      if (seen[n]) continue;
      seen[n] = 1;
      const occ = pos.board[n];
      if (occ < 0) liberties++;
      else if (pos.alive[occ]) {
        if (ownerOf(pos, occ) === p) stack.push(n);
        else liberties++;
      }
    }
  }
  return liberties;
}

/**
 * What every player could do on its next move: `hit[p * cells + sq]` counts p's pieces that could
 * kill a hostile piece standing on sq (chief and assassin lines, militant steps of 1–2, reporter
 * squares next to its reachable destinations); `guard[p * cells + sq]` counts p's killers whose line
 * ends on sq when p's own piece stands there (it could take back); `mobility[p]` counts p's
 * (piece, empty destination) pairs.
 */
export interface AttackMaps {
  readonly hit: Uint8Array;
  readonly guard: Uint8Array;
  readonly mobility: Int32Array;
}

/** Compute the attack maps of every seat (`botBoard(pos).seats`) in one pass over the pieces. */
export function attackMaps(pos: Position, bb: BotBoard = botBoard(pos)): AttackMaps {
  const SQUARE_COUNT = bb.cells;
  const MAZE_SQ = bb.maze;
  const RAYS = bb.g.rays;
  const ORTHO = bb.g.sides;
  const hit = new Uint8Array(bb.seats * SQUARE_COUNT);
  const guard = new Uint8Array(bb.seats * SQUARE_COUNT);
  const mobility = new Int32Array(bb.seats);
  const stamp = new Int32Array(SQUARE_COUNT).fill(-1);
  const board = pos.board;
  for (let i = 0; i < pos.army.length; i++) {
    const p = ownerOf(pos, i);
    if (p < 0) continue;
    const kind = pos.kind[i];
    const from = pos.sq[i];
    const base = p * SQUARE_COUNT;
    const rays = RAYS[from];
    const killer = kind === CHIEF || kind === ASSASSIN || kind === MILITANT;
    for (let d = 0; d < rays.length; d++) {
      const ray = rays[d];
      const len = kind === MILITANT && ray.length > 2 ? 2 : ray.length;
      for (let k = 0; k < len; k++) {
        const t = ray[k];
        const occ = board[t];
        if (occ < 0) {
          if (t === MAZE_SQ && kind !== CHIEF) continue;
          mobility[p]++;
          if (kind === REPORTER && t !== MAZE_SQ) {
            const os = ORTHO[t];
            for (let j = 0; j < os.length; j++) {
              const n = os[j];
              if (n === from || stamp[n] === i) continue;
              const v = board[n];
              if (v >= 0 && isHostile(pos, v, p)) {
                stamp[n] = i;
                hit[base + n]++;
              }
            }
          }
          continue;
        }
        if (killer && !(kind === MILITANT && t === MAZE_SQ)) {
          if (isHostile(pos, occ, p)) hit[base + t]++;
          else if (pos.alive[occ] && ownerOf(pos, occ) === p) guard[base + t]++;
        }
        break;
      }
    }
  }
  return { hit, guard, mobility };
}

/**
 * A 53-bit hash of everything a bot's evaluation and move choice read from a position (who
 * stands where, alive or dead, who controls each army, who is active and to move, the turn
 * state and the ply): the transposition table's key. Two independent 32-bit FNV-1a style
 * hashes of the same fields, so two different positions share a key with odds of about 2⁻⁵³
 * per pair.
 */
export function positionKey(pos: Position): number {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  const board = pos.board;
  for (let i = 0; i < board.length; i++) {
    const x = board[i] + 2;
    a = Math.imul(a ^ x, 0x01000193);
    b = Math.imul(b ^ (x + i * 97), 0x5bd1e995);
    b ^= b >>> 15;
  }
  const alive = pos.alive;
  for (let i = 0; i < alive.length; i += 16) {
    let bits = 0;
    for (let j = i; j < Math.min(alive.length, i + 16); j++) bits = (bits << 1) | alive[j];
    a = Math.imul(a ^ bits, 0x01000193);
    b = Math.imul(b ^ bits, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const toMove = pos.toMove === null ? 7 : colourIndex(pos.toMove);
  const turnKind = pos.turnKind === 'extra' ? 1 : 0;
  const state = [pos.activeMask | (toMove << 4) | (turnKind << 7) | (colourIndex(pos.cursor) << 8), pos.ply, pos.quiet, ...pos.control];
  for (const x of state) {
    a = Math.imul(a ^ (x + 3), 0x01000193);
    b = Math.imul(b ^ (x + 5), 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * 0x200000 + (b >>> 11);
}
