import { ASSASSIN, CHIEF, DIPLOMAT, FROZEN, MILITANT, NECROMOBILE, REPORTER, rulerIndex, type Position } from '../position.js';
import { geometryOf } from '../board/boards.js';
import type { Geometry } from '../board/geometry.js';
import type { Square } from '../types.js';

/** What a move does once the piece reaches its destination. */
export const Action = {
  /** Plain move to an empty square (a chief may stop on the empty maze). */
  Move: 0,
  /** Reporter move; a victim may then be chosen. */
  Report: 1,
  /** Chief or militant kill: the corpse is placed on an empty field square. */
  KillPlace: 2,
  /** Assassin kill: the corpse goes to the assassin's start square. */
  KillAssassin: 3,
  /** Diplomat displacement off the maze: the piece is placed alive. */
  Displace: 4,
  /** Necromobile moves a corpse off the maze. */
  Corpse: 5,
  /** Assassin kills the chief in power: exit, corpse to the start square. */
  MazeAssassin: 6,
  /** Diplomat dislodges the chief in power: exit, then place it on the field. */
  MazeDiplomat: 7,
  /** Necromobile removes a corpse from the maze: exit, then place it on the field. */
  MazeNecro: 8,
  /**
   * A piece of a player other than the ruler entering the fortress while a chief is in power
   * (HEX.md SX-9): the act of `Report` .. `Corpse` (this code less `FORTRESS`), which must kill,
   * displace or remove a corpse (the reporter must name a victim), then an interaction-free exit
   * to a cell neither fortress nor maze, in the room's `maze_exit_order` with the placement.
   */
  FortReport: 9,
  FortKillPlace: 10,
  FortKillAssassin: 11,
  FortDisplace: 12,
  FortCorpse: 13,
} as const;
/** One of the `Action` values. */
export type Action = (typeof Action)[keyof typeof Action];

/** A fortress entry's code less its act's (`Action.FortReport` is `Action.Report + FORTRESS`). */
export const FORTRESS = 8;

/** True for a fortress entry (SX-9). */
export const isFortressEntry = (action: number): boolean => action > Action.MazeNecro;

/** Board state the move generator reads (the lines, neighbours, maze and fortress come from its geometry). */
export type BoardState = Pick<Position, 'board' | 'army' | 'kind' | 'sq' | 'alive' | 'control' | 'rules' | 'geometry' | 'activeMask'>;

/** SX-4 as a number: 0 no flanking cell blocks a corner step, 1 both occupied block it, 2 either does. */
const FREE = 0;
const BOTH = 1;
const EITHER = 2;

/** The `vertex_step` rule of a position as a number (`FREE` on the boards without it). */
export function vertexRule(b: Pick<Position, 'rules'>): number {
  const v = b.rules.vertex_step;
  return v === undefined || v === 'free' ? FREE : v === 'both_flanks_block' ? BOTH : EITHER;
}

/**
 * Do the flanking cells `fl` of a corner step stop it under SX-4 `rule` (not `FREE`)? A cell is
 * occupied when it holds a piece, unless it is `vacated` (the mover's start square), or when it is
 * `blocked` (a piece placed before the move).
 */
function flanksBlock(board: readonly number[], fl: Uint8Array, rule: number, vacated: Square, blocked: Square): boolean {
  if (fl.length < 2) return false;
  const a = fl[0] === blocked || (board[fl[0]] >= 0 && fl[0] !== vacated);
  const c = fl[1] === blocked || (board[fl[1]] >= 0 && fl[1] !== vacated);
  return rule === BOTH ? a && c : rule === EITHER ? a || c : false;
}

/**
 * The cells one step from `s` (its neighbours), less the corner steps SX-4 `rule` closes on this
 * board: "adjacent" for encirclement on the large hex board (SX-6). Under `FREE` the geometry's
 * own list.
 */
