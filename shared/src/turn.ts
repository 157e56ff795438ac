import { geometryOf } from './board/boards.js';
import { cellIndex, type Geometry } from './board/geometry.js';
import { CHIEF, COLOUR_LETTERS, FROZEN, cellName, colourIndex, draft, makeController, rulerIndex, withEntry, type Draft, type Position } from './position.js';
import { isEncircled, livingChief } from './rules/encirclement.js';
import {
  Action,
  destinationAction,
  emptyFieldCount,
  exitOptions,
  FORTRESS,
  fortressExitOptions,
  fortressPlacementOptions,
  genDestinations,
  hasDestination,
  isFortressEntry,
  isPlacementOption,
  mazePlacementOptions,
  placementOptions,
  reporterVictims,
  trustedAction,
  turnCount,
} from './rules/moves.js';
import { nextTurn, popcount } from './rules/order.js';
import { isSquare } from './squares.js';
import {
  ALL_COLOURS,
  type AnyColour,
  type Choice,
  type Colour,
  type Effect,
  type EliminationCause,
  type Elimination,
  type EngineError,
  type GameResult,
  type MoveTurn,
  type PartialTurn,
  type Result,
  type Square,
  type SquareName,
  type Turn,
  type TurnInput,
  type TurnErrorCode,
} from './types.js';

/** An engine error for a turn. */
export type TurnError = EngineError<TurnErrorCode>;

/** A position after a turn, with what the turn did. */
export interface TurnOutcome {
  readonly position: Position;
  readonly effects: Effect[];
}

const fail = <T>(code: TurnErrorCode, message: string): Result<T, TurnError> => ({ ok: false, error: { code, message } });

/** Marker for "not chosen yet" in internal choice fields. */
const UNSET = -1;
/** Marker for an explicit "no reporter kill". */
const NO_KILL = -2;

// ---------------------------------------------------------------------------------------------
// Destinations

/** Player index to move, or -1 when the game is over. */
const moverOf = (pos: Position): number => (pos.toMove === null || pos.result ? -1 : colourIndex(pos.toMove));

/** Does player p have at least one legal complete turn? */
export function hasLegalTurn(
  pos: Pick<Position, 'board' | 'army' | 'kind' | 'sq' | 'alive' | 'control' | 'rules' | 'geometry' | 'activeMask'>,
  p: number,
): boolean {
  for (let i = 0; i < pos.army.length; i++) if (pos.alive[i] && pos.control[pos.army[i]] === p && hasDestination(pos, i, p)) return true;
  return false;
}

/** True when the player to move has no legal turn and must pass (R-3.3, N-8). */
export function mustPass(pos: Position): boolean {
  const p = moverOf(pos);
  return p >= 0 && !hasLegalTurn(pos, p);
}

/** Legal destinations of the piece on `from` for the player to move (empty if none or not theirs). */
export function legalDestinations(pos: Position, from: string): SquareName[] {
  const p = moverOf(pos);
  const s = cellIndex(geometryOf(pos), from);
  if (p < 0 || s < 0) return [];
  const i = pos.board[s];
  if (i < 0 || !pos.alive[i] || pos.control[pos.army[i]] !== p) return [];
  const buf: number[] = [];
  genDestinations(pos, i, p, buf);
  const out: SquareName[] = [];
  for (let k = 0; k < buf.length; k += 2) out.push(cellName(pos, buf[k]));
  return out;
}

