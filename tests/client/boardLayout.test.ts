/** The board layouts (game/orientation.ts) on every board and for every seat, and the keyboard's arrows on them. */
import { ALL_COLOURS, GEOMETRIES, GEOMETRY_NAMES, type GeometryName } from '@djambi/shared';
import { boardLayout, cellAtPoint, cellOf, cellToward, nameAtPoint, readingOrder, seatOf } from '../../client/src/game/orientation.js';

/** Every (board, seat) pair. */
const VIEWS: [GeometryName, number][] = GEOMETRY_NAMES.flatMap((name) =>
  [...Array(GEOMETRIES[name].seats).keys()].map((seat): [GeometryName, number] => [name, seat]),
);
const ARROWS: [string, number, number][] = [
  ['up', 0, -1],
  ['down', 0, 1],
  ['left', -1, 0],
  ['right', 1, 0],
];
const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6;

describe('board layout', () => {
  test.each(VIEWS)('%s, seat %i: the viewer’s chief starts in its home corner', (name, seat) => {
    const g = GEOMETRIES[name];
    const layout = boardLayout(name, ALL_COLOURS[seat]);
    const chief = g.layouts[g.defaultLayout]![seat][0].cell;
    const [x, y] = layout.centres[chief];
    const lowest = Math.max(...layout.centres.map(([, cy]) => cy));
    expect(near(y, lowest)).toBe(true);
    if (name === 'square') expect(near(x, Math.min(...layout.centres.map(([cx]) => cx)))).toBe(true);
    else {
      // Bottom centre, alone on the lowest line.
      expect(near(x, layout.width / 2)).toBe(true);
      expect(layout.centres.filter(([, cy]) => near(cy, lowest))).toHaveLength(1);
    }
  });

  test.each(VIEWS)('%s, seat %i: distinct centres inside the box, and the point under each centre is its cell', (name, seat) => {
    const layout = boardLayout(name, ALL_COLOURS[seat]);
    const g = layout.geometry;
    expect(new Set(layout.centres.map(([x, y]) => `${x.toFixed(6)},${y.toFixed(6)}`)).size).toBe(g.cells);
    layout.centres.forEach(([x, y], cell) => {
      expect(x).toBeGreaterThan(0);
      expect(y).toBeGreaterThan(0);
      expect(x).toBeLessThan(layout.width);
      expect(y).toBeLessThan(layout.height);
      expect(cellAtPoint(layout, x, y)).toBe(cell);
      expect(nameAtPoint(layout, x, y)).toBe(g.names[cell]);
      // Near its corners, still the same cell; a cell's outline surrounds its centre.
      const poly = layout.polygons[cell];
      for (let i = 0; i < poly.length; i += 2) expect(cellAtPoint(layout, x + (poly[i] - x) * 0.9, y + (poly[i + 1] - y) * 0.9)).toBe(cell);
    });
  });

  test.each(VIEWS)('%s, seat %i: cells sharing a side are one cell apart, and off the board is no cell', (name, seat) => {
    const layout = boardLayout(name, ALL_COLOURS[seat]);
    const g = layout.geometry;
    for (let c = 0; c < g.cells; c++)
      for (const n of g.sides[c]) {
        const d = Math.hypot(layout.centres[c][0] - layout.centres[n][0], layout.centres[c][1] - layout.centres[n][1]);
        expect(near(d, layout.cellSize)).toBe(true);
      }
    expect(cellAtPoint(layout, -0.01, -0.01)).toBe(-1);
    expect(cellAtPoint(layout, layout.width + 0.01, layout.height / 2)).toBe(-1);
    // The box's corners are off a hex board (its corners are cut), on the square board's corner cells.
    expect(cellAtPoint(layout, 0.01, 0.01) >= 0).toBe(name === 'square');
  });

  test('the square board is drawn as before the layouts: one cell per unit, Red sees a9 bottom left and a1 bottom right', () => {
    const layout = boardLayout('square', 'R');
    expect([layout.width, layout.height, layout.cellSize]).toEqual([9, 9, 1]);
    expect(layout.centres[layout.geometry.byName.get('a9')!]).toEqual([0.5, 8.5]);
    expect(layout.centres[layout.geometry.byName.get('a1')!]).toEqual([8.5, 8.5]);
    expect(layout.polygons[layout.geometry.byName.get('e5')!]).toEqual([4, 4, 5, 4, 5, 5, 4, 5]);
    expect(cellOf('e5', 'Y')).toEqual({ col: 4, row: 4 });
  });

  test('hex boards: flat-topped cells, a name in each but the maze, spectators and unseated colours see seat 0', () => {
    const layout = boardLayout('hex6', 'P');
    const g = layout.geometry;
    const poly = layout.polygons[g.maze];
    const ys = [...poly.keys()].filter((i) => i % 2 === 1).map((i) => poly[i]);
    // Two corners on the top line, two on the bottom one.
    expect(ys.filter((y) => near(y, Math.min(...ys)))).toHaveLength(2);
    expect(layout.labels.map((l) => l.text)).toEqual(g.names.filter((_, c) => c !== g.maze));
    expect(seatOf(GEOMETRIES.hex3, 'G')).toBe(0);
    expect(boardLayout('hex3', 'G').centres).toEqual(boardLayout('hex3', 'R').centres);
  });
});

describe('arrow keys', () => {
  test.each(VIEWS)('%s, seat %i: each arrow moves to a cell sharing a side, that way on screen; every cell is reachable', (name, seat) => {
    const layout = boardLayout(name, ALL_COLOURS[seat]);
    const g = layout.geometry;
    const start = readingOrder(layout).at(-1)![0];
    const seen = new Set([start]);
    const todo = [start];
    while (todo.length) {
      const c = todo.pop()!;
      for (const [, dx, dy] of ARROWS) {
        const n = cellToward(layout, c, dx, dy);
        if (n < 0) continue;
        expect([...g.sides[c]]).toContain(n);
        const [x0, y0] = layout.centres[c];
        const [x1, y1] = layout.centres[n];
        expect((x1 - x0) * dx + (y1 - y0) * dy).toBeGreaterThan(0);
        if (!seen.has(n)) {
          seen.add(n);
          todo.push(n);
        }
      }
    }
    expect(seen.size).toBe(g.cells);
  });

  test('on the square board the arrows step one cell and stop at the edge', () => {
    const layout = boardLayout('square', 'R');
    const at = (sq: string): number => layout.geometry.byName.get(sq)!;
    // Red: a9 bottom left, i9 top left, a1 bottom right.
    expect(layout.geometry.names[cellToward(layout, at('a9'), 0, -1)]).toBe('b9');
    expect(layout.geometry.names[cellToward(layout, at('a9'), 1, 0)]).toBe('a8');
    expect(cellToward(layout, at('a9'), -1, 0)).toBe(-1);
    expect(cellToward(layout, at('a9'), 0, 1)).toBe(-1);
  });

  test('on a hex board a run of Left or Right zigzags along one line across the board', () => {
    const layout = boardLayout('hex6', 'R');
    const g = layout.geometry;
    const across = layout.centres[g.maze][1];
    let c = g.maze;
    const ys: number[] = [];
    for (let n = cellToward(layout, c, -1, 0, across); n >= 0; n = cellToward(layout, c, -1, 0, across)) {
      c = n;
      ys.push(layout.centres[c][1]);
    }
    // Six steps to the left edge, never more than half a cell off the maze's line.
    expect(ys).toHaveLength(6);
    for (const y of ys) expect(Math.abs(y - across)).toBeLessThanOrEqual(layout.cellSize / 2 + 1e-6);
  });
});
