import { BOARD_GAMES, type BoardOption, boardOf, GEOMETRIES, geometryOf, geometryOfRules } from './board/boards.js';
import { cellIndex, type GeometryName } from './board/geometry.js';
import {
  ALL_COLOURS,
  BOARD_RULE_VALUES,
  BOARDS,
  DEFAULT_HOSTAGE_SEAT,
  DEFAULT_RULES,
  DEFAULT_VERTEX_STEP,
  KINDS,
  RULE_VALUES,
  type AnyColour,
  type Board,
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

/** Controller codes in `Position.control`: 0..5 a colour index (`ALL_COLOURS`), or one of these. */
export const FROZEN = 6;
export const HOSTAGE = 7;
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
  /** Piece id of each colour's chief, or -1 (fixed for the game), by colour index (`ALL_COLOURS`). */
  readonly chiefs: readonly number[];
  /** Controller code of each army (colour index, FROZEN, HOSTAGE or ABSENT), by colour index (`ALL_COLOURS`). */
  readonly control: number[];
  /** Bitmask of active players (bit i = ALL_COLOURS[i]). */
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

/** Colour index of a colour (its place in `ALL_COLOURS`). */
export const colourIndex = (c: AnyColour): number => ALL_COLOURS.indexOf(c);

/**
 * The colour letter of each colour index, typed as the engine's outputs are: `Colour`, which on
 * the large hex board also carries P and W (see `Colour`).
 */
export const COLOUR_LETTERS = ALL_COLOURS as readonly string[] as readonly Colour[];

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

/**
 * Seats that take turns under these rules (N-1), in seat order: on the square board by the player
 * count; on a hex board every camp's colour (HEX.md §3.2, §4.2, counter-clockwise from the W
 * corner) but `hex5`'s hostage seat (SX-13).
 */
export function seatsOf(rules: Pick<Rules, 'players' | 'board' | 'hostage_seat'>): Colour[] {
  const board = boardOf(rules);
  if (board === 'square') return rules.players === 4 ? ['R', 'B', 'Y', 'G'] : rules.players === 3 ? ['R', 'B', 'Y'] : ['R', 'Y'];
  const hostage = hostageSeatOf(rules);
  return COLOUR_LETTERS.slice(0, geometryOfRules(rules).seats).filter((_, seat) => seat !== hostage);
}

/** The colour index of the hostage army (R-11 with 3 players on the square board, SX-13 in `hex5`), or -1. */
function hostageSeatOf(rules: Pick<Rules, 'players' | 'board' | 'hostage_seat'>): number {
  const board = boardOf(rules);
  if (board === 'square') return rules.players === 3 ? 3 : -1;
  return BOARD_GAMES[board].options.includes('hostage_seat') ? (rules.hostage_seat ?? DEFAULT_HOSTAGE_SEAT) - 1 : -1;
}

// ---------------------------------------------------------------------------------------------
// Rules options

/** Largest accepted `no_progress_rounds`. */
export const MAX_NO_PROGRESS_ROUNDS = 10000;

/**
 * Validate rule options (any subset of `Rules`), filling the defaults. Unknown keys are errors.
 * The board decides the rest (HEX.md): a hex board fixes `players` (3, 5 or 6) and `layout` (its
 * one start layout: chhobu's rotational on `hex3` §3.2, the alternating mirror on the large board
 * §4.2), filled in when absent and refused when they differ; an option of another board
 * (`vertex_step` off the large board, `hostage_seat` outside `hex5`) is refused at any value. A
 * square game's rules carry no hex option, even when `board: "square"` was given.
 */
export function parseRules(input: unknown): Result<Rules> {
  if (input === undefined || input === null) return { ok: true, value: { ...DEFAULT_RULES } };
  if (typeof input !== 'object' || Array.isArray(input)) return err('bad_rules', 'rule options must be an object');
  const out: Rules = { ...DEFAULT_RULES };
  const given = new Set<string>();
  let board: Board = 'square';
  const boardOptions: Partial<Record<BoardOption, unknown>> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (key === 'no_progress_rounds') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_NO_PROGRESS_ROUNDS)
        return err('bad_rules', `no_progress_rounds must be an integer from 0 to ${MAX_NO_PROGRESS_ROUNDS}`);
      out.no_progress_rounds = value;
      continue;
    }
    // Own properties only: `constructor`, `__proto__` or `toString` must not reach Object.prototype.
    const allowed: readonly unknown[] | undefined =
      key === 'players'
        ? PLAYER_COUNTS
        : Object.hasOwn(RULE_VALUES, key)
          ? RULE_VALUES[key as keyof typeof RULE_VALUES]
          : Object.hasOwn(BOARD_RULE_VALUES, key)
            ? BOARD_RULE_VALUES[key as keyof typeof BOARD_RULE_VALUES]
            : undefined;
    if (!allowed) return err('bad_rules', `unknown rule option ${JSON.stringify(key).slice(0, 40)}`);
    if (!allowed.includes(value)) return err('bad_rules', `${key} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
    given.add(key);
    if (key === 'board') board = value as Board;
    else if (key === 'vertex_step' || key === 'hostage_seat') boardOptions[key] = value;
    else (out as unknown as Record<string, unknown>)[key] = value;
  }
  const game = BOARD_GAMES[board];
  const g = GEOMETRIES[game.geometry];
  if (!given.has('players')) out.players = game.players[0];
  else if (!game.players.includes(out.players)) return err('bad_rules', `players must be ${alternatives([...game.players].sort())} on board ${board}`);
  if (!given.has('layout')) out.layout = g.defaultLayout;
  else if (!g.layouts[out.layout]) return err('bad_rules', `layout must be ${alternatives(Object.keys(g.layouts))} on board ${board}`);
  for (const key of Object.keys(boardOptions) as BoardOption[])
    if (!game.options.includes(key)) return err('bad_rules', `${key} is not an option of board ${board}`);
  if (board === 'square') return { ok: true, value: out };
  out.board = board;
  if (game.options.includes('vertex_step')) out.vertex_step = (boardOptions.vertex_step as Rules['vertex_step']) ?? DEFAULT_VERTEX_STEP;
  if (game.options.includes('hostage_seat')) out.hostage_seat = (boardOptions.hostage_seat as Rules['hostage_seat']) ?? DEFAULT_HOSTAGE_SEAT;
  return { ok: true, value: out };
}

/** `a`, `a or b`, `a, b or c`. */
const alternatives = (xs: readonly unknown[]): string => (xs.length < 2 ? String(xs[0]) : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);

/** Every player count of any board (`BOARD_GAMES` says which board plays which). */
const PLAYER_COUNTS: readonly unknown[] = [...new Set(BOARDS.flatMap((b) => BOARD_GAMES[b].players))].sort();

function err<T>(code: string, message: string): Result<T> {
  return { ok: false, error: { code, message } };
}

// ---------------------------------------------------------------------------------------------
// Setup

/** A piece as given to `setupPosition` (unchecked: `square` is any text until the setup is checked). */
export interface PieceSetup {
  colour: AnyColour;
  kind: Kind;
  square: string;
  alive: boolean;
}

/** Everything needed to build a position (the conformance case format, camelCased). */
export interface PositionSetup {
  pieces: readonly PieceSetup[];
  /** Armies not listed are controlled by their own colour. */
  control?: Partial<Record<AnyColour, AnyColour | 'frozen' | 'hostage'>>;
  /** Active players (N-1); defaults to the seats of the rules. */
  active?: readonly AnyColour[];
  toMove: AnyColour;
  turnKind?: TurnKind;
  cursor?: AnyColour;
  quiet?: number;
  ply?: number;
}

/** Why a setup was refused. */
export type SetupError = EngineError<'bad_setup'>;

/**
 * Build a position on the board of the rules (`rules.board`, the square one by default) from a
 * description; checks the description, not that it is reachable. Only the board's armies (its
 * seats' colours, `ALL_COLOURS` in seat order) may stand on it or play.
 */
export function setupPosition(setup: PositionSetup, rules: Rules): Result<Position, SetupError> {
  const bad = (message: string): Result<Position, SetupError> => ({ ok: false, error: { code: 'bad_setup', message } });
  const board = boardOf(rules);
  if (!Object.hasOwn(BOARD_GAMES, board)) return bad('unknown board');
  const geometry = BOARD_GAMES[board].geometry;
  const g = GEOMETRIES[geometry];
  if (!setup || !Array.isArray(setup.pieces)) return bad('pieces must be a list');
  if (setup.pieces.length > g.cells) return bad('too many pieces');
  const armies = g.seats;
  /** Index of a colour the board seats, or -1. */
  const seatOf = (c: unknown): number => {
    const i = ALL_COLOURS.indexOf(c as AnyColour);
    return i < armies ? i : -1;
  };
  const n = setup.pieces.length;
  // Packed (not holey) arrays: `new Array(n).fill()` would leave them holey, and slower to read.
  const cells: number[] = Array.from({ length: g.cells }, () => -1);
  const army = new Uint8Array(n);
  const kind = new Uint8Array(n);
  const sq: number[] = Array.from({ length: n }, () => 0);
  const alive: number[] = Array.from({ length: n }, () => 0);
  for (let i = 0; i < n; i++) {
    const p = setup.pieces[i];
    const a = seatOf(p?.colour);
    const k = KINDS.indexOf(p?.kind);
    const s = cellIndex(g, p?.square);
    if (a < 0 || k < 0 || s < 0 || typeof p.alive !== 'boolean') return bad(`bad piece #${i}`);
    if (cells[s] >= 0) return bad(`two pieces on ${p.square}`);
    if (s === g.maze && !(k === CHIEF)) return bad('only a chief may stand on the maze');
    cells[s] = i;
    army[i] = a;
    kind[i] = k;
    sq[i] = s;
    alive[i] = p.alive ? 1 : 0;
  }
  const active = setup.active ?? seatsOf(rules);
  let activeMask = 0;
  for (const c of active) {
    const i = seatOf(c);
    if (i < 0) return bad('bad active player');
    activeMask |= 1 << i;
  }
  const control: number[] = ALL_COLOURS.map(() => ABSENT);
  for (let i = 0; i < n; i++) control[army[i]] = army[i];
  for (let a = 0; a < armies; a++) {
    if (control[a] === ABSENT) continue;
    const given = setup.control?.[ALL_COLOURS[a]];
    if (given === undefined) continue;
    const code = given === 'frozen' ? FROZEN : given === 'hostage' ? HOSTAGE : seatOf(given);
    if (code < 0) return bad(`bad controller for ${ALL_COLOURS[a]}`);
    control[a] = code;
  }
  const toMove = seatOf(setup.toMove);
  if (toMove < 0) return bad('bad player to move');
  const cursor = setup.cursor ?? setup.toMove;
  if (seatOf(cursor) < 0) return bad('bad cursor');
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
      board: cells,
      army,
      kind,
      sq,
      alive,
      chiefs: ALL_COLOURS.map((_, c) => chiefOf({ army, kind }, c)),
      control,
      activeMask,
      toMove: activeMask === 0 ? null : COLOUR_LETTERS[toMove],
      turnKind,
      cursor: COLOUR_LETTERS[seatOf(cursor)],
      ply,
      quiet,
      result: null,
      eliminations: [],
    },
  };
}