/** Squares of the pieces the player to move can move (those with at least one destination). */
function movablePieces(pos: Position, p: number): Square[] {
  const out: Square[] = [];
  for (let i = 0; i < pos.army.length; i++) if (pos.alive[i] && pos.control[pos.army[i]] === p && hasDestination(pos, i, p)) out.push(pos.sq[i]);
  return out.sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// The multi-step turn

/** A turn in square indices; UNSET for a missing choice, NO_KILL for an explicit "no kill". */
interface RawTurn {
  from: Square;
  to: Square;
  placement: Square;
  exit: Square;
  target: Square;
}

/** Internal answer of `step`: the next choice needed, the complete turn, or an error. */
type Step =
  | { need: 'placement' | 'exit'; options: Square[] }
  | { need: 'reporter'; options: Square[]; required: boolean }
  | { need: 'complete'; action: Action; piece: number; victims: readonly Square[] }
  | { need: 'error'; code: TurnErrorCode; message: string; options?: Square[]; choice?: 'destination' | 'placement' | 'exit' | 'reporter' };

const error = (code: TurnErrorCode, message: string, choice?: 'destination' | 'placement' | 'exit' | 'reporter', options?: Square[]): Step => ({
  need: 'error',
  code,
  message,
  choice,
  options,
});

/** Choices a move may not have, for `unexpected`. */
const PLACEMENT = 1;
const EXIT = 2;
const TARGET = 4;

/** The error for the first of the `forbidden` choices the turn has, or null. */
function unexpected(t: RawTurn, forbidden: number): Step | null {
  if (forbidden & PLACEMENT && t.placement !== UNSET) return error('unexpected_choice', 'this move places no piece');
  if (forbidden & EXIT && t.exit !== UNSET) return error('unexpected_choice', 'this move does not leave the maze');
  if (forbidden & TARGET && t.target !== UNSET && t.target !== NO_KILL) return error('unexpected_choice', 'only a reporter names a victim');
  return null;
}

const NO_VICTIMS: readonly Square[] = [];

const complete = (action: Action, piece: number, victims = NO_VICTIMS): Step => ({ need: 'complete', action, piece, victims });

/** Validate a (partial) turn with from and to set, and tell what it needs next. */
function step(pos: Position, p: number, t: RawTurn): Step {
  const piece = pos.board[t.from];
  if (piece < 0 || !pos.alive[piece] || pos.control[pos.army[piece]] !== p) return error('not_your_piece', `no piece of yours on ${cellName(pos, t.from)}`);
  const found = destinationAction(pos, piece, p, t.to);
  if (found < 0) {
    const buf: number[] = [];
    genDestinations(pos, piece, p, buf);
    return error(
      'illegal_destination',
      `${cellName(pos, t.from)} cannot go to ${cellName(pos, t.to)}`,
      'destination',
      buf.filter((_, k) => k % 2 === 0),
    );
  }
  const action = found as Action;
  const { from, to } = t;

  switch (action) {
    case Action.Move:
    case Action.KillAssassin:
      return unexpected(t, PLACEMENT | EXIT | TARGET) ?? complete(action, piece);
    case Action.Report: {
      const extra = unexpected(t, PLACEMENT | EXIT);
      if (extra) return extra;
      const mode = pos.rules.reporter;
      if (mode === 'all_adjacent') {
        if (t.target >= 0) return error('unexpected_choice', 'with reporter=all_adjacent the victims are not named');
        return complete(action, piece, reporterVictims(pos, from, to, p));
      }
      const targets = reporterVictims(pos, from, to, p);
      if (targets.length === 0) {
        if (t.target >= 0) return error('illegal_reporter_target', 'no victim next to the reporter', 'reporter', targets);
        return complete(action, piece);
      }
      const required = mode === 'mandatory_single';
      if (t.target === UNSET) return { need: 'reporter', options: targets, required };
      if (t.target === NO_KILL) return required ? error('missing_choice', 'the reporter must kill', 'reporter', targets) : complete(action, piece);
      if (!targets.includes(t.target)) return error('illegal_reporter_target', `cannot kill on ${cellName(pos, t.target)}`, 'reporter', targets);
      return complete(action, piece, [t.target]);
    }
    case Action.FortReport: {
      // A reporter entering the closed fortress must kill (SX-9), then leaves it.
      const extra = unexpected(t, PLACEMENT);
      if (extra) return extra;
      const targets = reporterVictims(pos, from, to, p);
      let victims = targets;
      if (pos.rules.reporter !== 'all_adjacent') {
        if (t.target === UNSET) return { need: 'reporter', options: targets, required: true };
        if (t.target === NO_KILL) return error('missing_choice', 'a reporter entering the fortress must kill', 'reporter', targets);
        if (!targets.includes(t.target)) return error('illegal_reporter_target', `cannot kill on ${cellName(pos, t.target)}`, 'reporter', targets);
        victims = [t.target];
      } else if (t.target >= 0) return error('unexpected_choice', 'with reporter=all_adjacent the victims are not named');
      const exits = fortressExitOptions(pos, action, from, to, UNSET);
      if (t.exit === UNSET) return { need: 'exit', options: exits };
      if (!exits.includes(t.exit)) return error('illegal_exit', `cannot leave the fortress to ${cellName(pos, t.exit)}`, 'exit', exits);
      return complete(action, piece, victims);
    }
    case Action.KillPlace:
    case Action.Corpse:
    case Action.Displace: {
      const extra = unexpected(t, EXIT | TARGET);
      if (extra) return extra;
      if (t.placement === UNSET) return { need: 'placement', options: placementOptions(pos, from, to, action) };
      // A complete turn only needs its placement checked; the options are listed for the error alone.
      if (!isPlacementOption(pos, from, to, action, t.placement))
        return error('illegal_placement', `cannot place on ${cellName(pos, t.placement)}`, 'placement', placementOptions(pos, from, to, action));
      return complete(action, piece);
    }
    default: {
      // An entry that must leave at once: the maze (R-7.4, N-9) or the closed fortress (SX-9).
      const extra = unexpected(t, TARGET);
      if (extra) return extra;
      const fortress = isFortressEntry(action);
      const where = fortress ? 'fortress' : 'maze';
      const assassin = action === Action.MazeAssassin || action === Action.FortKillAssassin;
      const exitsWith = (blocked: Square) =>
        fortress ? fortressExitOptions(pos, action, from, to, blocked) : exitOptions(pos, from, blocked, assassin && blocked < 0);
      const placements = (exit: Square) => (fortress ? fortressPlacementOptions(pos, action, from, to, exit) : mazePlacementOptions(pos, action, from, exit));
      if (assassin && t.placement !== UNSET) return error('unexpected_choice', "the assassin's victim goes to its start square");
      if (pos.rules.maze_exit_order === 'act_exit_place') {
        const exits = exitsWith(UNSET);
        if (t.exit === UNSET) return t.placement !== UNSET ? error('missing_choice', 'the exit comes first') : { need: 'exit', options: exits };
        if (!exits.includes(t.exit)) return error('illegal_exit', `cannot leave the ${where} to ${cellName(pos, t.exit)}`, 'exit', exits);
        if (assassin) return complete(action, piece);
        const places = placements(t.exit);
        if (t.placement === UNSET) return { need: 'placement', options: places };
        if (!places.includes(t.placement)) return error('illegal_placement', `cannot place on ${cellName(pos, t.placement)}`, 'placement', places);
        return complete(action, piece);
      }
      let placed = from;
      if (!assassin) {
        const places = placements(UNSET);
        if (t.placement === UNSET) return t.exit !== UNSET ? error('missing_choice', 'the placement comes first') : { need: 'placement', options: places };
        if (!places.includes(t.placement)) return error('illegal_placement', `cannot place on ${cellName(pos, t.placement)}`, 'placement', places);
        placed = t.placement;
      }
      const exits = exitsWith(placed);
      if (t.exit === UNSET) return { need: 'exit', options: exits };
      if (!exits.includes(t.exit)) return error('illegal_exit', `cannot leave the ${where} to ${cellName(pos, t.exit)}`, 'exit', exits);
      return complete(action, piece);
    }
  }
}

/** Read an optional square field of untrusted input: UNSET when absent, -3 when malformed. */
function optSquare(g: Geometry, v: unknown, allowNull = false): number {
  if (v === undefined) return UNSET;
  if (v === null) return allowNull ? NO_KILL : -3;
  const s = cellIndex(g, v);
  return s >= 0 ? s : -3;
}

/**
 * True when every cell a turn names is a cell name of board `g` (the square board's `a1`..`i9`
 * by default): the turn is a `Turn`, legal or not (`playTurn` decides that). A pass is a `Turn`.
 */
export function isTurn(turn: TurnInput, g?: Geometry): turn is Turn {
  if ('pass' in turn) return turn.pass === true;
  const { from, to, placement, exit, reporterTarget } = turn;
  const is = g === undefined ? isSquare : (s: unknown) => g.byName.has(s);
  const isOptional = (s: unknown): boolean => s === undefined || is(s);
  return is(from) && is(to) && isOptional(placement) && isOptional(exit) && isOptional(reporterTarget);
}

/** The fields a turn object may have. */
const TURN_FIELDS: readonly string[] = ['from', 'to', 'placement', 'exit', 'reporterTarget', 'pass'];

type Parsed = { ok: true; turn: RawTurn | 'pass' | null } | { ok: false; error: TurnError };

/** Parse an untrusted (partial) turn object naming cells of board g. `null` turn: no from/to yet. */
function parseRaw(input: unknown, g: Geometry): Parsed {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: { code: 'bad_turn', message: 'a turn is an object' } };
  const o = input as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!TURN_FIELDS.includes(k)) return { ok: false, error: { code: 'bad_turn', message: `unknown turn field ${JSON.stringify(k).slice(0, 30)}` } };
  if (o.pass !== undefined) {
    if (o.pass !== true || Object.keys(o).length !== 1) return { ok: false, error: { code: 'bad_turn', message: 'a pass is {pass: true}' } };
    return { ok: true, turn: 'pass' };
  }
  const from = optSquare(g, o.from);
  const to = optSquare(g, o.to);
  const placement = optSquare(g, o.placement);
  const exit = optSquare(g, o.exit);
  const target = optSquare(g, o.reporterTarget, true);
  if (from === -3 || to === -3 || placement === -3 || exit === -3 || target === -3)
    return { ok: false, error: { code: 'bad_square', message: `squares are ${g.nameHint}` } };
  if (from === UNSET) {
    if (to !== UNSET || placement !== UNSET || exit !== UNSET || target !== UNSET)
      return { ok: false, error: { code: 'bad_turn', message: 'choices need a piece first' } };
    return { ok: true, turn: null };
  }
  return { ok: true, turn: { from, to, placement, exit, target } };
}

