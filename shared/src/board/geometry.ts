/**
 * A board as data (issue 39): its cells and their names, the lines a piece slides along, the
 * neighbours, the maze, the fortress and the camps. The rules read a position's board from
 * here and from nowhere else, so the square board and the hexagonal ones share one move
 * generator, one turn procedure and one notation. Built once per board at load time; plain data
 * (typed arrays, arrays, one Map), never changed.
 */
import type { Kind, Rules, SquareName } from '../types.js';

/** The boards: the 9×9 square board, the small hex board (61 cells) and the large one (127 cells, `hex6` and `hex5`). */
export const GEOMETRY_NAMES = ['square', 'hex3', 'hex6'] as const;
/** The name of a board; a position carries it (`Position.geometry`). */
export type GeometryName = (typeof GEOMETRY_NAMES)[number];

/** Column letters of the hex boards (HEX.md §2): `A`..`M`. */
export const HEX_COLUMNS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M'] as const;
/** A hex cell name (HEX.md §2): column letter, then row number from 1, e.g. `E5`, `D13`. */
export type HexCellName = `${(typeof HEX_COLUMNS)[number]}${number}`;
/** A cell name on any board: a square `a1`..`i9` or a hex cell such as `E5` or `D13`. */
export type CellName = SquareName | HexCellName;

/** A start layout's name (the `layout` room option). */
export type Layout = Rules['layout'];

/** One piece of a camp: its kind and its cell. */
export interface CampPiece {
  readonly kind: Kind;
  readonly cell: number;
}
/** A seat's nine pieces, in the order their ids are given (chief, assassin, reporter, diplomat, necromobile, four militants). */
export type Camp = readonly CampPiece[];

/** Marks "no cell" in the geometry's tables. */
export const NO_CELL = -1;

/** A board (see the module comment). Cells are the indices 0..cells-1. */
export interface Geometry {
  readonly name: GeometryName;
  /** Number of cells. */
  readonly cells: number;
  /** Name of each cell. */
  readonly names: readonly CellName[];
  /** Cell of each name; any value may be looked up (a Map: `toString` is no name). */
  readonly byName: ReadonlyMap<unknown, number>;
  /** Coordinates of each cell in the board's own frame: the square board (file 0..8, rank 1..9), the hex boards axial (q, r). */
  readonly coords: readonly (readonly [number, number])[];
  /** Step of each direction in that frame. Directions [0, edgeDirections) cross a cell side; the others pass through a corner. */
  readonly directions: readonly (readonly [number, number])[];
  /** Number of edge (side-crossing) directions: 4 on the square board (its diagonals are corner lines), 6 on the hex boards. */
  readonly edgeDirections: number;
  /** `rays[cell][d]`: the cells a piece on `cell` slides along in direction d, nearest first (empty at the edge). */
  readonly rays: readonly (readonly Uint8Array[])[];
  /**
   * `flanks[cell][d]`: for a corner direction d, the two cells beside the step from `cell`, the
   * side-sharing neighbours of both ends (HEX.md §2; the square board's two orthogonal neighbours
   * of a diagonal step); empty for an edge direction or a step off the board.
   */
  readonly flanks: readonly (readonly Uint8Array[])[];
  /** Cells one step away in any direction (the square board's king steps). */
  readonly neighbours: readonly Uint8Array[];
  /** Cells sharing a side (the square board's orthogonal neighbours; all six on the hex boards). */
  readonly sides: readonly Uint8Array[];
  /** `line[from * cells + to]`: the direction whose ray from `from` holds `to`, or -1. */
  readonly line: Int8Array;
  /** The maze (the centre). */
  readonly maze: number;
  /** The fortress cells (HEX.md §4.1), in cell order; none on the square board and the small hex board. */
  readonly fortress: Uint8Array;
  /** 1 on a fortress cell, 0 elsewhere, by cell. */
  readonly inFortress: Uint8Array;
  /** Number of seats, one camp each, in turn order. */
  readonly seats: number;
  /** Camps by seat for each layout the board knows. */
  readonly layouts: Readonly<Partial<Record<Layout, readonly Camp[]>>>;
  /** The layout played when the board does not know the one asked for. */
  readonly defaultLayout: Layout;
  /** Cells of each row as the position text writes them: rows in order, each from left to right. */
  readonly rows: readonly Uint8Array[];
  /** How each row is named in messages (the square board's ranks, the hex boards' row numbers). */
  readonly rowLabels: readonly string[];
  /** The cell names in a few words, for error messages (`a1..i9`). */
  readonly nameHint: string;
}