/**
 * The pieces of a board's start layout (R-2.3 on the square board, HEX.md §3.2 and §4.2), seat by
 * seat, seat s playing colour `ALL_COLOURS[s]`. A board that knows one layout only (the hex
 * boards) plays it whatever `layout` says.
 */
export function startPieces(geometry: GeometryName, layout: Rules['layout']): PieceSetup[] {
  const g = GEOMETRIES[geometry];
  const camps = g.layouts[layout] ?? g.layouts[g.defaultLayout] ?? [];
  return camps.flatMap((camp, seat) => camp.map(({ kind, cell }) => ({ colour: ALL_COLOURS[seat], kind, square: g.names[cell], alive: true })));
}

/**
 * The starting position for these rules (R-2.3, §11, §12; HEX.md §3.2, §4.2, SX-13): every camp of
 * the board, the hostage army (3 players on the square board, `hex5`) and the 2-player pairs, the
 * first seat to move.
 */
export function initialPosition(rules: Rules = DEFAULT_RULES): Position {
  const board = BOARD_GAMES[boardOf(rules)];
  const pieces = startPieces(board.geometry, rules.layout);
  const control: PositionSetup['control'] = rules.players === 2 && board.geometry === 'square' ? { B: 'R', G: 'Y' } : {};
  const hostage = hostageSeatOf(rules);
  if (hostage >= 0) control[ALL_COLOURS[hostage]] = 'hostage';
  const active = seatsOf(rules);
  const res = setupPosition({ pieces, control, active, toMove: active[0] }, rules);
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
    out.push({ id: i, colour: COLOUR_LETTERS[pos.army[i]], kind: KINDS[pos.kind[i]], square: cellName(pos, pos.sq[i]), alive: pos.alive[i] === 1 });
  return out;
}