/**
 * What a partial turn needs next, with its exact legal options: the piece, its destination, the
 * placement of a killed or displaced piece, the exit from the maze, the reporter's victim, or
 * `complete` with the finished turn. Never throws; bad input gives a typed error.
 */
export function nextChoice(pos: Position, partial: PartialTurn<string>): Result<Choice, TurnError> {
  const p = moverOf(pos);
  if (p < 0) return fail('game_over', 'the game is over');
  const parsed = parseRaw(partial, geometryOf(pos));
  if (!parsed.ok) return parsed;
  const names = (xs: Square[]) => xs.map((c) => cellName(pos, c));
  if (parsed.turn === 'pass' || parsed.turn === null) {
    const movable = movablePieces(pos, p);
    if (movable.length === 0) return { ok: true, value: { kind: 'complete', turn: { pass: true } } };
    if (parsed.turn === 'pass') return fail('cannot_pass', 'you have a legal move');
    return { ok: true, value: { kind: 'piece', options: names(movable) } };
  }
  const t = parsed.turn;
  if (t.to === UNSET) {
    if (t.placement !== UNSET || t.exit !== UNSET || t.target !== UNSET) return fail('bad_turn', 'choices need a destination first');
    const piece = pos.board[t.from];
    if (piece < 0 || !pos.alive[piece] || pos.control[pos.army[piece]] !== p) return fail('not_your_piece', `no piece of yours on ${cellName(pos, t.from)}`);
    return { ok: true, value: { kind: 'destination', options: legalDestinations(pos, cellName(pos, t.from)) } };
  }
  const s = step(pos, p, t);
  switch (s.need) {
    case 'error':
      return fail(s.code, s.message);
    case 'placement':
    case 'exit':
      return { ok: true, value: { kind: s.need, options: names(s.options) } };
    case 'reporter':
      return { ok: true, value: { kind: 'reporter', options: names(s.options), required: s.required } };
    default:
      return { ok: true, value: { kind: 'complete', turn: makeTurnValue(pos, t) } };
  }
}

