/**
 * Helpers of the hex games' tests (shared/variants/HEX.md): positions by cell name on a board of
 * the `board` rule option, seeded random rules, and one turn played with the invariants every
 * position keeps.
 */
import {
  type AnyColour,
  GEOMETRIES,
  type Geometry,
  hexCellName,
  legalDestinations,
  makeFen,
  makeTurn,
  type PieceSetup,
  type Position,
  parseFen,
  parseRules,
  pieces,
  playTurn,
  type Rules,
  ruler,
  setupPosition,
  type Turn,
  type TurnInput,
} from '@djambi/shared';

/** Rules from options, which must be valid. */
export function rulesOf(options: Record<string, unknown>): Rules {
  const r = parseRules(options);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A piece to set up. */
export const P = (colour: AnyColour, kind: PieceSetup['kind'], square: string, alive = true): PieceSetup => ({ colour, kind, square, alive });
/** A corpse (a yellow militant's: every board seats yellow). */
export const corpse = (square: string): PieceSetup => P('Y', 'militant', square, false);

/** A position on the rules' board; every colour with a living chief is active unless said otherwise. */
export function setUp(
  options: Record<string, unknown>,
  list: PieceSetup[],
  toMove: AnyColour,
  extra: { active?: AnyColour[]; control?: Record<string, string> } = {},
): Position {
  const rules = rulesOf(options);
  const active = extra.active ?? [...new Set(list.filter((p) => p.kind === 'chief' && p.alive).map((p) => p.colour))];
  const r = setupPosition({ pieces: list, toMove, active, control: extra.control as never }, rules);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

export const sorted = (xs: readonly string[]) => [...xs].sort();
/** The large board's cell at axial (q, r) (HEX.md §2). */
export const at6 = (q: number, r: number) => hexCellName(6, q, r);
/** Cell names of cell indices. */
export const namesOf = (g: Geometry, cells: ArrayLike<number>) => Array.from(cells, (c) => g.names[c]);

/** The destinations of the piece on `from`, as plain names (a hex cell name is no `SquareName`). */
export const destinationsOf = (pos: Position, from: string): string[] => legalDestinations(pos, from);
/** The pieces with their squares as plain names. */
export const squaresOf = (pos: Position) => pieces(pos).map((p) => ({ ...p, square: p.square as string }));
/** A turn's text; the engine types turns with square names, which hex cells pass through. */
export const textOf = (turn: TurnInput, pos?: Position): string => makeTurn(turn as Turn, pos);

/** Play a turn that must be legal. */
export function play(pos: Position, turn: TurnInput) {
  const r = playTurn(pos, turn);
  if (!r.ok) throw new Error(`${JSON.stringify(turn)}: ${r.error.message}`);
  return r.value;
}

/** A camp as HEX.md's tables list it: chief, assassin, reporter, diplomat, necromobile, militants (sorted). */
export function campOf(pos: Position, colour: string): string[] {
  const ps = pieces(pos).filter((p) => p.colour === colour);
  const of = (kind: string) => ps.filter((p) => p.kind === kind).map((p) => p.square);
  return [...of('chief'), ...of('assassin'), ...of('reporter'), ...of('diplomat'), ...of('necromobile'), ...sorted(of('militant'))];
}

/** A random element. */
export const pick = <T>(random: () => number, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

/** Random rule options for a hex board: every option of the square game that applies, and the board's own. */
export function randomRules(random: () => number, board: string): Rules {
  return rulesOf({
    board,
    reporter: pick(random, ['optional_single', 'mandatory_single', 'all_adjacent']),
    self_kill: random() < 0.3,
    maze_exit_order: pick(random, ['act_exit_place', 'act_place_exit']),
    encirclement: pick(random, ['group', 'literal_ring', 'throne_access']),
    ...(board === 'hex3' ? {} : { vertex_step: pick(random, ['free', 'both_flanks_block', 'either_flank_blocks']) }),
    ...(board === 'hex5' ? { hostage_seat: 1 + Math.floor(random() * 6) } : {}),
  });
}

/** A plain check (expect is slow in loops) that names the position. */
export function check(cond: boolean, what: string, pos: Position): void {
  if (!cond) throw new Error(`${what} in ${makeFen(pos)} (${JSON.stringify(pos.rules)})`);
}

/**
 * Play a legal turn and check the invariants of every position: `count` pieces, one per cell,
 * only a chief on the maze, the position text round-trips; and SX-9: a piece of a player other
 * than the ruler never ends a turn in the closed fortress.
 */
export function checkedTurn(pos: Position, turn: TurnInput, count: number): Position {
  const g = GEOMETRIES[pos.geometry];
  const r = playTurn(pos, turn);
  check(r.ok, `a legal turn is accepted: ${textOf(turn, pos)}`, pos);
  if (!r.ok) return pos;
  const after = r.value.position;
  const ps = squaresOf(after);
  check(ps.length === count && new Set(ps.map((p) => p.square)).size === count, 'one piece per cell, none lost', after);
  for (const p of ps) if (p.square === g.names[g.maze]) check(p.kind === 'chief', 'only a chief on the maze', after);
  const fen = makeFen(after);
  const back = parseFen(fen, after.rules);
  check(back.ok && makeFen(back.value) === fen, 'the position text round-trips', after);
  const keeper = ruler(pos);
  if (keeper && keeper !== pos.toMove && 'from' in turn) {
    const first = r.value.effects[0];
    const end = first.type === 'move' ? ps[first.piece].square : '';
    check(!(namesOf(g, g.fortress) as string[]).includes(end), `${textOf(turn, pos)} leaves a non-ruler's piece in the closed fortress`, pos);
  }
  return after;
}