export function openNeighbours(b: Pick<Position, 'board'>, g: Geometry, s: Square, rule: number): ArrayLike<number> {
  if (rule === FREE) return g.neighbours[s];
  const out: number[] = [];
  const rays = g.rays[s];
  for (let d = 0; d < rays.length; d++) {
    if (rays[d].length === 0) continue;
    if (d >= g.edgeDirections && flanksBlock(b.board, g.flanks[s][d], rule, -1, -1)) continue;
    out.push(rays[d][0]);
  }
  return out;
}

/** Hostile to player p (R-5 terminology): alive, not p's, not frozen unless frozen pieces are fair game. */
export function isHostile(b: BoardState, piece: number, p: number): boolean {
  if (!b.alive[piece]) return false;
  const c = b.control[b.army[piece]];
  if (c === p) return false;
  return c !== FROZEN || !b.rules.neutral_pieces_untouchable;
}

/** May player p kill this piece by moving onto it (hostile, or own non-chief with self_kill)? */
function isKillable(b: BoardState, piece: number, p: number): boolean {
  if (isHostile(b, piece, p)) return true;
  return b.rules.self_kill && b.alive[piece] === 1 && b.control[b.army[piece]] === p && b.kind[piece] !== CHIEF;
}

/**
 * The ruler whose fortress is closed to player p's pieces (SX-8, SX-9), or -1: the board has a
 * fortress, a chief is in power and its player is not p. Nobody in power: the fortress is made
 * of ordinary cells (SX-7).
 */
function fortressKeeper(b: BoardState, g: Geometry, p: number): number {
  if (g.fortress.length === 0) return -1;
  const k = rulerIndex(b);
  return k === p ? -1 : k;
}

/** Is the fortress closed to this living piece as a placement (SX-10): a chief is in power and its player does not control the piece? */
function fortressClosedTo(b: BoardState, g: Geometry, piece: number): boolean {
  if (g.fortress.length === 0) return false;
  const k = rulerIndex(b);
  return k >= 0 && b.control[b.army[piece]] !== k;
}

/** Destinations of a piece for player p, with their actions, pushed as pairs [square, action]. Only destinations with at least one complete turn are produced. */
export function genDestinations(b: BoardState, piece: number, p: number, out: number[]): void {
  const g = geometryOf(b);
  const from = b.sq[piece];
  const kind = b.kind[piece];
  const rays = g.rays[from];
  const rule = vertexRule(b);
  const keeper = fortressKeeper(b, g, p);
  if (rule === FREE && keeper < 0) for (let d = 0; d < rays.length; d++) scanRay(b, g, kind, from, rays[d], p, out);
  else for (let d = 0; d < rays.length; d++) scanGuardedRay(b, g, kind, from, d, p, out, rule, keeper);
}

/** Does the piece have at least one destination (see `genDestinations`)? Allocates nothing. */
export function hasDestination(b: BoardState, piece: number, p: number): boolean {
  const g = geometryOf(b);
  const from = b.sq[piece];
  const kind = b.kind[piece];
  const rays = g.rays[from];
  const rule = vertexRule(b);
  const keeper = fortressKeeper(b, g, p);
  if (rule === FREE && keeper < 0) {
    for (let d = 0; d < rays.length; d++) if (scanRay(b, g, kind, from, rays[d], p, null)) return true;
  } else for (let d = 0; d < rays.length; d++) if (scanGuardedRay(b, g, kind, from, d, p, null, rule, keeper)) return true;
  return false;
}

/** Squares of `ray` a piece of kind `kind` may reach when nothing stands in the way. */
const reach = (kind: number, ray: Uint8Array): number => (kind === MILITANT && ray.length > 2 ? 2 : ray.length);

/** The action of stopping on the empty square t, or -1 (only a chief may stop on the empty maze, R-7.1). */
const emptyAction = (kind: number, t: Square, maze: Square): Action | -1 =>
  t === maze ? (kind === CHIEF ? Action.Move : -1) : kind === REPORTER ? Action.Report : Action.Move;