/** What `makeGeometry` builds a board from. */
export interface GeometrySpec {
  readonly name: GeometryName;
  /** Coordinates of each cell, in cell order. */
  readonly coords: readonly (readonly [number, number])[];
  readonly names: readonly CellName[];
  readonly directions: readonly (readonly [number, number])[];
  readonly edgeDirections: number;
  readonly maze: readonly [number, number];
  readonly fortress: readonly (readonly [number, number])[];
  /** Each layout's camps by seat: pieces as [kind, x, y]. */
  readonly layouts: Readonly<Partial<Record<Layout, readonly (readonly (readonly [Kind, number, number])[])[]>>>;
  readonly defaultLayout: Layout;
  /** Rows in position-text order, each a list of coordinates from left to right. */
  readonly rows: readonly (readonly (readonly [number, number])[])[];
  readonly rowLabels: readonly string[];
  readonly nameHint: string;
}

/** Coordinates the builder's grid holds: -32..31 on each axis. */
const GRID = 64;
const EMPTY = new Uint8Array(0);

/**
 * Build a board from its spec. Throws on a broken spec (a bug, at load time). Runs once per board
 * as the module loads (in the browser too), so it is written with plain loops, and the rays and
 * flanks are views on one buffer each rather than thousands of small arrays.
 */
