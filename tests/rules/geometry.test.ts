/** The boards as data (issue 39): the square board's geometry is the 9×9 board the rules were written for. */
import {
  DEFAULT_RULES,
  DIRECTIONS,
  GEOMETRIES,
  GEOMETRY_NAMES,
  type Geometry,
  initialPosition,
  MAZE_SQ,
  makeFen,
  NEIGHBOURS,
  ORTHO,
  parseFen,
  parseRules,
  pieces,
  RAYS,
  SQUARE,
  SQUARE_COUNT,
  setupPosition,
  startPieces,
} from '@djambi/shared';

/** Checks every board must pass: tables consistent with each other. */
function consistent(g: Geometry): void {
  expect(g.names).toHaveLength(g.cells);
  expect(new Set(g.names).size).toBe(g.cells);
  for (let c = 0; c < g.cells; c++) {
    expect(g.byName.get(g.names[c])).toBe(c);
    expect(g.rays[c]).toHaveLength(g.directions.length);
    for (let d = 0; d < g.directions.length; d++) {
      const ray = g.rays[c][d];
      for (const t of ray) expect(g.line[c * g.cells + t]).toBe(d);
      // A ray walks its direction's step in the board's frame.
      let [x, y] = g.coords[c];
      for (const t of ray) {
        x += g.directions[d][0];
        y += g.directions[d][1];
        expect(g.coords[t]).toEqual([x, y]);
      }
    }
    // Neighbours are symmetric, and sides are neighbours.
    for (const n of g.neighbours[c]) expect(Array.from(g.neighbours[n])).toContain(c);
    for (const n of g.sides[c]) expect(Array.from(g.neighbours[c])).toContain(n);
  }
  expect(g.rows.reduce((n, row) => n + row.length, 0)).toBe(g.cells);
  expect(new Set(g.rows.flatMap((row) => Array.from(row))).size).toBe(g.cells);
  for (const camps of Object.values(g.layouts)) {
    expect(camps).toHaveLength(g.seats);
    const cells = camps.flatMap((camp) => camp.map((p) => p.cell));
    expect(new Set(cells).size).toBe(9 * g.seats);
    expect(cells).not.toContain(g.maze);
  }
}

test('every board is registered under its name', () => {
  for (const name of GEOMETRY_NAMES) expect(GEOMETRIES[name].name).toBe(name);
});

test.each(GEOMETRY_NAMES.map((n) => [n]))('%s: the tables agree with each other', (name) => {
  consistent(GEOMETRIES[name]);
});

describe('the square board', () => {
  test('81 squares a1..i9, the maze e5, no fortress, four seats', () => {
    expect(SQUARE.cells).toBe(SQUARE_COUNT);
    expect(SQUARE.names[0]).toBe('a1');
    expect(SQUARE.names[80]).toBe('i9');
    expect(SQUARE.maze).toBe(MAZE_SQ);
    expect(SQUARE.names[SQUARE.maze]).toBe('e5');
    expect(SQUARE.fortress).toHaveLength(0);
    expect(SQUARE.seats).toBe(4);
    expect(SQUARE.edgeDirections).toBe(4);
  });

  test('the square vocabulary is the geometry (one source of truth)', () => {
    expect(RAYS).toBe(SQUARE.rays);
    expect(NEIGHBOURS).toBe(SQUARE.neighbours);
    expect(ORTHO).toBe(SQUARE.sides);
    expect(DIRECTIONS).toBe(SQUARE.directions);
  });

  test('neighbour counts: 8 in the middle, 5 on an edge, 3 in a corner; 4, 3, 2 sharing a side', () => {
    const at = (name: string) => SQUARE.byName.get(name)!;
    expect([at('e5'), at('e1'), at('a1')].map((c) => SQUARE.neighbours[c].length)).toEqual([8, 5, 3]);
    expect([at('e5'), at('e1'), at('a1')].map((c) => SQUARE.sides[c].length)).toEqual([4, 3, 2]);
  });

  test("a diagonal's flanking squares are the two orthogonal neighbours of both ends", () => {
    const at = (name: string) => SQUARE.byName.get(name)!;
    const d = SQUARE.directions.findIndex(([dx, dy]) => dx === 1 && dy === 1);
    expect(Array.from(SQUARE.flanks[at('a1')][d], (c) => SQUARE.names[c]).sort()).toEqual(['a2', 'b1']);
    expect(SQUARE.flanks[at('a1')][0]).toHaveLength(0);
    expect(SQUARE.flanks[at('i9')][d]).toHaveLength(0);
  });

  test('the camps are the R-2.3 start position, piece ids included', () => {
    for (const layout of ['mirror', 'chhobu_rotational'] as const) {
      const rules = parseRules({ layout });
      if (!rules.ok) throw new Error(rules.error.message);
      const start = pieces(initialPosition(rules.value));
      const camps = startPieces('square', layout)!;
      expect(camps.map((p, id) => ({ id, colour: p.colour, kind: p.kind, square: p.square, alive: true }))).toEqual(start);
    }
  });

  test('a position set up on the square board by name is the default one', () => {
    const start = initialPosition(DEFAULT_RULES);
    expect(start.geometry).toBe('square');
    const text = makeFen(start);
    const again = parseFen(text, DEFAULT_RULES, 'square');
    expect(again.ok && makeFen(again.value)).toBe(text);
  });

  test('an unknown board is refused without a throw', () => {
    const bad = setupPosition({ pieces: [], toMove: 'R' }, DEFAULT_RULES, 'octagon' as never);
    expect(bad.ok ? null : bad.error.code).toBe('bad_setup');
    expect(parseFen(makeFen(initialPosition()), DEFAULT_RULES, 'toString' as never).ok).toBe(false);
  });
});