/**
 * Destinations of a piece of kind `kind` on `from` along one ray (see `genDestinations`), pushed
 * into `out`; with no `out`, stops at the first. True when it found one. For a position where no
 * flanking cell closes a corner step and no fortress is closed to the mover (the square board
 * always): the lines alone decide. Kept apart from `scanGuardedRay` for speed: with one scan for
 * both, square perft ran at 89 % of its speed before the hex boards (94–95 % with two).
 */
function scanRay(b: BoardState, g: Geometry, kind: number, from: Square, ray: Uint8Array, p: number, out: number[] | null): boolean {
  const len = reach(kind, ray);
  const board = b.board;
  const maze = g.maze;
  let found = false;
  for (let k = 0; k < len; k++) {
    const t = ray[k];
    const occ = board[t];
    // The empty maze can be crossed even by pieces that may not stop on it.
    const action = occ < 0 ? emptyAction(kind, t, maze) : interaction(b, g, kind, occ, t, p, from);
    if (action >= 0) {
      if (!out) return true;
      out.push(t, action);
      found = true;
    }
    if (occ >= 0) break;
  }
  return found;
}

/**
 * `scanRay` along the ray in direction d, with SX-4 `rule` (`vertexRule`) and the fortress closed
 * by `keeper` (the ruler, or -1; SX-9): a corner step between occupied flanking cells ends the
 * line, and a move onto a fortress cell is a fortress entry or nothing.
 */
function scanGuardedRay(
  b: BoardState,
  g: Geometry,
  kind: number,
  from: Square,
  d: number,
  p: number,
  out: number[] | null,
  rule: number,
  keeper: number,
): boolean {
  const ray = g.rays[from][d];
  const len = reach(kind, ray);
  const board = b.board;
  const maze = g.maze;
  const flanked = rule !== FREE && d >= g.edgeDirections;
  let found = false;
  for (let k = 0; k < len; k++) {
    const t = ray[k];
    if (flanked && flanksBlock(board, g.flanks[k === 0 ? from : ray[k - 1]][d], rule, from, -1)) break;
    const occ = board[t];
    // The empty maze can be crossed even by pieces that may not stop on it.
    let action = occ < 0 ? emptyAction(kind, t, maze) : interaction(b, g, kind, occ, t, p, from);
    if (keeper >= 0 && action >= 0 && g.inFortress[t]) action = fortressEntry(b, g, action as Action, from, t, p);
    if (action >= 0) {
      if (!out) return true;
      out.push(t, action);
      found = true;
    }
    if (occ >= 0) break;
  }
  return found;
}

/** The action of moving a piece to `to`, or -1 when that is not a legal destination. Walks one line only. */
export function destinationAction(b: BoardState, piece: number, p: number, to: Square): number {
  const g = geometryOf(b);
  const from = b.sq[piece];
  const d = g.line[from * g.cells + to];
  if (d < 0) return -1;
  const ray = g.rays[from][d];
  const kind = b.kind[piece];
  const len = reach(kind, ray);
  const rule = vertexRule(b);
  const flanked = rule !== FREE && d >= g.edgeDirections;
  for (let k = 0; k < len; k++) {
    const t = ray[k];
    if (flanked && flanksBlock(b.board, g.flanks[k === 0 ? from : ray[k - 1]][d], rule, from, -1)) return -1;
    const occ = b.board[t];
    if (t === to) {
      const action = occ < 0 ? emptyAction(kind, t, g.maze) : interaction(b, g, kind, occ, t, p, from);
      return action >= 0 && g.inFortress[t] && fortressKeeper(b, g, p) >= 0 ? fortressEntry(b, g, action as Action, from, t, p) : action;
    }
    if (occ >= 0) return -1;
  }
  return -1;
}

/**
 * The fortress entry (SX-9) a non-ruler's move onto fortress cell `to` makes of `action`, or -1:
 * a plain move may not stop there, an act must have at least one complete turn (victim, exit,
 * placement).
 */
