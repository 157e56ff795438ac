import { FILES, MAZE_SQ, type Square, type SquareName } from './types.js';

/** Board edge length. */
export const SIZE = 9;
/** Number of squares. */
export const NSQ = 81;

/** Square index from file (0..8) and rank (1..9). */
export const sqOf = (file: number, rank: number): Square => (rank - 1) * SIZE + file;
/** File 0..8 of a square index. */
export const fileOf = (sq: Square): number => sq % SIZE;
/** Rank 1..9 of a square index. */
export const rankOf = (sq: Square): number => ((sq / SIZE) | 0) + 1;

const NAMES: readonly SquareName[] = Array.from({ length: NSQ }, (_, sq) => `${FILES[fileOf(sq)]}${rankOf(sq)}` as SquareName);
const BY_NAME: ReadonlyMap<unknown, Square> = new Map(NAMES.map((n, sq) => [n, sq]));

/** Name of a square index (`makeSquare(0)` is `a1`, `makeSquare(80)` is `i9`). */
export const makeSquare = (sq: Square): SquareName => NAMES[sq];

/** Index of a square name, or undefined when the text is not a square `a1`..`i9` (chessops's `parseSquare`). */
export const parseSquare = (text: string): Square | undefined => BY_NAME.get(text);

/** Engine-internal fast path of `parseSquare` for untrusted values of any type: the index, or -1. */
export const squareIndex = (value: unknown): number => BY_NAME.get(value) ?? -1;

/** The square at file 0..8 and rank 1..9, or undefined off the board. */
export function squareOf(file: number, rank: number): Square | undefined {
  if (!Number.isInteger(file) || !Number.isInteger(rank) || file < 0 || file >= SIZE || rank < 1 || rank > SIZE) return undefined;
  return sqOf(file, rank);
}

/** True for a square name `a1`..`i9`. */
export const isSquare = (text: unknown): text is SquareName => BY_NAME.has(text);

/** The 8 directions as [dfile, drank]; the first four are orthogonal. */
export const DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];

/** RAYS[sq][d] lists the squares from sq outwards in direction d, nearest first. */
export const RAYS: readonly (readonly Int8Array[])[] = Array.from({ length: NSQ }, (_, sq) =>
  DIRECTIONS.map(([df, dr]) => {
    const out: number[] = [];
    let f = fileOf(sq) + df;
    let r = rankOf(sq) + dr;
    while (f >= 0 && f < SIZE && r >= 1 && r <= SIZE) {
      out.push(sqOf(f, r));
      f += df;
      r += dr;
    }
    return Int8Array.from(out);
  }),
);

/** King-step neighbours of each square. */
export const NEIGHBOURS: readonly Int8Array[] = RAYS.map((rays) => Int8Array.from(rays.filter((r) => r.length > 0).map((r) => r[0])));

/** Orthogonal neighbours of each square. */
export const ORTHO: readonly Int8Array[] = RAYS.map((rays) =>
  Int8Array.from(
    rays
      .slice(0, 4)
      .filter((r) => r.length > 0)
      .map((r) => r[0]),
  ),
);

/** True for every square but the maze. */
export const isField = (sq: Square): boolean => sq !== MAZE_SQ;
