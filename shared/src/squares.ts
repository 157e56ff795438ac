/**
 * The square board's vocabulary for callers that know they are on it (the client's board, the
 * bots): names, files and ranks, and its tables, all read from the `SQUARE` geometry. The rules
 * read a position's own geometry instead (`board/`).
 */
import { SQUARE } from './board/square.js';
import type { Square, SquareName } from './types.js';

/** Board edge length. */
export const SIZE = 9;
/** Number of squares. */
export const NSQ = SQUARE.cells;

/** Square index from file (0..8) and rank (1..9). */
export const sqOf = (file: number, rank: number): Square => (rank - 1) * SIZE + file;
/** File 0..8 of a square index. */
export const fileOf = (sq: Square): number => sq % SIZE;
/** Rank 1..9 of a square index. */
export const rankOf = (sq: Square): number => ((sq / SIZE) | 0) + 1;

// The square board's names are square names (board/square.ts writes them from FILES and the rank).
const NAMES = SQUARE.names as readonly SquareName[];

/** Name of a square index (`makeSquare(0)` is `a1`, `makeSquare(80)` is `i9`). */
export const makeSquare = (sq: Square): SquareName => NAMES[sq];

/** Index of a square name, or undefined when the text is not a square `a1`..`i9` (chessops's `parseSquare`). */
export const parseSquare = (text: string): Square | undefined => SQUARE.byName.get(text);

/** The square at file 0..8 and rank 1..9, or undefined off the board. */
export function squareOf(file: number, rank: number): Square | undefined {
  if (!Number.isInteger(file) || !Number.isInteger(rank) || file < 0 || file >= SIZE || rank < 1 || rank > SIZE) return undefined;
  return sqOf(file, rank);
}

/** True for a square name `a1`..`i9`. */
export const isSquare = (text: unknown): text is SquareName => SQUARE.byName.has(text);

/** The 8 directions as [dfile, drank]; the first four are orthogonal. */
export const DIRECTIONS: readonly (readonly [number, number])[] = SQUARE.directions;

/** RAYS[sq][d] lists the squares from sq outwards in direction d, nearest first. */
export const RAYS: readonly (readonly Uint8Array[])[] = SQUARE.rays;

/** King-step neighbours of each square. */
export const NEIGHBOURS: readonly Uint8Array[] = SQUARE.neighbours;

/** Orthogonal neighbours of each square. */
export const ORTHO: readonly Uint8Array[] = SQUARE.sides;