function fortressEntry(b: BoardState, g: Geometry, action: Action, from: Square, to: Square, p: number): Action | -1 {
  if (action === Action.Move || action > Action.Corpse) return -1;
  const entry = (action + FORTRESS) as Action;
  return fortressTurns(b, g, entry, from, to, p) > 0 ? entry : -1;
}

/**
 * The action of a move already known to be legal (a replayed, once-validated turn) by player p:
 * read from the mover's kind, the destination's occupant and the fortress alone, without checking
 * the line, the placements or the exits. Equals `destinationAction` for every legal destination.
 */
export function trustedAction(b: BoardState, piece: number, p: number, to: Square): Action {
  const g = geometryOf(b);
  const action = occupantAction(b, g, piece, to);
  const entry = g.inFortress[to] && action >= Action.Report && action <= Action.Corpse && fortressKeeper(b, g, p) >= 0;
  return entry ? ((action + FORTRESS) as Action) : action;
}

function occupantAction(b: BoardState, g: Geometry, piece: number, to: Square): Action {
  const kind = b.kind[piece];
  if (b.board[to] < 0) return kind === REPORTER ? Action.Report : Action.Move;
  const maze = to === g.maze;
  switch (kind) {
    case ASSASSIN:
      return maze ? Action.MazeAssassin : Action.KillAssassin;
    case DIPLOMAT:
      return maze ? Action.MazeDiplomat : Action.Displace;
    case NECROMOBILE:
      return maze ? Action.MazeNecro : Action.Corpse;
    default:
      return Action.KillPlace;
  }
}

/** Action of a piece of kind `kind` moving onto occupant `occ` at t, or -1 when not allowed. */
function interaction(b: BoardState, g: Geometry, kind: number, occ: number, t: Square, p: number, from: Square): Action | -1 {
  const maze = g.maze;
  switch (kind) {
    case CHIEF:
      return isKillable(b, occ, p) && hasPlacement(b, g, from) ? Action.KillPlace : -1;
    case MILITANT:
      return t !== maze && isKillable(b, occ, p) && hasPlacement(b, g, from) ? Action.KillPlace : -1;
    case ASSASSIN:
      if (!isKillable(b, occ, p)) return -1;
      if (t !== maze) return Action.KillAssassin;
      return mazeTurns(b, g, Action.MazeAssassin, from) > 0 ? Action.MazeAssassin : -1;
    case DIPLOMAT:
      if (!isHostile(b, occ, p)) return -1;
      // The square just left is a placement, unless it is a fortress cell closed to the piece (SX-10).
      if (t !== maze) return !fortressClosedTo(b, g, occ) || displaceTurns(b, g, from, t, 0) > 0 ? Action.Displace : -1;
      return mazeTurns(b, g, Action.MazeDiplomat, from) > 0 ? Action.MazeDiplomat : -1;
    case NECROMOBILE:
      if (b.alive[occ]) return -1;
      if (t !== maze) return hasPlacement(b, g, from) ? Action.Corpse : -1;
      return mazeTurns(b, g, Action.MazeNecro, from) > 0 ? Action.MazeNecro : -1;
    default:
      return -1;
  }
}

/** Number of empty field squares on the board. */
export function emptyFieldCount(b: BoardState): number {
  return emptyFields(b, geometryOf(b));
}

function emptyFields(b: BoardState, g: Geometry): number {
  const board = b.board;
  const maze = g.maze;
  const cells = g.cells;
  let n = 0;
  for (let s = 0; s < cells; s++) if (board[s] < 0 && s !== maze) n++;
  return n;
}

/** Is there an empty field square once the actor has left `from` for an occupied square? */
function hasPlacement(b: BoardState, g: Geometry, from: Square): boolean {
  const maze = g.maze;
  if (from !== maze) return true; // the square just left is free
  const cells = g.cells;
  for (let s = 0; s < cells; s++) if (b.board[s] < 0 && s !== maze) return true;
  return false;
}

