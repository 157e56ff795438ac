import { GEOMETRIES, geometryOf, isGeometryName } from './board/boards.js';
import { cellIndex, type GeometryName } from './board/geometry.js';
import {
  COLOURS,
  DEFAULT_RULES,
  KINDS,
  RULE_VALUES,
  type ByColour,
  type Colour,
  type Controller,
  type Elimination,
  type EngineError,
  type GameResult,
  type Kind,
  type PieceInfo,
  type Result,
  type Rules,
  type Square,
  type SquareName,
  type TurnKind,
} from './types.js';

/** Kind indices (positions in KINDS). */
export const CHIEF = 0;
export const ASSASSIN = 1;
export const REPORTER = 2;
export const DIPLOMAT = 3;
export const NECROMOBILE = 4;
export const MILITANT = 5;

/** Controller codes in `Position.control`: 0..3 a colour, or one of these. */
export const FROZEN = 4;
export const HOSTAGE = 5;
/** The army has no piece on the board. */
export const ABSENT = -1;

/**
 * An immutable Djambi position: board, pieces, control of armies, active players and turn state
 * (RULES.md N-2). The typed arrays are internal; read through the exported accessors. The engine
 * never changes a Position after returning it.
 */
export interface Position {
  readonly rules: Rules;
  /** The board (its name: a position stays plain data that a worker thread can be sent cheaply). */
  readonly geometry: GeometryName;
  /** Piece id on each square, or -1. (Plain arrays: copying them per turn is cheaper than typed arrays.) */
  readonly board: number[];
  /** Army (colour index) of each piece. */
  readonly army: Uint8Array;
  /** Kind index of each piece. */
  readonly kind: Uint8Array;
  /** Square index of each piece. */
  readonly sq: Square[];
  /** 1 for a living piece, 0 for a corpse. */
  readonly alive: number[];
  /** Piece id of each colour's chief, or -1 (fixed for the game). */
  readonly chiefs: readonly number[];
  /** Controller code of each army (colour index, FROZEN, HOSTAGE or ABSENT). */
  readonly control: number[];
  /** Bitmask of active players (bit i = COLOURS[i]). */
  readonly activeMask: number;
  /** The player to move, or null once the game is over. */
  readonly toMove: Colour | null;
  readonly turnKind: TurnKind;
  /** Seat of the most recent normal turn (N-2). */
  readonly cursor: Colour;
  /** Turns played so far (passes and resignations on one's own turn included). */
  readonly ply: number;
  /** Quiet-turn count for the no-progress draw (N-6). */
  readonly quiet: number;
  readonly result: GameResult | null;
  readonly eliminations: readonly Elimination[];
}

/** Mutable working copy used inside the engine. */
export type Draft = { -readonly [K in keyof Position]: Position[K] };

/** Colour index of a colour. */
export const colourIndex = (c: Colour): number => COLOURS.indexOf(c);

/**
 * Copy a position into a draft that may be changed. `board` and `sq` change on every turn and are
 * copied; `alive` and `control` change on few turns and stay shared with `pos`: they are replaced
 * (`withEntry`), never written, as `eliminations` is.
 */
export function draft(pos: Position): Draft {
  // One literal with every field keeps a single object shape; army and kind never change: shared.
  return {
    rules: pos.rules,
    geometry: pos.geometry,
    board: pos.board.slice(),
    army: pos.army,
    kind: pos.kind,
    sq: pos.sq.slice(),
    alive: pos.alive,
    chiefs: pos.chiefs,
    control: pos.control,
    activeMask: pos.activeMask,
    toMove: pos.toMove,
    turnKind: pos.turnKind,
    cursor: pos.cursor,
    ply: pos.ply,
    quiet: pos.quiet,
    result: pos.result,
    eliminations: pos.eliminations,
  };
}

/** A copy of `xs` with entry i set to v (for the arrays a draft shares with its position). */
export function withEntry(xs: readonly number[], i: number, v: number): number[] {
  const out = xs.slice();
  out[i] = v;
  return out;
}

/** Seats that take turns under these rules (N-1). */
export function seatsOf(rules: Pick<Rules, 'players'>): Colour[] {
  return rules.players === 4 ? ['R', 'B', 'Y', 'G'] : rules.players === 3 ? ['R', 'B', 'Y'] : ['R', 'Y'];
}

// ---------------------------------------------------------------------------------------------
// Rules options

/** Largest accepted `no_progress_rounds`. */
export const MAX_NO_PROGRESS_ROUNDS = 10000;