/** The piece on a square, or null (also for a malformed square). */
export function pieceAt(pos: Position, square: string): PieceInfo | null {
  const s = cellIndex(geometryOf(pos), square);
  if (s < 0) return null;
  const i = pos.board[s];
  if (i < 0) return null;
  // `square` named a cell of the board (cellIndex found it).
  return { id: i, colour: COLOUR_LETTERS[pos.army[i]], kind: KINDS[pos.kind[i]], square: square as SquareName, alive: pos.alive[i] === 1 };
}

/** Decode a controller code. */
export function makeController(code: number): Controller | null {
  return code === FROZEN ? 'frozen' : code === HOSTAGE ? 'hostage' : code >= 0 ? COLOUR_LETTERS[code] : null;
}

/** Who controls an army; null when the army has no piece on the board. */
export function controllerOf(pos: Position, armyColour: AnyColour): Controller | null {
  return makeController(pos.control[colourIndex(armyColour)]);
}

/** Active players in seat order (N-1), a new array. */
export function activePlayers(pos: Position): Colour[] {
  return PLAYERS_OF_MASK[pos.activeMask].slice();
}

/** The players of each active-player mask, in seat order (read on every turn by the server). */
const PLAYERS_OF_MASK: readonly (readonly Colour[])[] = Array.from({ length: 1 << ALL_COLOURS.length }, (_, mask) =>
  COLOUR_LETTERS.filter((_, i) => (mask >> i) & 1),
);

