/**
 * The board's layout for a viewer: where each cell is drawn, its outline, the cell under a
 * point and the coordinates shown. Pure geometry from the board's data (shared `Geometry`), no
 * rules, no Pixi: every board is laid out by the same code, a square or hexagonal cell shape
 * and a turn that brings the viewer's camp to its home corner.
 *
 * Board units: the square board's cells are 1 wide; a hex cell's corners are 1 from its centre.
 * y grows downwards. The square board keeps its picture: every viewer has its chief's corner at
 * the bottom left (Red a9, Blue i9, Yellow i1, Green a1). On a hex board the viewer's chief's
 * corner is at the bottom centre; the cells are then flat-topped.
 */
import {
  ALL_COLOURS,
  type AnyColour,
  type CellName,
  fileOf,
  GEOMETRIES,
  type Geometry,
  type GeometryName,
  parseSquare,
  rankOf,
  type SquareName,
} from '@djambi/shared';

/** A coordinate label: its text, its anchor point in board units and which side of the text sits there (0..1). */
export interface CellLabel {
  readonly text: string;
  readonly cell: number;
  readonly x: number;
  readonly y: number;
  readonly anchorX: number;
  readonly anchorY: number;
}

/** A board laid out for one viewer (see the module comment). Cells are the geometry's indices. */
export interface BoardLayout {
  readonly geometry: Geometry;
  /** Size of the cells' bounding box, in board units (it starts at 0, 0). */
  readonly width: number;
  readonly height: number;
  /** Diameter of the circle inscribed in a cell: a piece is drawn to it. */
  readonly cellSize: number;
  /** Centre of each cell: x, y. */
  readonly centres: readonly (readonly [number, number])[];
  /** Outline of each cell: x0, y0, x1, y1, … clockwise on screen. */
  readonly polygons: readonly (readonly number[])[];
  /** Shade of each cell: 0 light, 1 dark, 2 between (hex boards colour cells in three). */
  readonly shades: readonly number[];
  /** Coordinates to draw: the square board's along two edges, a hex board's in every cell. */
  readonly labels: readonly CellLabel[];
  /** How the labels are drawn: opacity (faint when there is one in every cell), font size as a share of a cell and its least pixels, weight. */
  readonly labelStyle: LabelStyle;
}

/** See `BoardLayout.labelStyle`. */
export interface LabelStyle {
  readonly alpha: number;
  readonly size: number;
  readonly minPixels: number;
  readonly weight: '600' | '700';
}

/** How a kind of board is drawn, before a viewer turns it. */
interface Frame {
  /** Cell centre from the geometry's coordinates, y down. */
  readonly centre: (x: number, y: number) => readonly [number, number];
  /** Corner angles (degrees, clockwise from +x) and distance of a cell's corners. */
  readonly corners: readonly number[];
  readonly radius: number;
  /** Where the viewer's chief's corner ends up: its angle from the board's centre. */
  readonly home: number;
  readonly shade: (x: number, y: number) => number;
  readonly labels: (layout: Omit<BoardLayout, 'labels' | 'labelStyle'>) => CellLabel[];
  readonly labelStyle: LabelStyle;
}

const SQRT3 = Math.sqrt(3);
/** Rounds away the turn's float noise (cos 90° is 6e-17), so equal coordinates compare equal. */
const snap = (v: number): number => Math.round(v * 1e9) / 1e9;

const SQUARE_FRAME: Frame = {
  centre: (file, rank) => [file, -rank],
  corners: [225, 315, 45, 135],
  radius: Math.SQRT1_2,
  home: 135,
  // a1 is dark, as on a chessboard.
  shade: (file, rank) => (file + rank) % 2,
  labels: squareLabels,
  labelStyle: { alpha: 1, size: 0.2, minPixels: 9, weight: '700' },
};

const HEX_FRAME: Frame = {
  centre: (q, r) => [SQRT3 * (q + r / 2), 1.5 * r],
  corners: [30, 90, 150, 210, 270, 330],
  radius: 1,
  home: 90,
  // Three shades, no two neighbours alike.
  shade: (q, r) => (((q - r) % 3) + 3) % 3,
  // A name low in every cell but the maze, under the pieces: the empty cells, where moves go, show theirs.
  labels: (l) =>
    l.centres
      .map(([x, y], cell) => ({ text: l.geometry.names[cell], cell, x, y: y + l.cellSize * 0.3, anchorX: 0.5, anchorY: 0.5 }))
      .filter((label) => label.cell !== l.geometry.maze),
  labelStyle: { alpha: 0.55, size: 0.2, minPixels: 7.5, weight: '600' },
};