/** Validate rule options (any subset of `Rules`), filling the defaults. Unknown keys are errors. */
export function parseRules(input: unknown): Result<Rules> {
  if (input === undefined || input === null) return { ok: true, value: { ...DEFAULT_RULES } };
  if (typeof input !== 'object' || Array.isArray(input)) return err('bad_rules', 'rule options must be an object');
  const out: Rules = { ...DEFAULT_RULES };
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (key === 'no_progress_rounds') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_NO_PROGRESS_ROUNDS)
        return err('bad_rules', `no_progress_rounds must be an integer from 0 to ${MAX_NO_PROGRESS_ROUNDS}`);
      out.no_progress_rounds = value;
      continue;
    }
    // Own properties only: `constructor`, `__proto__` or `toString` must not reach Object.prototype.
    const allowed: readonly unknown[] | undefined = Object.hasOwn(RULE_VALUES, key) ? RULE_VALUES[key as keyof typeof RULE_VALUES] : undefined;
    if (!allowed) return err('bad_rules', `unknown rule option ${JSON.stringify(key).slice(0, 40)}`);
    if (!allowed.includes(value)) return err('bad_rules', `${key} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
    (out as unknown as Record<string, unknown>)[key] = value;
  }
  return { ok: true, value: out };
}

function err<T>(code: string, message: string): Result<T> {
  return { ok: false, error: { code, message } };
}

// ---------------------------------------------------------------------------------------------
// Setup

/** A piece as given to `setupPosition` (unchecked: `square` is any text until the setup is checked). */
export interface PieceSetup {
  colour: Colour;
  kind: Kind;
  square: string;
  alive: boolean;
}

/** Everything needed to build a position (the conformance case format, camelCased). */
export interface PositionSetup {
  pieces: readonly PieceSetup[];
  /** Armies not listed are controlled by their own colour. */
  control?: Partial<ByColour<Controller>>;
  /** Active players (N-1); defaults to the seats of the rules. */
  active?: readonly Colour[];
  toMove: Colour;
  turnKind?: TurnKind;
  cursor?: Colour;
  quiet?: number;
  ply?: number;
}

/** Why a setup was refused. */
export type SetupError = EngineError<'bad_setup'>;

/**
 * Build a position on a board (the square one by default) from a description; checks the
 * description, not that it is reachable.
 */
export function setupPosition(setup: PositionSetup, rules: Rules, geometry: GeometryName = 'square'): Result<Position, SetupError> {
  const bad = (message: string): Result<Position, SetupError> => ({ ok: false, error: { code: 'bad_setup', message } });
  if (!isGeometryName(geometry)) return bad('unknown board');
  const g = GEOMETRIES[geometry];
  if (!setup || !Array.isArray(setup.pieces)) return bad('pieces must be a list');
  if (setup.pieces.length > g.cells) return bad('too many pieces');
  const n = setup.pieces.length;
  // Packed (not holey) arrays: `new Array(n).fill()` would leave them holey, and slower to read.
  const board: number[] = Array.from({ length: g.cells }, () => -1);
  const army = new Uint8Array(n);
  const kind = new Uint8Array(n);
  const sq: number[] = Array.from({ length: n }, () => 0);
  const alive: number[] = Array.from({ length: n }, () => 0);
  for (let i = 0; i < n; i++) {
    const p = setup.pieces[i];
    const a = COLOURS.indexOf(p?.colour);
    const k = KINDS.indexOf(p?.kind);
    const s = cellIndex(g, p?.square);
    if (a < 0 || k < 0 || s < 0 || typeof p.alive !== 'boolean') return bad(`bad piece #${i}`);
    if (board[s] >= 0) return bad(`two pieces on ${p.square}`);
    if (s === g.maze && !(k === CHIEF)) return bad('only a chief may stand on the maze');
    board[s] = i;
    army[i] = a;
    kind[i] = k;
    sq[i] = s;
    alive[i] = p.alive ? 1 : 0;
  }
  const seats = seatsOf(rules);
  const active = setup.active ?? seats;
  let activeMask = 0;
  for (const c of active) {
    const i = COLOURS.indexOf(c);
    if (i < 0) return bad('bad active player');
    activeMask |= 1 << i;
  }
  const control: number[] = [ABSENT, ABSENT, ABSENT, ABSENT];
  for (let i = 0; i < n; i++) control[army[i]] = army[i];
  for (let a = 0; a < 4; a++) {
    if (control[a] === ABSENT) continue;
    const given = setup.control?.[COLOURS[a]];
    if (given === undefined) continue;
    const code = given === 'frozen' ? FROZEN : given === 'hostage' ? HOSTAGE : COLOURS.indexOf(given as Colour);
    if (code < 0) return bad(`bad controller for ${COLOURS[a]}`);
    control[a] = code;
  }
  const toMove = COLOURS.indexOf(setup.toMove);
  if (toMove < 0) return bad('bad player to move');
  const cursor = setup.cursor ?? setup.toMove;
  if (!COLOURS.includes(cursor)) return bad('bad cursor');
  const turnKind = setup.turnKind ?? 'normal';
  if (turnKind !== 'normal' && turnKind !== 'extra') return bad('bad turn kind');
  const quiet = setup.quiet ?? 0;
  const ply = setup.ply ?? 0;
  if (!Number.isInteger(quiet) || quiet < 0 || !Number.isInteger(ply) || ply < 0) return bad('bad counters');
  return {
    ok: true,
    value: {
      rules,
      geometry,
      board,
      army,
      kind,
      sq,
      alive,
      chiefs: [0, 1, 2, 3].map((c) => chiefOf({ army, kind }, c)),
      control,
      activeMask,
      toMove: activeMask === 0 ? null : setup.toMove,
      turnKind,
      cursor,
      ply,
      quiet,
      result: null,
      eliminations: [],
    },
  };
}