function makeTurnValue(pos: Pick<Position, 'geometry'>, t: RawTurn): Turn {
  const turn: { -readonly [K in keyof MoveTurn]: MoveTurn[K] } = {
    from: cellName(pos, t.from),
    to: cellName(pos, t.to),
  };
  if (t.placement >= 0) turn.placement = cellName(pos, t.placement);
  if (t.exit >= 0) turn.exit = cellName(pos, t.exit);
  if (t.target >= 0) turn.reporterTarget = cellName(pos, t.target);
  return turn;
}

/** The step at which a complete turn fails, with that step's options (for diagnostics and conformance). */
export interface TurnDiagnosis {
  /** Option sets offered at each step, in order. */
  readonly steps: readonly {
    readonly choice: 'destination' | 'placement' | 'exit' | 'reporter';
    readonly options: readonly SquareName[];
    readonly required?: boolean;
  }[];
  readonly error: TurnError | null;
}

/**
 * Walk a complete turn step by step, recording the options offered at each step (the
 * destinations first) and the error at the step that fails, if any.
 */
export function diagnoseTurn(pos: Position, turn: TurnInput): TurnDiagnosis {
  const steps: { choice: 'destination' | 'placement' | 'exit' | 'reporter'; options: SquareName[]; required?: boolean }[] = [];
  const p = moverOf(pos);
  if (p < 0) return { steps, error: { code: 'game_over', message: 'the game is over' } };
  const parsed = parseRaw(turn, geometryOf(pos));
  if (!parsed.ok) return { steps, error: parsed.error };
  if (parsed.turn === 'pass' || parsed.turn === null || parsed.turn.to === UNSET)
    return { steps, error: mustPass(pos) || parsed.turn !== 'pass' ? null : { code: 'cannot_pass', message: 'you have a legal move' } };
  const full = parsed.turn;
  if (full.target === UNSET) full.target = NO_KILL;
  steps.push({ choice: 'destination', options: legalDestinations(pos, cellName(pos, full.from)) });
  // Replay the choices one at a time, in the order the rules ask for them.
  const partial: RawTurn = { from: full.from, to: full.to, placement: UNSET, exit: UNSET, target: UNSET };
  for (;;) {
    const s = step(pos, p, partial);
    if (s.need === 'complete') {
      // reporter=all_adjacent names no victim, but the victims are still shown.
      if ((s.action === Action.Report || s.action === Action.FortReport) && pos.rules.reporter === 'all_adjacent')
        steps.push({ choice: 'reporter', options: s.victims.map((c) => cellName(pos, c)), required: false });
      const final = step(pos, p, full);
      return { steps, error: final.need === 'error' ? { code: final.code, message: final.message } : null };
    }
    if (s.need === 'error') return { steps, error: { code: s.code, message: s.message } };
    steps.push({ choice: s.need, options: s.options.map((c) => cellName(pos, c)), ...(s.need === 'reporter' ? { required: s.required } : {}) });
    if (s.need === 'placement') {
      if (full.placement === UNSET) return { steps, error: { code: 'missing_choice', message: 'a placement is needed' } };
      partial.placement = full.placement;
    } else if (s.need === 'exit') {
      if (full.exit === UNSET) return { steps, error: { code: 'missing_choice', message: 'an exit is needed' } };
      partial.exit = full.exit;
    } else {
      partial.target = full.target;
    }
    const check = step(pos, p, partial);
    if (check.need === 'error') return { steps, error: { code: check.code, message: check.message } };
  }
}

// ---------------------------------------------------------------------------------------------
// Applying a turn and the end-of-move procedure (N-5)

/** Play a complete turn for the player to move. Never throws; on error the position is unchanged. */
export function playTurn(pos: Position, turn: TurnInput): Result<TurnOutcome, TurnError> {
  const p = moverOf(pos);
  if (p < 0) return fail('game_over', 'the game is over');
  const parsed = parseRaw(turn, geometryOf(pos));
  if (!parsed.ok) return parsed;
  if (parsed.turn === null) return fail('bad_turn', 'a turn needs from and to');
  if (parsed.turn === 'pass') {
    if (hasLegalTurn(pos, p)) return fail('cannot_pass', 'you have a legal move');
    return { ok: true, value: applyPass(pos, p, true) };
  }
  const t = parsed.turn;
  if (t.to === UNSET) return fail('bad_turn', 'a turn needs from and to');
  if (t.target === UNSET) t.target = NO_KILL; // a complete turn without a victim kills nobody
  const s = step(pos, p, t);
  if (s.need === 'error') return fail(s.code, s.message);
  if (s.need !== 'complete') return fail('missing_choice', `a ${s.need === 'reporter' ? 'reporter victim (or none)' : s.need} is needed`);
  return { ok: true, value: applyMove(pos, p, t, s.action, s.piece, s.victims, true) };
}