export function makeGeometry(spec: GeometrySpec): Geometry {
  const cells = spec.coords.length;
  if (cells > 255) throw new Error(`${spec.name}: ${cells} cells do not fit the geometry's byte tables`);
  const grid = new Int16Array(GRID * GRID).fill(NO_CELL);
  for (let c = 0; c < cells; c++) {
    const [x, y] = spec.coords[c];
    if (Math.abs(x) >= GRID / 2 || Math.abs(y) >= GRID / 2) throw new Error(`${spec.name}: (${x}, ${y}) is off the builder's grid`);
    grid[(x + GRID / 2) * GRID + y + GRID / 2] = c;
  }
  const at = (x: number, y: number): number =>
    x >= -GRID / 2 && x < GRID / 2 && y >= -GRID / 2 && y < GRID / 2 ? grid[(x + GRID / 2) * GRID + y + GRID / 2] : NO_CELL;
  const cellOf = ([x, y]: readonly [number, number]): number => {
    const c = at(x, y);
    if (c < 0) throw new Error(`${spec.name}: (${x}, ${y}) is not a cell`);
    return c;
  };
  const dirs = spec.directions;
  const nd = dirs.length;
  const edges = spec.edgeDirections;
  // The two edge directions whose sum is each corner direction (its flanking steps).
  const flankDirs: number[] = [];
  for (let d = edges; d < nd; d++) {
    let found = false;
    for (let a = 0; a < edges && !found; a++)
      for (let b = a + 1; b < edges && !found; b++)
        if (dirs[a][0] + dirs[b][0] === dirs[d][0] && dirs[a][1] + dirs[b][1] === dirs[d][1]) {
          flankDirs.push(a, b);
          found = true;
        }
    if (!found) throw new Error(`${spec.name}: direction ${d} is no sum of two edge directions`);
  }
  // Every ray, cell by cell and direction by direction, in one buffer; then a view on each.
  const rayCells: number[] = [];
  const rayEnds: number[] = [];
  for (let c = 0; c < cells; c++) {
    const [x, y] = spec.coords[c];
    for (let d = 0; d < nd; d++) {
      const [dx, dy] = dirs[d];
      for (let k = 1, t = at(x + dx, y + dy); t >= 0; k++, t = at(x + k * dx, y + k * dy)) rayCells.push(t);
      rayEnds.push(rayCells.length);
    }
  }
  const rayBuffer = Uint8Array.from(rayCells);
  const line = new Int8Array(cells * cells).fill(-1);
  const rays: Uint8Array[][] = [];
  const neighbours: Uint8Array[] = [];
  const sides: Uint8Array[] = [];
  const flanks: Uint8Array[][] = [];
  const flankBuffer = new Uint8Array(2 * cells * (nd - edges));
  for (let c = 0, i = 0; c < cells; c++) {
    const [x, y] = spec.coords[c];
    const own: Uint8Array[] = [];
    const near: number[] = [];
    const beside: Uint8Array[] = [];
    for (let d = 0; d < nd; d++, i++) {
      const from = i === 0 ? 0 : rayEnds[i - 1];
      const ray = rayBuffer.subarray(from, rayEnds[i]);
      own.push(ray);
      for (let k = 0; k < ray.length; k++) line[c * cells + ray[k]] = d;
      if (ray.length > 0) near.push(ray[0]);
      if (d === edges - 1) sides.push(Uint8Array.from(near));
      let pair = EMPTY;
      if (d >= edges && ray.length > 0) {
        const e = 2 * (d - edges);
        const a = at(x + dirs[flankDirs[e]][0], y + dirs[flankDirs[e]][1]);
        const b = at(x + dirs[flankDirs[e + 1]][0], y + dirs[flankDirs[e + 1]][1]);
        if (a >= 0 && b >= 0) {
          const o = 2 * (c * (nd - edges) + d - edges);
          flankBuffer[o] = a;
          flankBuffer[o + 1] = b;
          pair = flankBuffer.subarray(o, o + 2);
        }
      }
      beside.push(pair);
    }
    rays.push(own);
    neighbours.push(Uint8Array.from(near));
    flanks.push(beside);
  }
  const layouts: Partial<Record<Layout, Camp[]>> = {};
  let seats = -1;
  for (const [layout, camps] of Object.entries(spec.layouts) as [Layout, readonly (readonly (readonly [Kind, number, number])[])[]][]) {
    if (seats >= 0 && camps.length !== seats) throw new Error(`${spec.name}: layouts with different seat counts`);
    seats = camps.length;
    layouts[layout] = camps.map((camp) => camp.map(([kind, x, y]) => ({ kind, cell: cellOf([x, y]) })));
  }
  if (!layouts[spec.defaultLayout]) throw new Error(`${spec.name}: no default layout`);
  const fortress = Uint8Array.from(spec.fortress.map(cellOf)).sort();
  const inFortress = new Uint8Array(cells);
  for (const c of fortress) inFortress[c] = 1;
  const names = spec.names;
  const byName = new Map<unknown, number>();
  for (let c = 0; c < names.length; c++) byName.set(names[c], c);
  if (names.length !== cells || byName.size !== cells) throw new Error(`${spec.name}: cell names are not one per cell`);
  return {
    name: spec.name,
    cells,
    names,
    byName,
    coords: spec.coords,
    directions: dirs,
    edgeDirections: edges,
    rays,
    flanks,
    neighbours,
    sides,
    line,
    maze: cellOf(spec.maze),
    fortress,
    inFortress,
    seats,
    layouts,
    defaultLayout: spec.defaultLayout,
    rows: spec.rows.map((row) => Uint8Array.from(row.map(cellOf))),
    rowLabels: spec.rowLabels,
    nameHint: spec.nameHint,
  };
}

/** The cell at coordinates (x, y) of the board's frame, or -1. */
export function cellAt(g: Geometry, x: number, y: number): number {
  for (let c = 0; c < g.cells; c++) if (g.coords[c][0] === x && g.coords[c][1] === y) return c;
  return NO_CELL;
}

/** The cell an untrusted value of any type names on this board, or -1. */
export const cellIndex = (g: Geometry, value: unknown): number => g.byName.get(value) ?? NO_CELL;
