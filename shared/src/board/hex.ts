/**
 * The hexagonal boards of shared/variants/HEX.md: `hex3` (radius 4, 61 cells, 6 directions) and
 * the large board of `hex6` and `hex5` (radius 6, 127 cells, 12 directions, the fortress). Axial
 * coordinates (q, r), pointy-topped cells, r growing downwards (HEX.md §2).
 */
import type { Kind } from '../types.js';
import { type CellName, type GeometrySpec, HEX_COLUMNS, makeGeometry } from './geometry.js';

type Axial = readonly [number, number];

/** The six edge directions, counter-clockwise as drawn: E, NE, NW, W, SW, SE (HEX.md §2). */
export const HEX_EDGE_DIRECTIONS: readonly Axial[] = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
];
/** The six corner ("vertex") directions: N, ENE, ESE, S, WSW, WNW (HEX.md §2), each the sum of two neighbouring edge directions. */
export const HEX_VERTEX_DIRECTIONS: readonly Axial[] = [
  [1, -2],
  [2, -1],
  [1, 1],
  [-1, 2],
  [-2, 1],
  [-1, -1],
];

/** The name of cell (q, r) on the board of radius R: column letter q + R + 1 + ⌊r / 2⌋, row r + R + 1 (HEX.md §2). */
export function hexCellName(radius: number, q: number, r: number): CellName {
  return `${HEX_COLUMNS[q + radius + Math.floor(r / 2)]}${r + radius + 1}`;
}

const add = (a: Axial, b: Axial, k = 1): Axial => [a[0] + k * b[0], a[1] + k * b[1]];
const edge = (i: number): Axial => HEX_EDGE_DIRECTIONS[((i % 6) + 6) % 6];

/**
 * The camp in the corner reached from the centre along edge direction `corner` (HEX.md §2,
 * "corner camp pattern"): u points back to the centre, L and Rt run along the two board edges,
 * 60° counter-clockwise and clockwise of u as drawn. A reporter-left camp puts the reporter on
 * C + L and the assassin on C + Rt; a reporter-right camp the other way round. Piece order as
 * the square board's: chief, assassin, reporter, diplomat, necromobile, then the militants on
 * the assassin's side and the reporter's side.
 */
function corner(radius: number, cornerDir: number, reporterLeft: boolean): [Kind, number, number][] {
  const c: Axial = [edge(cornerDir)[0] * radius, edge(cornerDir)[1] * radius];
  const u = edge(cornerDir + 3);
  const left = edge(cornerDir + 4);
  const right = edge(cornerDir + 2);
  const rep = reporterLeft ? left : right;
  const asn = reporterLeft ? right : left;
  const cu = add(c, u);
  const cells: [Kind, Axial][] = [
    ['chief', c],
    ['assassin', add(c, asn)],
    ['reporter', add(c, rep)],
    ['diplomat', cu],
    ['necromobile', add(c, u, 2)],
    ['militant', add(c, asn, 2)],
    ['militant', add(cu, asn)],
    ['militant', add(c, rep, 2)],
    ['militant', add(cu, rep)],
  ];
  return cells.map(([k, [q, r]]) => [k, q, r]);
}

/** Corner indices (edge directions from the centre): W 3, SW 4, SE 5, E 0, NE 1, NW 2. */
const W = 3;
const SW = 4;
const SE = 5;
const E = 0;
const NE = 1;
const NW = 2;

function hexSpec(
  name: 'hex3' | 'hex6',
  radius: number,
  directions: readonly Axial[],
  camps: readonly [number, boolean][],
  fortress: readonly Axial[],
  layout: 'mirror' | 'chhobu_rotational',
): GeometrySpec {
  const rows: Axial[][] = [];
  for (let r = -radius; r <= radius; r++) {
    const row: Axial[] = [];
    for (let q = -radius; q <= radius; q++) if (Math.abs(q + r) <= radius) row.push([q, r]);
    rows.push(row);
  }
  const coords = rows.flat();
  return {
    name,
    coords,
    names: coords.map(([q, r]) => hexCellName(radius, q, r)),
    directions,
    edgeDirections: 6,
    maze: [0, 0],
    fortress,
    layouts: { [layout]: camps.map(([dir, left]) => corner(radius, dir, left)) },
    defaultLayout: layout,
    rows,
    rowLabels: rows.map((_, k) => String(k + 1)),
    nameHint: `the names of the ${coords.length} cells, ${hexCellName(radius, 0, -radius)}..${hexCellName(radius, 0, radius)}`,
  };
}

/**
 * The small hex board (HEX.md §3): 61 cells, the 6 edge directions only, the maze E5, three
 * reporter-left camps in alternate corners, seats Red W (A5), Blue SE (G9), Yellow NE (G1),
 * chhobu's rotational layout (§3.2).
 */
export const HEX3 = makeGeometry(
  hexSpec(
    'hex3',
    4,
    HEX_EDGE_DIRECTIONS,
    [
      [W, true],
      [SE, true],
      [NE, true],
    ],
    [],
    'chhobu_rotational',
  ),
);

/**
 * The large hex board of `hex6` and `hex5` (HEX.md §4): 127 cells, 12 directions (6 edge, then
 * 6 corner), the maze G7, the fortress of the six cells around it, six camps counter-clockwise
 * from the W corner, reporter-left and reporter-right in turn (§4.2, mirror images).
 */
export const HEX6 = makeGeometry(
  hexSpec(
    'hex6',
    6,
    [...HEX_EDGE_DIRECTIONS, ...HEX_VERTEX_DIRECTIONS],
    [
      [W, true],
      [SW, false],
      [SE, true],
      [E, false],
      [NE, true],
      [NW, false],
    ],
    HEX_EDGE_DIRECTIONS,
    'mirror',
  ),
);