/**
 * Applies a turn that was validated when it was first played (a replayed log): the same
 * position and effects as `playTurn`, without the legality search (no destination generation,
 * no placement, exit or victim options, no pass check). Only the cheap checks remain (the game
 * is on, the squares are squares, the piece is the mover's), so garbage is still refused without
 * a throw; an illegal turn that passes them gives an unspecified position. Use `playTurn` for
 * anything that was not accepted before.
 */
export function applyTrusted(pos: Position, turn: TurnInput): Result<TurnOutcome, TurnError> {
  const p = moverOf(pos);
  if (p < 0) return fail('game_over', 'the game is over');
  if ('pass' in turn) return turn.pass === true ? { ok: true, value: applyPass(pos, p, true) } : fail('bad_turn', 'a pass is {pass: true}');
  const g = geometryOf(pos);
  const from = cellIndex(g, turn.from);
  const to = cellIndex(g, turn.to);
  const placement = optSquare(g, turn.placement);
  const exit = optSquare(g, turn.exit);
  const named = optSquare(g, turn.reporterTarget, true);
  if (from < 0 || to < 0 || from === to || placement === -3 || exit === -3 || named === -3) return fail('bad_square', `squares are ${g.nameHint}`);
  const target = named === UNSET ? NO_KILL : named;
  const piece = pos.board[from];
  if (piece < 0 || !pos.alive[piece] || pos.control[pos.army[piece]] !== p) return fail('not_your_piece', `no piece of yours on ${cellName(pos, from)}`);
  const action = trustedAction(pos, piece, p, to);
  let victims = NO_VICTIMS;
  if (action === Action.Report || action === Action.FortReport)
    victims = pos.rules.reporter === 'all_adjacent' ? reporterVictims(pos, from, to, p) : target >= 0 ? [target] : NO_VICTIMS;
  return { ok: true, value: applyMove(pos, p, { from, to, placement, exit, target }, action, piece, victims, true) };
}

/** Number of armies (colour indices) a position may hold: every colour of every board. */
const ARMIES = ALL_COLOURS.length;

/** Internal: effects collector (null when the caller does not want them). */
type Effects = Effect[] | null;

function movePiece(d: Draft, piece: number, to: Square): void {
  d.board[d.sq[piece]] = -1;
  d.board[to] = piece;
  d.sq[piece] = to;
}

/** Kill a piece where it stands; a chief's death hands over armies at once. */
function kill(d: Draft, victim: number, byPiece: number, p: number, fx: Effects, group: number): void {
  d.alive = withEntry(d.alive, victim, 0);
  fx?.push({ type: 'kill', piece: victim, by: byPiece, square: cellName(d, d.sq[victim]) });
  if (d.kind[victim] !== CHIEF) return;
  const x = d.army[victim];
  if ((d.activeMask >> x) & 1) {
    for (let a = 0; a < ARMIES; a++) if (d.control[a] === x) setControl(d, a, p, fx);
    eliminate(d, x, 'killed', p, group, fx);
  } else if (d.control[x] !== p) {
    setControl(d, x, p, fx);
  }
}

function setControl(d: Draft, army: number, to: number, fx: Effects): void {
  const from = d.control[army];
  d.control = withEntry(d.control, army, to);
  fx?.push({ type: 'control', army: COLOUR_LETTERS[army], from: makeController(from)!, to: makeController(to)! });
}

function eliminate(d: Draft, x: number, cause: EliminationCause, by: number, group: number, fx: Effects): void {
  d.activeMask &= ~(1 << x);
  const e: Elimination = { colour: COLOUR_LETTERS[x], cause, by: by >= 0 ? COLOUR_LETTERS[by] : null, ply: d.ply, group };
  d.eliminations = [...d.eliminations, e];
  fx?.push({ type: 'eliminated', colour: e.colour, cause, by: e.by });
}

