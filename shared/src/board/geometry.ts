/**
 * A board as data (issue 39): its cells and their names, the lines a piece slides along, the
 * neighbours, the maze, the fortress and the camps. The rules read a position's board from
 * here and from nowhere else, so the square board and the hexagonal ones share one move
 * generator, one turn procedure and one notation. Built once per board at load time; plain data
 * (typed arrays, arrays, one Map), never changed.
 */
import type { Kind, Rules, SquareName } from '../types.js';

/** The boards: the 9×9 square board. */
export const GEOMETRY_NAMES = ['square'] as const;
/** The name of a board; a position carries it (`Position.geometry`). */
export type GeometryName = (typeof GEOMETRY_NAMES)[number];

/** A cell name on any board. */
export type CellName = SquareName;

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
   * side-sharing neighbours of both ends (the square board's two orthogonal neighbours of a
   * diagonal step); empty for an edge direction or a step off the board.
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

/** Build a board from its spec. Throws on a broken spec (a bug, at load time). */
export function makeGeometry(spec: GeometrySpec): Geometry {
  const cells = spec.coords.length;
  if (cells > 255) throw new Error(`${spec.name}: ${cells} cells do not fit the geometry's byte tables`);
  const index = new Map<string, number>();
  spec.coords.forEach(([x, y], c) => index.set(`${x},${y}`, c));
  const at = (x: number, y: number): number => index.get(`${x},${y}`) ?? NO_CELL;
  const cellOf = ([x, y]: readonly [number, number]): number => {
    const c = at(x, y);
    if (c < 0) throw new Error(`${spec.name}: (${x}, ${y}) is not a cell`);
    return c;
  };
  const dirs = spec.directions;
  const edges = spec.edgeDirections;
  // The two edge directions whose sum is each corner direction (its flanking steps).
  const flankDirs = dirs.map(([dx, dy], d) => {
    if (d < edges) return null;
    for (let a = 0; a < edges; a++)
      for (let b = a + 1; b < edges; b++) if (dirs[a][0] + dirs[b][0] === dx && dirs[a][1] + dirs[b][1] === dy) return [a, b] as const;
    throw new Error(`${spec.name}: direction ${d} is no sum of two edge directions`);
  });
  const rays = spec.coords.map(([x, y]) =>
    dirs.map(([dx, dy]) => {
      const out: number[] = [];
      for (let c = at(x + dx, y + dy), k = 2; c >= 0; c = at(x + k * dx, y + k * dy), k++) out.push(c);
      return Uint8Array.from(out);
    }),
  );
  const flanks = spec.coords.map(([x, y]) =>
    dirs.map(([dx, dy], d) => {
      const pair = flankDirs[d];
      if (!pair || at(x + dx, y + dy) < 0) return new Uint8Array(0);
      const f = pair.map((e) => at(x + dirs[e][0], y + dirs[e][1]));
      return f.every((c) => c >= 0) ? Uint8Array.from(f) : new Uint8Array(0);
    }),
  );
  const firsts = (rs: readonly Uint8Array[]) => Uint8Array.from(rs.filter((r) => r.length > 0).map((r) => r[0]));
  const line = new Int8Array(cells * cells).fill(-1);
  rays.forEach((rs, from) => rs.forEach((r, d) => r.forEach((to) => (line[from * cells + to] = d))));
  const layouts: Partial<Record<Layout, Camp[]>> = {};
  let seats = -1;
  for (const [layout, camps] of Object.entries(spec.layouts) as [Layout, readonly (readonly (readonly [Kind, number, number])[])[]][]) {
    if (seats >= 0 && camps.length !== seats) throw new Error(`${spec.name}: layouts with different seat counts`);
    seats = camps.length;
    layouts[layout] = camps.map((camp) => camp.map(([kind, x, y]) => ({ kind, cell: cellOf([x, y]) })));
  }
  if (!layouts[spec.defaultLayout]) throw new Error(`${spec.name}: no default layout`);
  const names = spec.names;
  if (names.length !== cells || new Set(names).size !== cells) throw new Error(`${spec.name}: cell names are not one per cell`);
  return {
    name: spec.name,
    cells,
    names,
    byName: new Map(names.map((n, c) => [n, c])),
    coords: spec.coords,
    directions: dirs,
    edgeDirections: edges,
    rays,
    flanks,
    neighbours: rays.map(firsts),
    sides: rays.map((rs) => firsts(rs.slice(0, edges))),
    line,
    maze: cellOf(spec.maze),
    fortress: Uint8Array.from(spec.fortress.map(cellOf)).sort(),
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
