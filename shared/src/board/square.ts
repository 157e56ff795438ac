/** The 9×9 square board (RULES.md §1, R-2.3) as a `Geometry`. */
import { FILES, type Kind, type SquareName } from '../types.js';
import { type Layout, makeGeometry } from './geometry.js';

const SIDE = 9;
/** Cell order: `(rank - 1) * 9 + file`, so a1 is 0, i1 is 8 and i9 is 80. */
const coords: [number, number][] = Array.from({ length: SIDE * SIDE }, (_, c) => [c % SIDE, ((c / SIDE) | 0) + 1]);

/** Red's 3×3 corner block as [kind, file, rank] in piece order (R-2.3, mirror layout). */
const RED_BLOCK: readonly (readonly [Kind, number, number])[] = [
  ['chief', 0, 9],
  ['assassin', 1, 9],
  ['reporter', 0, 8],
  ['diplomat', 1, 8],
  ['necromobile', 2, 7],
  ['militant', 2, 9],
  ['militant', 2, 8],
  ['militant', 0, 7],
  ['militant', 1, 7],
];

/** Seat s's block: Blue a reflection of Red's across the files, Yellow across both, Green across the ranks; chhobu's layout swaps Blue's and Green's assassin and reporter (D-1). */
function block(seat: number, layout: Layout): [Kind, number, number][] {
  const flipFile = seat === 1 || seat === 2;
  const flipRank = seat === 2 || seat === 3;
  const swap = layout === 'chhobu_rotational' && (seat === 1 || seat === 3);
  return RED_BLOCK.map(([k, f, r]) => [
    swap && k === 'assassin' ? 'reporter' : swap && k === 'reporter' ? 'assassin' : k,
    flipFile ? SIDE - 1 - f : f,
    flipRank ? SIDE + 1 - r : r,
  ]);
}

const seats = [0, 1, 2, 3];

/** The square board: 81 squares `a1`..`i9`, 8 directions (4 orthogonal, then 4 diagonal), the maze e5, four corner camps. */
export const SQUARE = makeGeometry({
  name: 'square',
  coords,
  names: coords.map(([f, r]) => `${FILES[f]}${r}` as SquareName),
  directions: [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ],
  edgeDirections: 4,
  maze: [4, 5],
  fortress: [],
  layouts: { mirror: seats.map((s) => block(s, 'mirror')), chhobu_rotational: seats.map((s) => block(s, 'chhobu_rotational')) },
  defaultLayout: 'mirror',
  // The position text writes rank 9 first.
  rows: Array.from({ length: SIDE }, (_, k) => Array.from({ length: SIDE }, (_, f): [number, number] => [f, SIDE - k])),
  rowLabels: Array.from({ length: SIDE }, (_, k) => String(SIDE - k)),
  nameHint: 'a1..i9',
});