function applyMove(pos: Position, p: number, t: RawTurn, action: Action, piece: number, victims: readonly Square[], wantEffects: boolean): TurnOutcome {
  const d = draft(pos);
  const rulerBefore = rulerIndex(pos);
  const group = pos.eliminations.length ? pos.eliminations[pos.eliminations.length - 1].group + 1 : 0;
  const { from, to } = t;
  const victim = d.board[to];
  let progress = false;
  // Every action starts with the actor landing on `to`; an occupant is lifted off (it stays
  // recorded on its square). The effects start as a one-entry literal: a plain move has no other.
  d.board[to] = -1;
  movePiece(d, piece, to);
  const fx: Effects = wantEffects ? [{ type: 'move', piece, from: cellName(pos, from), to: cellName(pos, to) }] : null;

  switch (action) {
    case Action.Move:
      break;
    case Action.Report:
    case Action.FortReport:
      for (const v of victims) {
        const occ = d.board[v];
        if (occ >= 0 && d.alive[occ]) {
          kill(d, occ, piece, p, fx, group);
          progress = true;
        }
      }
      if (action === Action.FortReport) exitTo(d, piece, to, t.exit, fx);
      break;
    case Action.KillPlace:
    case Action.KillAssassin:
      kill(d, victim, piece, p, fx, group);
      put(d, victim, action === Action.KillAssassin ? from : t.placement, false, piece, fx);
      progress = true;
      break;
    case Action.Displace:
    case Action.Corpse:
      put(d, victim, t.placement, action === Action.Displace, piece, fx);
      progress ||= action === Action.Displace;
      break;
    default: {
      // Maze entry or fortress entry (SX-9): act, then exit and placement in the room's order.
      const act = isFortressEntry(action) ? action - FORTRESS : action;
      if (act === Action.MazeAssassin || act === Action.KillPlace || act === Action.KillAssassin) {
        kill(d, victim, piece, p, fx, group);
        progress = true;
      } else if (act === Action.MazeDiplomat || act === Action.Displace) {
        progress = true;
      }
      const place = act === Action.MazeAssassin || act === Action.KillAssassin ? from : t.placement;
      const alive = act === Action.MazeDiplomat || act === Action.Displace;
      if (pos.rules.maze_exit_order === 'act_exit_place') {
        exitTo(d, piece, to, t.exit, fx);
        put(d, victim, place, alive, piece, fx);
      } else {
        put(d, victim, place, alive, piece, fx);
        exitTo(d, piece, to, t.exit, fx);
      }
    }
  }
  return finishTurn(pos, d, p, progress, rulerBefore, group, fx);
}

/** Piece x goes to `at`, alive (displaced by `by`) or as a corpse. */
function put(d: Draft, x: number, at: Square, alive: boolean, by: number, fx: Effects): void {
  const was = d.sq[x];
  if (d.board[was] === x) d.board[was] = -1;
  d.board[at] = x;
  d.sq[x] = at;
  fx?.push(
    alive
      ? { type: 'displace', piece: x, by, from: cellName(d, was), to: cellName(d, at) }
      : { type: 'place', piece: x, from: cellName(d, was), to: cellName(d, at) },
  );
}

/** The actor leaves the maze or the fortress cell `from` for `at`. */
function exitTo(d: Draft, piece: number, from: Square, at: Square, fx: Effects): void {
  movePiece(d, piece, at);
  fx?.push({ type: 'exit', piece, from: cellName(d, from), to: cellName(d, at) });
}

function applyPass(pos: Position, p: number, wantEffects: boolean): TurnOutcome {
  const d = draft(pos);
  const fx: Effects = wantEffects ? [{ type: 'pass', colour: COLOUR_LETTERS[p] }] : null;
  const group = pos.eliminations.length ? pos.eliminations[pos.eliminations.length - 1].group + 1 : 0;
  return finishTurn(pos, d, p, false, rulerIndex(pos), group, fx);
}

/**
 * N-5 steps 2 to 7 after player p's turn (p may have been eliminated by it): encirclement,
 * frozen armies to the ruler, the winner, the draws, and the next player.
 */
function finishTurn(pos: Position, d: Draft, p: number, progress: boolean, rulerBefore: number, group: number, fx: Effects): TurnOutcome {
  settle(d, p, group, fx);
  const k = rulerIndex(d);
  const wasNormal = pos.turnKind === 'normal';
  progress ||= d.eliminations.length !== pos.eliminations.length || k !== rulerBefore;
  d.quiet = progress ? 0 : wasNormal ? pos.quiet + 1 : pos.quiet;
  d.ply = pos.ply + 1;
  if (!decideResult(d, fx)) {
    const next = nextTurn(p, wasNormal, colourIndex(pos.cursor), d.activeMask, k);
    d.toMove = COLOUR_LETTERS[next.player];
    d.turnKind = next.normal ? 'normal' : 'extra';
    d.cursor = COLOUR_LETTERS[next.cursor];
  }
  return { position: d, effects: fx ?? [] };
}

/**
 * N-5 steps 2-4: eliminate encircled players until a pass finds nobody new, then give frozen
 * armies to the ruler. The ruler is found again before each hand-over (after the pass's
 * eliminations), so a player eliminated here, the ruler before the move or the mover included,
 * never receives or keeps an army: with no active ruler the armies freeze.
 */
function settle(d: Draft, mover: number, group: number, fx: Effects): void {
  for (;;) {
    const encircled: number[] = [];
    for (let c = 0; c < ARMIES; c++) {
      if (!((d.activeMask >> c) & 1)) continue;
      const chief = livingChief(d, c);
      if (chief >= 0 && isEncircled(d, c, chief)) encircled.push(c);
    }
    if (encircled.length === 0) break;
    for (const c of encircled) {
      const chief = livingChief(d, c);
      d.alive = withEntry(d.alive, chief, 0);
      fx?.push({ type: 'kill', piece: chief, by: -1, square: cellName(d, d.sq[chief]) });
      eliminate(d, c, 'encircled', mover, group, fx);
    }
    for (const c of encircled) handOver(d, c, fx);
  }
  const k = rulerIndex(d);
  if (k >= 0) for (let a = 0; a < ARMIES; a++) if (d.control[a] === FROZEN) setControl(d, a, k, fx);
}

