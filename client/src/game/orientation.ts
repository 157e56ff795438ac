/**
 * Board orientation: which corner is at the bottom for a viewer. Pure geometry, no rules.
 *
 * Display cells are (col, row) with row 0 at the top. In Green's view (a1 bottom-left) the board
 * is drawn like a chessboard; the other views are rotations of it, so every viewer has its own
 * corner at the bottom left: Red a9, Blue i9, Yellow i1, Green a1.
 */
import { type Colour, fileOf, makeSquare, parseSquare, rankOf, type SquareName, squareOf } from '@djambi/shared';

/** A cell of the displayed 9×9 grid; row 0 is the top row. */
export interface Cell {
  readonly col: number;
  readonly row: number;
}

/** Counter-clockwise quarter turns from Green's view for each viewer. */
const QUARTER_TURNS: Record<Colour, number> = { G: 0, R: 1, B: 2, Y: 3, P: 0, W: 0 };

/** File index 0..8 and rank 1..9 of a square name, or null for any other text. */
export function fileRank(square: string): { file: number; rank: number } | null {
  const sq = parseSquare(square);
  return sq === undefined ? null : { file: fileOf(sq), rank: rankOf(sq) };
}

/** Where a square is drawn for a viewer (null for text that is no square). */
export function cellOf(square: string, view: Colour): Cell | null {
  const fr = fileRank(square);
  if (!fr) return null;
  let col = fr.file;
  let row = 9 - fr.rank;
  for (let i = 0; i < QUARTER_TURNS[view]; i++) [col, row] = [row, 8 - col];
  return { col, row };
}

/** The square drawn at a cell for a viewer, or null outside the grid. */
export function squareAt(cell: Cell, view: Colour): SquareName | null {
  let { col, row } = cell;
  if (!Number.isInteger(col) || !Number.isInteger(row) || col < 0 || col > 8 || row < 0 || row > 8) return null;
  // Undo the counter-clockwise turns with clockwise ones.
  for (let i = 0; i < QUARTER_TURNS[view]; i++) [col, row] = [8 - row, col];
  const sq = squareOf(col, 9 - row);
  return sq === undefined ? null : makeSquare(sq);
}

/** Labels along the bottom edge (left to right) and the left edge (top to bottom). */
export function edgeLabels(view: Colour): { bottom: string[]; left: string[] } {
  const bottom: string[] = [];
  const left: string[] = [];
  for (let i = 0; i < 9; i++) {
    const b = squareAt({ col: i, row: 8 }, view)!;
    const l = squareAt({ col: 0, row: i }, view)!;
    const bNext = squareAt({ col: i === 8 ? 7 : i + 1, row: 8 }, view)!;
    // Along an edge one coordinate varies: show that one.
    bottom.push(b[0] !== bNext[0] ? b[0] : b.slice(1));
    const lNext = squareAt({ col: 0, row: i === 8 ? 7 : i + 1 }, view)!;
    left.push(l[0] !== lNext[0] ? l[0] : l.slice(1));
  }
  return { bottom, left };
}