/** The viewer's seat on a board: its colour's index in seat order, seat 0 for a colour the board does not seat. */
export function seatOf(geometry: Geometry, view: AnyColour): number {
  const seat = ALL_COLOURS.indexOf(view);
  return seat >= 0 && seat < geometry.seats ? seat : 0;
}

/** Lay a board out for a viewer. */
export function boardLayout(board: Geometry | GeometryName, view: AnyColour): BoardLayout {
  const geometry = typeof board === 'string' ? GEOMETRIES[board] : board;
  const frame = geometry.edgeDirections === 4 ? SQUARE_FRAME : HEX_FRAME;
  const home = geometry.layouts[geometry.defaultLayout]![seatOf(geometry, view)][0].cell;
  // Turned about the maze, the board's centre.
  const [mx, my] = frame.centre(...geometry.coords[geometry.maze]);
  const [hx, hy] = frame.centre(...geometry.coords[home]);
  const turn = (frame.home * Math.PI) / 180 - Math.atan2(hy - my, hx - mx);
  const cos = Math.cos(turn);
  const sin = Math.sin(turn);
  const raw = geometry.coords.map(([x, y]) => {
    const [px, py] = frame.centre(x, y);
    return [snap((px - mx) * cos - (py - my) * sin), snap((px - mx) * sin + (py - my) * cos)] as const;
  });
  const shape: number[] = [];
  for (const a of frame.corners) {
    const t = (a * Math.PI) / 180 + turn;
    shape.push(snap(frame.radius * Math.cos(t)), snap(frame.radius * Math.sin(t)));
  }
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of raw)
    for (let i = 0; i < shape.length; i += 2) {
      minX = Math.min(minX, x + shape[i]);
      maxX = Math.max(maxX, x + shape[i]);
      minY = Math.min(minY, y + shape[i + 1]);
      maxY = Math.max(maxY, y + shape[i + 1]);
    }
  const centres = raw.map(([x, y]) => [snap(x - minX), snap(y - minY)] as const);
  // Clockwise on screen: corners in the order of their angle after the turn.
  const order = [...frame.corners.keys()].sort((a, b) => Math.atan2(shape[2 * a + 1], shape[2 * a]) - Math.atan2(shape[2 * b + 1], shape[2 * b]));
  const polygons = centres.map(([x, y]) => order.flatMap((i) => [snap(x + shape[2 * i]), snap(y + shape[2 * i + 1])]));
  const base = {
    geometry,
    width: snap(maxX - minX),
    height: snap(maxY - minY),
    cellSize: snap(2 * frame.radius * Math.cos(Math.PI / frame.corners.length)),
    centres,
    polygons,
    shades: geometry.coords.map(([x, y]) => frame.shade(x, y)),
  };
  return { ...base, labels: frame.labels(base), labelStyle: frame.labelStyle };
}

/** The cell of a name on this layout's board, or -1. */
export const cellIndexOf = (layout: BoardLayout, name: string): number => layout.geometry.byName.get(name) ?? -1;

/** The centre of a named cell, or null for text that names no cell of the board. */
export function centreOf(layout: BoardLayout, name: string): readonly [number, number] | null {
  const c = cellIndexOf(layout, name);
  return c < 0 ? null : layout.centres[c];
}

/** True when (x, y) lies in the convex polygon (on its edge counts). */
function inside(poly: readonly number[], x: number, y: number): boolean {
  for (let i = 0; i < poly.length; i += 2) {
    const j = (i + 2) % poly.length;
    if ((poly[j] - poly[i]) * (y - poly[i + 1]) - (poly[j + 1] - poly[i + 1]) * (x - poly[i]) < -1e-9) return false;
  }
  return true;
}