/** Eliminated player x's armies go to the ruler found now (never x itself: it is inactive), or freeze. */
function handOver(d: Draft, x: number, fx: Effects): void {
  const k = rulerIndex(d);
  for (let a = 0; a < ARMIES; a++) if (d.control[a] === x) setControl(d, a, k >= 0 ? k : FROZEN, fx);
}

/** N-5 steps 5-6: set the result if the game ended; returns true when it did. */
function decideResult(d: Draft, fx: Effects): boolean {
  const count = popcount(d.activeMask);
  let result: GameResult | null = null;
  if (count === 1) result = { kind: 'win', winner: COLOUR_LETTERS[31 - Math.clz32(d.activeMask)], ranking: ranking(d) };
  else if (count === 0) result = { kind: 'draw', reason: 'mutual_elimination', ranking: ranking(d) };
  else {
    let anyMove = false;
    for (let c = 0; c < ARMIES && !anyMove; c++) if ((d.activeMask >> c) & 1 && hasLegalTurn(d, c)) anyMove = true;
    if (!anyMove) result = { kind: 'draw', reason: 'no_legal_move', ranking: ranking(d) };
    else if (d.rules.no_progress_rounds > 0 && d.quiet >= d.rules.no_progress_rounds * count)
      result = { kind: 'draw', reason: 'no_progress', ranking: ranking(d) };
  }
  if (!result) return false;
  endGame(d, result, fx);
  return true;
}

function endGame(d: Draft, result: GameResult, fx: Effects): void {
  d.result = result;
  d.toMove = null;
  fx?.push({ type: 'result', result });
}

/** Players ranked best first: the survivors, then by elimination, later groups ranking higher. */
function ranking(d: Draft): Colour[][] {
  const groups: Colour[][] = [];
  const alive = COLOUR_LETTERS.filter((_, c) => (d.activeMask >> c) & 1);
  if (alive.length) groups.push(alive);
  const byGroup = new Map<number, Colour[]>();
  for (const e of d.eliminations) byGroup.set(e.group, [...(byGroup.get(e.group) ?? []), e.colour]);
  const ordered = [...byGroup.entries()].sort((a, b) => b[0] - a[0]).map(([, cs]) => cs);
  return [...groups, ...ordered];
}

// ---------------------------------------------------------------------------------------------
// Resignation and draws

/**
 * An active player resigns (or times out), at any time (N-7): its chief becomes a corpse, its
 * armies go to the ruler or freeze, N-5 steps 3-6 follow, and the turn passes on if it was its turn.
 */
export function resign(pos: Position, colour: AnyColour): Result<TurnOutcome, TurnError> {
  if (pos.result || pos.toMove === null) return fail('game_over', 'the game is over');
  const x = colourIndex(colour);
  if (x < 0 || !((pos.activeMask >> x) & 1)) return fail('not_active', `${String(colour)} is not in the game`);
  const d = draft(pos);
  const fx: Effect[] = [{ type: 'resign', colour: COLOUR_LETTERS[x] }];
  const group = pos.eliminations.length ? pos.eliminations[pos.eliminations.length - 1].group + 1 : 0;
  const chief = livingChief(d, x);
  if (chief >= 0) {
    d.alive = withEntry(d.alive, chief, 0);
    fx.push({ type: 'kill', piece: chief, by: -1, square: cellName(d, d.sq[chief]) });
  }
  eliminate(d, x, 'resigned', -1, group, fx);
  handOver(d, x, fx); // the ruler is found after the chief's death and the elimination: never x
  const toMove = colourIndex(pos.toMove);
  settle(d, -1, group, fx); // encirclements caused by a resignation are nobody's move
  d.quiet = 0;
  const onTurn = toMove === x;
  if (onTurn) d.ply = pos.ply + 1;
  if (decideResult(d, fx)) return { ok: true, value: { position: d, effects: fx } };
  if (onTurn || !((d.activeMask >> toMove) & 1)) {
    const next = nextTurn(toMove, pos.turnKind === 'normal', colourIndex(pos.cursor), d.activeMask, rulerIndex(d));
    d.toMove = COLOUR_LETTERS[next.player];
    d.turnKind = next.normal ? 'normal' : 'extra';
    d.cursor = COLOUR_LETTERS[next.cursor];
  }
  return { ok: true, value: { position: d, effects: fx } };
}

/** End the game as a draw agreed by every active player (the server collects the agreement). */
export function drawByAgreement(pos: Position): Result<TurnOutcome, TurnError> {
  if (pos.result || pos.toMove === null) return fail('game_over', 'the game is over');
  const d = draft(pos);
  const fx: Effect[] = [];
  endGame(d, { kind: 'draw', reason: 'agreement', ranking: ranking(d) }, fx);
  return { ok: true, value: { position: d, effects: fx } };
}