/**
 * Placements of a piece displaced off `to` by a diplomat from `from`: the empty field
 * squares with `from` empty, the empty maze for a chief, no fortress cell closed to it (SX-10).
 * `emptyField` is `emptyFieldCount` (0: not counted yet).
 */
function displaceTurns(b: BoardState, g: Geometry, from: Square, to: Square, emptyField: number): number {
  const victim = b.board[to];
  const n = (emptyField || emptyFields(b, g)) + 1 + (b.kind[victim] === CHIEF && b.board[g.maze] < 0 ? 1 : 0);
  if (!fortressClosedTo(b, g, victim)) return n;
  let closed = 0;
  for (const s of g.fortress) if (s !== to && (b.board[s] < 0 || s === from)) closed++;
  return n - closed;
}

/**
 * Is s a placement option after a move off the maze (kill with placement, displacement, corpse
 * move)? Empty field squares with `from` empty and `to` occupied; the maze too for a displaced
 * chief when it is empty; a displaced piece not on a fortress cell closed to it (SX-10).
 */
export function isPlacementOption(b: BoardState, from: Square, to: Square, action: Action, s: Square): boolean {
  const g = geometryOf(b);
  return placementOk(b, g.maze, from, to, action, s) && !(action === Action.Displace && g.inFortress[s] && fortressClosedTo(b, g, b.board[to]));
}

function placementOk(b: BoardState, maze: Square, from: Square, to: Square, action: Action, s: Square): boolean {
  if (s === to || (b.board[s] >= 0 && s !== from)) return false;
  return s !== maze || (action === Action.Displace && b.kind[b.board[to]] === CHIEF);
}

/** Every placement option (see `isPlacementOption`), in square order. */
export function placementOptions(b: BoardState, from: Square, to: Square, action: Action): Square[] {
  const g = geometryOf(b);
  const closed = action === Action.Displace && fortressClosedTo(b, g, b.board[to]);
  const out: Square[] = [];
  for (let s = 0; s < g.cells; s++) if (placementOk(b, g.maze, from, to, action, s) && !(closed && g.inFortress[s])) out.push(s);
  return out;
}

/**
 * Where a piece that must leave `origin` (the maze, R-7.4 step 2; a fortress cell, SX-9) may go:
 * along its own lines (a militant 1 or 2 cells; SX-4 as for a move) over empty cells, to an empty
 * cell other than the maze and, leaving the fortress, other than a fortress cell. `from`, the
 * square the piece started from, is empty (but not a stop when it is `noStop`); `blocked`, a
 * piece placed before the exit, is not (-1 for none).
 */
function exitCells(b: BoardState, g: Geometry, origin: Square, kind: number, from: Square, blocked: Square, noStop: Square, fortress: boolean): Square[] {
  const out: Square[] = [];
  const rays = g.rays[origin];
  const rule = vertexRule(b);
  const board = b.board;
  for (let d = 0; d < rays.length; d++) {
    const ray = rays[d];
    const len = reach(kind, ray);
    const flanked = rule !== FREE && d >= g.edgeDirections;
    for (let k = 0; k < len; k++) {
      const s = ray[k];
      if (s === blocked) break;
      if (board[s] >= 0 && s !== from) break;
      if (flanked && flanksBlock(board, g.flanks[k === 0 ? origin : ray[k - 1]][d], rule, from, blocked)) break;
      if (s === noStop || s === g.maze || (fortress && g.inFortress[s])) continue;
      out.push(s);
    }
  }
  return out;
}

/**
 * Exit squares from the maze (R-7.4 step 2): the actor's lines from e5 to empty field squares,
 * with `from` empty and `blocked` (a placed piece, or -1) occupied. The assassin may not stop on
 * its start square (its victim goes there) but may cross it.
 */
