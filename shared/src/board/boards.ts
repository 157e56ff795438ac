/** Every board by name, the board of a position, and the games each board plays. */
import type { Board, PlayerCount, Rules } from '../types.js';
import type { Geometry, GeometryName } from './geometry.js';
import { HEX3, HEX6 } from './hex.js';
import { SQUARE } from './square.js';

/** The boards by name. */
export const GEOMETRIES: Readonly<Record<GeometryName, Geometry>> = Object.freeze({ square: SQUARE, hex3: HEX3, hex6: HEX6 });

/** The board a position (or anything naming its board) is played on. */
export const geometryOf = (pos: { readonly geometry: GeometryName }): Geometry => GEOMETRIES[pos.geometry];

/** True for a board name. */
export const isGeometryName = (name: unknown): name is GeometryName => typeof name === 'string' && Object.hasOwn(GEOMETRIES, name);

/** The rule options that only some boards have (types.ts `BOARD_RULE_VALUES`, but `board` itself). */
export type BoardOption = 'vertex_step' | 'hostage_seat';

/** What a value of the `board` rule option plays: its board, its player counts, the options it has. */
export interface BoardGame {
  readonly geometry: GeometryName;
  /** Player counts, the default first (the square board's default is `DEFAULT_RULES.players`). */
  readonly players: readonly PlayerCount[];
  /** The board-only options this game has (HEX.md SX-4 on the large board, SX-13 in `hex5`). */
  readonly options: readonly BoardOption[];
}

/** The games of the `board` rule option (HEX.md §3, §4): `hex5` is `hex6`'s board with one hostage seat. */
export const BOARD_GAMES: Readonly<Record<Board, BoardGame>> = Object.freeze({
  square: { geometry: 'square', players: [4, 3, 2], options: [] },
  hex3: { geometry: 'hex3', players: [3], options: [] },
  hex5: { geometry: 'hex6', players: [5], options: ['vertex_step', 'hostage_seat'] },
  hex6: { geometry: 'hex6', players: [6], options: ['vertex_step'] },
});

/** The value of the `board` rule option (absent: the square board). */
export const boardOf = (rules: Pick<Rules, 'board'>): Board => rules.board ?? 'square';

/** The board a game under these rules is played on. */
export const geometryOfRules = (rules: Pick<Rules, 'board'>): Geometry => GEOMETRIES[BOARD_GAMES[boardOf(rules)].geometry];