// ---------------------------------------------------------------------------------------------
// Enumeration, random play and perft

/** Every legal complete turn of the player to move (`[{pass:true}]` when it has none, `[]` when the game is over). */
export function legalTurns(pos: Position): Turn[] {
  const p = moverOf(pos);
  if (p < 0) return [];
  const out: Turn[] = [];
  forEachTurn(pos, p, (t) => {
    out.push(makeTurnValue(pos, t));
  });
  if (out.length === 0) out.push({ pass: true });
  return out;
}

/** Call `cb` for every legal complete turn of player p (the raw turn object is reused). */
function forEachTurn(pos: Position, p: number, cb: (t: RawTurn) => void): void {
  const buf: number[] = [];
  const t: RawTurn = { from: 0, to: 0, placement: UNSET, exit: UNSET, target: UNSET };
  for (let i = 0; i < pos.army.length; i++) {
    if (!pos.alive[i] || pos.control[pos.army[i]] !== p) continue;
    buf.length = 0;
    genDestinations(pos, i, p, buf);
    for (let k = 0; k < buf.length; k += 2) {
      t.from = pos.sq[i];
      t.to = buf[k];
      t.placement = t.exit = t.target = UNSET;
      expand(pos, p, t, cb);
    }
  }
}

/** Depth-first over the remaining choices of a partial turn. */
function expand(pos: Position, p: number, t: RawTurn, cb: (t: RawTurn) => void): void {
  const s = step(pos, p, t);
  if (s.need === 'complete') return cb(t);
  if (s.need === 'error') return;
  const key = s.need === 'reporter' ? 'target' : s.need;
  const options = s.options.slice();
  if (s.need === 'reporter' && !s.required) options.push(NO_KILL);
  for (const o of options) {
    t[key] = o;
    expand(pos, p, t, cb);
    t[key] = UNSET;
  }
}

/** Number of legal complete turns of the player to move (a forced pass counts 1, a finished game 0). */
export function countTurns(pos: Position): number {
  const p = moverOf(pos);
  if (p < 0) return 0;
  const g = geometryOf(pos);
  const buf: number[] = [];
  const empty = emptyFieldCount(pos);
  let n = 0;
  for (let i = 0; i < pos.army.length; i++) {
    if (!pos.alive[i] || pos.control[pos.army[i]] !== p) continue;
    buf.length = 0;
    genDestinations(pos, i, p, buf);
    const from = pos.sq[i];
    for (let k = 0; k < buf.length; k += 2) n += turnCount(pos, g, from, buf[k], buf[k + 1], p, empty);
  }
  return n === 0 ? 1 : n;
}

/**
 * A random legal turn for the player to move: a uniformly random (piece, destination) pair, then
 * uniformly random choices. `{pass:true}` when it has no legal move. `random` returns [0, 1).
 */
export function randomTurn(pos: Position, random: () => number): Turn {
  const p = moverOf(pos);
  if (p < 0) return { pass: true };
  // All (destination, action) pairs of every piece in one buffer; `ends[i]` closes piece i's run.
  const buf: number[] = [];
  const owners: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < pos.army.length; i++) {
    if (!pos.alive[i] || pos.control[pos.army[i]] !== p) continue;
    genDestinations(pos, i, p, buf);
    owners.push(i);
    ends.push(buf.length);
  }
  if (buf.length === 0) return { pass: true };
  const j = Math.floor(random() * (buf.length / 2)) * 2;
  let o = 0;
  while (ends[o] <= j) o++;
  const t: RawTurn = { from: pos.sq[owners[o]], to: buf[j], placement: UNSET, exit: UNSET, target: UNSET };
  for (;;) {
    const s = step(pos, p, t);
    if (s.need === 'complete' || s.need === 'error') break;
    const options = s.options.slice();
    if (s.need === 'reporter' && !s.required) options.push(NO_KILL);
    const o = options[Math.floor(random() * options.length)];
    if (s.need === 'reporter') t.target = o;
    else if (s.need === 'placement') t.placement = o;
    else t.exit = o;
  }
  return makeTurnValue(pos, t);
}

/** Apply a raw turn known to be legal, without effects (perft, benchmarks). */
function applyRaw(pos: Position, p: number, t: RawTurn): Position | null {
  const s = step(pos, p, t);
  if (s.need !== 'complete') return null;
  return applyMove(pos, p, t, s.action, s.piece, s.victims, false).position;
}

/**
 * Count complete turns to `depth` (RULES conformance README "Perft"): every distinct combination
 * of piece, destination and choices counts once, deeper levels follow the real turn order, a
 * forced pass is one node and a finished game is a leaf.
 */
export function perft(pos: Position, depth: number): number {
  if (depth <= 0 || pos.result) return 1;
  const p = moverOf(pos);
  if (p < 0) return 1;
  if (depth === 1) return countTurns(pos);
  let n = 0;
  forEachTurn(pos, p, (t) => {
    const next = applyRaw(pos, p, t);
    if (next) n += perft(next, depth - 1);
  });
  if (n === 0 && !hasLegalTurn(pos, p)) return perft(applyPass(pos, p, false).position, depth - 1);
  return n;
}