export function exitOptions(b: BoardState, from: Square, blocked: Square, isAssassin: boolean): Square[] {
  return exits(b, geometryOf(b), from, blocked, isAssassin);
}

function exits(b: BoardState, g: Geometry, from: Square, blocked: Square, isAssassin: boolean): Square[] {
  return exitCells(b, g, g.maze, ASSASSIN, from, blocked, isAssassin ? from : -1, false);
}

/**
 * Placement options of the dislodged piece on entering the maze. With act_exit_place they are
 * read after the exit to `exit`; with act_place_exit (exit = -1) they come first and must leave
 * at least one exit (N-9). The assassin's corpse always goes to `from`.
 */
export function mazePlacementOptions(b: BoardState, action: Action, from: Square, exit: Square): Square[] {
  if (action === Action.MazeAssassin) return [from];
  const g = geometryOf(b);
  const out: Square[] = [];
  const placeFirst = exit < 0;
  for (let s = 0; s < g.cells; s++) {
    if (s === g.maze || s === exit) continue;
    if (b.board[s] >= 0 && s !== from) continue;
    if (placeFirst && exits(b, g, from, s, false).length === 0) continue;
    out.push(s);
  }
  return out;
}

/** Number of complete (exit, placement) combinations for a maze entry (N-9). */
export function mazeTurnCount(b: BoardState, action: Action, from: Square): number {
  return mazeTurns(b, geometryOf(b), action, from);
}

function mazeTurns(b: BoardState, g: Geometry, action: Action, from: Square): number {
  const isAssassin = action === Action.MazeAssassin;
  if (b.rules.maze_exit_order === 'act_exit_place') {
    const n = exits(b, g, from, -1, isAssassin).length;
    if (isAssassin) return n;
    // After the exit the start square is free and the exit square taken: as many empty field squares as now.
    return n * emptyFields(b, g);
  }
  if (isAssassin) return exits(b, g, from, from, false).length;
  if (vertexRule(b) !== FREE) {
    // A placed piece may also close a corner line beside it (SX-4): count exit by exit.
    let n = 0;
    for (const s of mazePlacementOptions(b, action, from, -1)) n += exits(b, g, from, s, false).length;
    return n;
  }
  // act_place_exit: sum over placements p (empty field squares, `from` included) of exits with p occupied.
  const rays = g.rays[g.maze];
  let exitCount = 0;
  let lost = 0;
  for (let d = 0; d < rays.length; d++) {
    const ray = rays[d];
    let run = 0;
    for (let k = 0; k < ray.length; k++) {
      const s = ray[k];
      if (b.board[s] >= 0 && s !== from) break;
      run++;
    }
    exitCount += run;
    lost += (run * (run + 1)) / 2;
  }
  const places = emptyFields(b, g) + 1; // the start square is free
  return places * exitCount - lost;
}

/**
 * Exit squares of a fortress entry (SX-9) from `to` once its act is done: the actor's own lines,
 * not ending in the fortress or on the maze, with `from` empty and `blocked` (a placed piece, or
 * -1) occupied. Under act_exit_place the assassin may not stop on its start square (its victim
 * goes there); under act_place_exit its victim is there already (`blocked`).
 */
export function fortressExitOptions(b: BoardState, action: Action, from: Square, to: Square, blocked: Square): Square[] {
  return fortressExits(b, geometryOf(b), action, from, to, blocked);
}

function fortressExits(b: BoardState, g: Geometry, action: Action, from: Square, to: Square, blocked: Square): Square[] {
  const noStop = action === Action.FortKillAssassin && blocked < 0 ? from : -1;
  return exitCells(b, g, to, b.kind[b.board[from]], from, blocked, noStop, true);
}

/**
 * Placement options of the piece a fortress entry kills, displaces or moves (SX-9, SX-10): with
 * act_exit_place read after the exit to `exit` (`to` is then free), with act_place_exit (exit =
 * -1) first, each leaving at least one exit. Never the maze; a displaced piece never on a
 * fortress cell closed to it. The assassin's victim always goes to `from`.
 */