/**
 * The pieces of a board's start layout (R-2.3 on the square board), seat by seat, seat s playing
 * colour COLOURS[s]; null for a board with more seats than colours (the large hex board's six
 * armies come with its turn rules). A board that knows one layout only (the hex boards) plays it
 * whatever `layout` says.
 */
export function startPieces(geometry: GeometryName, layout: Rules['layout']): PieceSetup[] | null {
  const g = GEOMETRIES[geometry];
  if (g.seats > COLOURS.length) return null;
  const camps = g.layouts[layout] ?? g.layouts[g.defaultLayout] ?? [];
  return camps.flatMap((camp, seat) => camp.map(({ kind, cell }) => ({ colour: COLOURS[seat], kind, square: g.names[cell], alive: true })));
}

/** The starting position for these rules on the square board (R-2.3, §11, §12). */
export function initialPosition(rules: Rules = DEFAULT_RULES): Position {
  const pieces = startPieces('square', rules.layout) ?? [];
  const control: Partial<ByColour<Controller>> = rules.players === 3 ? { G: 'hostage' } : rules.players === 2 ? { B: 'R', G: 'Y' } : {};
  const res = setupPosition({ pieces, control, active: seatsOf(rules), toMove: 'R' }, rules);
  if (!res.ok) throw new Error(`broken initial setup: ${res.error.message}`);
  return res.value;
}

// ---------------------------------------------------------------------------------------------
// Accessors

/**
 * The name of a cell of the position's board. Typed as a square name: the engine's public types
 * name the square board's squares, and a hex position's cell names (`E5`) pass through them
 * until those types name cells (issue 39, with the client).
 */
export const cellName = (pos: Pick<Position, 'geometry'>, cell: number): SquareName => geometryOf(pos).names[cell] as SquareName;

/** Every piece on the board, by id. */
export function pieces(pos: Position): PieceInfo[] {
  const out: PieceInfo[] = [];
  for (let i = 0; i < pos.army.length; i++)
    out.push({ id: i, colour: COLOURS[pos.army[i]], kind: KINDS[pos.kind[i]], square: cellName(pos, pos.sq[i]), alive: pos.alive[i] === 1 });
  return out;
}

/** The piece on a square, or null (also for a malformed square). */
export function pieceAt(pos: Position, square: string): PieceInfo | null {
  const s = cellIndex(geometryOf(pos), square);
  if (s < 0) return null;
  const i = pos.board[s];
  if (i < 0) return null;
  // `square` named a cell of the board (cellIndex found it).
  return { id: i, colour: COLOURS[pos.army[i]], kind: KINDS[pos.kind[i]], square: square as SquareName, alive: pos.alive[i] === 1 };
}

/** Decode a controller code. */
export function makeController(code: number): Controller | null {
  return code === FROZEN ? 'frozen' : code === HOSTAGE ? 'hostage' : code >= 0 ? COLOURS[code] : null;
}

/** Who controls an army; null when the army has no piece on the board. */
export function controllerOf(pos: Position, armyColour: Colour): Controller | null {
  return makeController(pos.control[colourIndex(armyColour)]);
}

/** Active players in seat order (N-1), a new array. */
export function activePlayers(pos: Position): Colour[] {
  return PLAYERS_OF_MASK[pos.activeMask].slice();
}

/** The players of each active-player mask, in seat order (read on every turn by the server). */
const PLAYERS_OF_MASK: readonly (readonly Colour[])[] = Array.from({ length: 1 << COLOURS.length }, (_, mask) => COLOURS.filter((_, i) => (mask >> i) & 1));

/** True when the player is still in the game. */
export function isActive(pos: Position, colour: Colour): boolean {
  return ((pos.activeMask >> colourIndex(colour)) & 1) === 1;
}

/** Armies a player controls. */
export function armiesOf(pos: Position, player: Colour): Colour[] {
  const p = colourIndex(player);
  return COLOURS.filter((_, a) => pos.control[a] === p);
}

/** Colour index of the ruler (controller of a living chief on the maze, if active), or -1. */
export function rulerIndex(pos: Pick<Position, 'geometry' | 'board' | 'kind' | 'alive' | 'army' | 'control' | 'activeMask'>): number {
  const i = pos.board[geometryOf(pos).maze];
  if (i < 0 || pos.kind[i] !== CHIEF || !pos.alive[i]) return -1;
  const c = pos.control[pos.army[i]];
  return c >= 0 && c < 4 && (pos.activeMask >> c) & 1 ? c : -1;
}

/** The player in power, or null. */
export function ruler(pos: Position): Colour | null {
  const r = rulerIndex(pos);
  return r < 0 ? null : COLOURS[r];
}

/** Piece id of a player's own-colour chief (alive or dead), or -1. */
export function chiefOf(pos: Pick<Position, 'army' | 'kind'>, colour: number): number {
  for (let i = 0; i < pos.army.length; i++) if (pos.army[i] === colour && pos.kind[i] === CHIEF) return i;
  return -1;
}