/** True when the player is still in the game. */
export function isActive(pos: Position, colour: AnyColour): boolean {
  return ((pos.activeMask >> colourIndex(colour)) & 1) === 1;
}

/** Armies a player controls. */
export function armiesOf(pos: Position, player: AnyColour): Colour[] {
  const p = colourIndex(player);
  return COLOUR_LETTERS.filter((_, a) => pos.control[a] === p);
}

/** Colour index of the ruler (controller of a living chief on the maze, if active), or -1. */
export function rulerIndex(pos: Pick<Position, 'geometry' | 'board' | 'kind' | 'alive' | 'army' | 'control' | 'activeMask'>): number {
  const i = pos.board[geometryOf(pos).maze];
  if (i < 0 || pos.kind[i] !== CHIEF || !pos.alive[i]) return -1;
  const c = pos.control[pos.army[i]];
  return c >= 0 && c < ALL_COLOURS.length && (pos.activeMask >> c) & 1 ? c : -1;
}

/** The player in power, or null. */
export function ruler(pos: Position): Colour | null {
  const r = rulerIndex(pos);
  return r < 0 ? null : COLOUR_LETTERS[r];
}

/** Piece id of a player's own-colour chief (alive or dead), or -1. */
export function chiefOf(pos: Pick<Position, 'army' | 'kind'>, colour: number): number {
  for (let i = 0; i < pos.army.length; i++) if (pos.army[i] === colour && pos.kind[i] === CHIEF) return i;
  return -1;
}