export function fortressPlacementOptions(b: BoardState, action: Action, from: Square, to: Square, exit: Square): Square[] {
  if (action === Action.FortKillAssassin) return [from];
  const g = geometryOf(b);
  const closed = action === Action.FortDisplace && fortressClosedTo(b, g, b.board[to]);
  const placeFirst = exit < 0;
  const out: Square[] = [];
  for (let s = 0; s < g.cells; s++) {
    if (s === g.maze || s === exit || (closed && g.inFortress[s])) continue;
    if (s === to ? placeFirst : b.board[s] >= 0 && s !== from) continue;
    if (placeFirst && fortressExits(b, g, action, from, to, s).length === 0) continue;
    out.push(s);
  }
  return out;
}

/** Number of complete turns of a fortress entry by player p (victim, exit and placement choices). */
function fortressTurns(b: BoardState, g: Geometry, action: Action, from: Square, to: Square, p: number): number {
  if (action === Action.FortReport) {
    const victims = reporterVictims(b, from, to, p).length;
    if (victims === 0) return 0;
    return (b.rules.reporter === 'all_adjacent' ? 1 : victims) * fortressExits(b, g, action, from, to, -1).length;
  }
  const assassin = action === Action.FortKillAssassin;
  let n = 0;
  if (b.rules.maze_exit_order === 'act_exit_place') {
    const exits = fortressExits(b, g, action, from, to, -1);
    if (assassin) return exits.length;
    for (const e of exits) n += fortressPlacementOptions(b, action, from, to, e).length;
    return n;
  }
  if (assassin) return fortressExits(b, g, action, from, to, from).length;
  for (const s of fortressPlacementOptions(b, action, from, to, -1)) n += fortressExits(b, g, action, from, to, s).length;
  return n;
}

/**
 * The reporter's candidates at `to` after moving from `from` (N-3): hostile orthogonal
 * neighbours for optional_single and mandatory_single; under all_adjacent, the victims: every
 * living orthogonal neighbour but the mover's own chief and untouchable frozen pieces.
 */
export function reporterVictims(b: BoardState, from: Square, to: Square, p: number): Square[] {
  const all = b.rules.reporter === 'all_adjacent';
  const out: Square[] = [];
  const ns = geometryOf(b).sides[to];
  for (let k = 0; k < ns.length; k++) {
    const s = ns[k];
    const occ = b.board[s];
    if (s === from || occ < 0) continue;
    if (all ? isAllAdjacentVictim(b, occ, p) : isHostile(b, occ, p)) out.push(s);
  }
  return out;
}

function isAllAdjacentVictim(b: BoardState, occ: number, p: number): boolean {
  if (!b.alive[occ]) return false;
  if (b.kind[occ] === CHIEF && b.army[occ] === p) return false;
  return b.control[b.army[occ]] !== FROZEN || !b.rules.neutral_pieces_untouchable;
}

/** Number of complete turns for one destination (perft leaves); `g` is the position's geometry. */
export function turnCount(b: BoardState, g: Geometry, from: Square, to: Square, action: number, p: number, emptyField: number): number {
  switch (action) {
    case Action.Move:
    case Action.KillAssassin:
      return 1;
    case Action.Report: {
      const r = b.rules.reporter;
      if (r === 'all_adjacent') return 1;
      const t = reporterVictims(b, from, to, p).length;
      return r === 'optional_single' ? t + 1 : t > 0 ? t : 1;
    }
    case Action.KillPlace:
    case Action.Corpse:
      return emptyField + (from === g.maze ? 0 : 1);
    case Action.Displace:
      return displaceTurns(b, g, from, to, emptyField);
    case Action.MazeAssassin:
    case Action.MazeDiplomat:
    case Action.MazeNecro:
      return mazeTurns(b, g, action, from);
    default:
      return fortressTurns(b, g, action as Action, from, to, p);
  }
}