/** The cell under a point in board units, or -1 off the board. */
export function cellAtPoint(layout: BoardLayout, x: number, y: number): number {
  let best = -1;
  let bestD = Infinity;
  layout.centres.forEach(([cx, cy], c) => {
    const d = (cx - x) ** 2 + (cy - y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  });
  return best >= 0 && inside(layout.polygons[best], x, y) ? best : -1;
}

/** The name of the cell under a point in board units, or null off the board. */
export function nameAtPoint(layout: BoardLayout, x: number, y: number): CellName | null {
  const c = cellAtPoint(layout, x, y);
  return c < 0 ? null : layout.geometry.names[c];
}

/**
 * The cell an arrow key moves to from `from`: the nearest cell within 60° of `dx, dy` (a unit
 * step on screen), straight ahead preferred; of two equally good, the one nearer `across` (the
 * coordinate across the arrow that a run of presses keeps to, so Left and Right zigzag along a
 * line of hex cells). -1 when no cell lies that way.
 */
export function cellToward(layout: BoardLayout, from: number, dx: number, dy: number, across?: number): number {
  const [fx, fy] = layout.centres[from];
  let best = -1;
  let bestScore = Infinity;
  let bestAcross = Infinity;
  layout.centres.forEach(([x, y], c) => {
    const vx = x - fx;
    const vy = y - fy;
    const d = Math.hypot(vx, vy);
    const cos = (vx * dx + vy * dy) / d;
    if (c === from || cos < 0.5 - 1e-9) return;
    const score = snap(d / (cos * cos));
    const off = across === undefined ? 0 : Math.abs((dx === 0 ? x : y) - across);
    if (score < bestScore || (score === bestScore && off < bestAcross)) {
      best = c;
      bestScore = score;
      bestAcross = off;
    }
  });
  return best;
}

/** Cells in reading order on screen: rows top to bottom (equal heights), each left to right. */
export function readingOrder(layout: BoardLayout): number[][] {
  const rows = new Map<number, number[]>();
  layout.centres.forEach(([, y], c) => {
    const row = rows.get(y) ?? [];
    row.push(c);
    rows.set(y, row);
  });
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, cells]) => cells.sort((a, b) => layout.centres[a][0] - layout.centres[b][0]));
}

/**
 * The square board's labels: along the bottom edge in each cell's bottom-right corner and along
 * the left edge in the top-left corner, each the coordinate that varies along that edge.
 */
function squareLabels(l: Omit<BoardLayout, 'labels' | 'labelStyle'>): CellLabel[] {
  const names = l.geometry.names;
  const out: CellLabel[] = [];
  const edge = (cells: number[], key: 0 | 1, anchor: 0 | 1): void => {
    cells.sort((a, b) => l.centres[a][key] - l.centres[b][key]);
    cells.forEach((cell, i) => {
      const name = names[cell];
      const next = names[cells[i === cells.length - 1 ? i - 1 : i + 1]];
      const [x, y] = l.centres[cell];
      const h = l.cellSize / 2 - 0.05;
      out.push({
        text: name[0] !== next[0] ? name[0] : name.slice(1),
        cell,
        x: anchor ? x + h : x - h,
        y: anchor ? y + h + 0.025 : y - h - 0.025,
        anchorX: anchor,
        anchorY: anchor,
      });
    });
  };
  const bottom = Math.max(...l.centres.map(([, y]) => y));
  const left = Math.min(...l.centres.map(([x]) => x));
  const cells = [...l.centres.keys()];
  edge(
    cells.filter((c) => l.centres[c][1] === bottom),
    0,
    1,
  );
  edge(
    cells.filter((c) => l.centres[c][0] === left),
    1,
    0,
  );
  return out;
}

// ----------------------------------------------------------------------------------------------
// The square board's display grid (col, row), as the board was drawn before the layouts.

/** A cell of the displayed 9×9 grid; row 0 is the top row. */
export interface Cell {
  readonly col: number;
  readonly row: number;
}

/** File index 0..8 and rank 1..9 of a square name, or null for any other text. */
export function fileRank(square: string): { file: number; rank: number } | null {
  const sq = parseSquare(square);
  return sq === undefined ? null : { file: fileOf(sq), rank: rankOf(sq) };
}

/** Where a square is drawn for a viewer on the square board (null for text that is no square). */
export function cellOf(square: string, view: AnyColour): Cell | null {
  const c = centreOf(boardLayout('square', view), square);
  return c && { col: Math.floor(c[0]), row: Math.floor(c[1]) };
}

/** The square drawn at a cell of the square board for a viewer, or null outside the grid. */
export function squareAt(cell: Cell, view: AnyColour): SquareName | null {
  const { col, row } = cell;
  if (!Number.isInteger(col) || !Number.isInteger(row)) return null;
  return nameAtPoint(boardLayout('square', view), col + 0.5, row + 0.5) as SquareName | null;
}

/** The square board's labels along the bottom edge (left to right) and the left edge (top to bottom). */
export function edgeLabels(view: AnyColour): { bottom: string[]; left: string[] } {
  const labels = boardLayout('square', view).labels;
  return { bottom: labels.filter((l) => l.anchorY === 1).map((l) => l.text), left: labels.filter((l) => l.anchorY === 0).map((l) => l.text) };
}
