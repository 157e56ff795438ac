/**
 * The boards as data (issue 39): the square board's geometry is the 9×9 board the rules were
 * written for; the hex boards are shared/variants/HEX.md's, whose tables are the oracle here.
 */
import {
  cellAt,
  DEFAULT_RULES,
  DIRECTIONS,
  GEOMETRIES,
  GEOMETRY_NAMES,
  type Geometry,
  HEX3,
  HEX6,
  hexCellName,
  initialPosition,
  legalDestinations,
  MAZE_SQ,
  makeFen,
  makeTurn,
  NEIGHBOURS,
  ORTHO,
  parseFen,
  parseRules,
  parseTurn,
  type PieceSetup,
  perft,
  pieces,
  playTurn,
  type Position,
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
    const named = parseRules({ board: 'square' });
    expect(named).toEqual({ ok: true, value: DEFAULT_RULES });
    const again = parseFen(text, named.ok ? named.value : DEFAULT_RULES);
    expect(again.ok && makeFen(again.value)).toBe(text);
  });

  test('an unknown board is refused without a throw', () => {
    const bad = setupPosition({ pieces: [], toMove: 'R' }, { ...DEFAULT_RULES, board: 'octagon' as never });
    expect(bad.ok ? null : bad.error.code).toBe('bad_setup');
    expect(parseFen(makeFen(initialPosition()), { ...DEFAULT_RULES, board: 'toString' as never }).ok).toBe(false);
  });
});

/** The cell named `name`, which must exist. */
const at = (g: Geometry, name: string): number => {
  const c = g.byName.get(name);
  if (c === undefined) throw new Error(`${g.name} has no cell ${name}`);
  return c;
};
const names = (g: Geometry, cells: Iterable<number>): string[] => Array.from(cells, (c) => g.names[c]);

/** Destinations of a long-range piece (whole rays) and of a militant (two steps) on an empty board. */
const longRange = (g: Geometry, c: number) => g.rays[c].reduce((n, ray) => n + ray.length, 0);
const militant = (g: Geometry, c: number) => g.rays[c].reduce((n, ray) => n + Math.min(2, ray.length), 0);

/** A seat's camp as HEX.md's tables write it: chief, assassin, reporter, diplomat, necromobile, militants (sorted). */
function campOf(g: Geometry, seat: number): string[] {
  const camp = Object.values(g.layouts)[0]![seat];
  const of = (kind: string) => camp.filter((p) => p.kind === kind).map((p) => g.names[p.cell]);
  return [...of('chief'), ...of('assassin'), ...of('reporter'), ...of('diplomat'), ...of('necromobile'), ...of('militant').sort()];
}

describe('the small hex board (hex3, HEX.md §3)', () => {
  test('61 cells in rows of 5, 6, 7, 8, 9, 8, 7, 6, 5 named as §3.1, the maze E5 at the centre, no fortress', () => {
    expect(HEX3.cells).toBe(61);
    expect(HEX3.rows.map((row) => row.length)).toEqual([5, 6, 7, 8, 9, 8, 7, 6, 5]);
    // §3.1: each row's first and last cell, and its q range.
    const table: [string, string, number, number][] = [
      ['C1', 'G1', 0, 4],
      ['B2', 'G2', -1, 4],
      ['B3', 'H3', -2, 4],
      ['A4', 'H4', -3, 4],
      ['A5', 'I5', -4, 4],
      ['A6', 'H6', -4, 3],
      ['B7', 'H7', -4, 2],
      ['B8', 'G8', -4, 1],
      ['C9', 'G9', -4, 0],
    ];
    table.forEach(([first, last, q0, q1], k) => {
      const row = HEX3.rows[k];
      expect([HEX3.names[row[0]], HEX3.names[row[row.length - 1]]]).toEqual([first, last]);
      expect([HEX3.coords[row[0]], HEX3.coords[row[row.length - 1]]]).toEqual([
        [q0, k - 4],
        [q1, k - 4],
      ]);
    });
    expect(HEX3.names[HEX3.maze]).toBe('E5');
    expect(HEX3.coords[HEX3.maze]).toEqual([0, 0]);
    expect(HEX3.fortress).toHaveLength(0);
    expect(HEX3.seats).toBe(3);
  });

  test('names follow §2: column q + R + 1 + ⌊r / 2⌋, row r + R + 1', () => {
    for (let c = 0; c < HEX3.cells; c++) expect(HEX3.names[c]).toBe(hexCellName(4, ...HEX3.coords[c]));
    expect(cellAt(HEX3, -4, 0)).toBe(at(HEX3, 'A5'));
    expect(cellAt(HEX3, 0, 4)).toBe(at(HEX3, 'G9'));
    expect(cellAt(HEX3, 4, -4)).toBe(at(HEX3, 'G1'));
    expect(cellAt(HEX3, 5, 0)).toBe(-1);
  });

  test('six edge directions only: every neighbour shares a side (§3.3, §3.4)', () => {
    expect(HEX3.directions).toHaveLength(6);
    expect(HEX3.edgeDirections).toBe(6);
    for (let c = 0; c < HEX3.cells; c++) expect(Array.from(HEX3.sides[c])).toEqual(Array.from(HEX3.neighbours[c]));
    expect([at(HEX3, 'E5'), at(HEX3, 'A5'), at(HEX3, 'A4')].map((c) => HEX3.neighbours[c].length)).toEqual([6, 3, 4]);
    expect(names(HEX3, HEX3.neighbours[at(HEX3, 'E5')]).sort()).toEqual(['D4', 'D5', 'D6', 'E4', 'E6', 'F5']);
  });

  test('empty-board moves (§8.3): centre 24 for a long-range piece, 12 for a militant; a corner 16', () => {
    expect(longRange(HEX3, HEX3.maze)).toBe(24);
    expect(militant(HEX3, HEX3.maze)).toBe(12);
    for (const corner of ['A5', 'C1', 'G1', 'I5', 'G9', 'C9']) expect(longRange(HEX3, at(HEX3, corner))).toBe(16);
  });

  test('the start position is §3.2: Red W, Blue SE, Yellow NE, all reporter-left', () => {
    expect(campOf(HEX3, 0)).toEqual(['A5', 'A6', 'A4', 'B5', 'C5', 'B3', 'B4', 'B6', 'B7']);
    expect(campOf(HEX3, 1)).toEqual(['G9', 'G8', 'F9', 'F8', 'F7', 'E8', 'E9', 'G7', 'H7']);
    expect(campOf(HEX3, 2)).toEqual(['G1', 'F1', 'G2', 'F2', 'F3', 'E1', 'E2', 'G3', 'H3']);
    const chiefs = [0, 1, 2].map((s) => HEX3.coords[at(HEX3, campOf(HEX3, s)[0])]);
    expect(chiefs).toEqual([
      [-4, 0],
      [0, 4],
      [4, -4],
    ]);
  });
});

describe('the large hex board (hex6 and hex5, HEX.md §4)', () => {
  test('127 cells in rows of 7..13..7, the maze G7, the fortress F6 G6 F7 H7 F8 G8 (§4.1)', () => {
    expect(HEX6.cells).toBe(127);
    expect(HEX6.rows.map((row) => row.length)).toEqual([7, 8, 9, 10, 11, 12, 13, 12, 11, 10, 9, 8, 7]);
    expect(HEX6.names[HEX6.maze]).toBe('G7');
    expect(names(HEX6, HEX6.fortress).sort()).toEqual(['F6', 'F7', 'F8', 'G6', 'G8', 'H7']);
    expect(Array.from(HEX6.fortress).sort()).toEqual(Array.from(HEX6.sides[HEX6.maze]).sort());
    expect(HEX6.seats).toBe(6);
    for (let c = 0; c < HEX6.cells; c++) expect(HEX6.names[c]).toBe(hexCellName(6, ...HEX6.coords[c]));
    expect([HEX6.names[0], HEX6.names[HEX6.cells - 1]]).toEqual(['D1', 'J13']);
  });

  test('12 directions: 6 edge, then the 6 corner ones, each flanked by two edge neighbours (§2)', () => {
    expect(HEX6.directions).toHaveLength(12);
    expect(HEX6.edgeDirections).toBe(6);
    const centre = HEX6.maze;
    expect(HEX6.sides[centre]).toHaveLength(6);
    expect(HEX6.neighbours[centre]).toHaveLength(12);
    // N (+1, -2) from G7 lands straight above on G5, between G6 (NE) and F6 (NW); WNW (-1, -1) on E6, between F7 (W) and F6 (NW).
    const n = HEX6.directions.findIndex(([q, r]) => q === 1 && r === -2);
    const wnw = HEX6.directions.findIndex(([q, r]) => q === -1 && r === -1);
    expect(HEX6.names[HEX6.rays[centre][n][0]]).toBe('G5');
    expect(names(HEX6, HEX6.flanks[centre][n]).sort()).toEqual(['F6', 'G6']);
    expect(HEX6.names[HEX6.rays[centre][wnw][0]]).toBe('E6');
    expect(names(HEX6, HEX6.flanks[centre][wnw]).sort()).toEqual(['F6', 'F7']);
    // Every corner step's flanking cells share a side with both ends, and lie on the board.
    for (let c = 0; c < HEX6.cells; c++)
      for (let d = 6; d < 12; d++) {
        const ray = HEX6.rays[c][d];
        expect(HEX6.flanks[c][d]).toHaveLength(ray.length > 0 ? 2 : 0);
        for (const f of HEX6.flanks[c][d]) {
          expect(Array.from(HEX6.sides[c])).toContain(f);
          expect(Array.from(HEX6.sides[ray[0]])).toContain(f);
        }
      }
    // A corner: 3 side-sharing neighbours and 2 corner steps.
    expect([HEX6.sides[at(HEX6, 'A7')].length, HEX6.neighbours[at(HEX6, 'A7')].length]).toEqual([3, 5]);
  });

  test('empty-board moves (§8.3): centre 54 = 36 + 18 for a long-range piece, 24 for a militant; a corner 36', () => {
    const edgeOnly = HEX6.rays[HEX6.maze].slice(0, 6).reduce((n, ray) => n + ray.length, 0);
    expect([longRange(HEX6, HEX6.maze), edgeOnly]).toEqual([54, 36]);
    expect(militant(HEX6, HEX6.maze)).toBe(24);
    for (const corner of ['A7', 'D13', 'J13', 'M7', 'J1', 'D1']) expect(longRange(HEX6, at(HEX6, corner))).toBe(36);
  });

  test('the start position is §4.2: six corner camps, reporter-left and reporter-right in turn', () => {
    const table = [
      ['A7', 'A8', 'A6', 'B7', 'C7', 'B5', 'B6', 'B8', 'B9'],
      ['D13', 'C12', 'E13', 'D12', 'E11', 'C11', 'D11', 'E12', 'F13'],
      ['J13', 'J12', 'I13', 'I12', 'I11', 'H12', 'H13', 'J11', 'K11'],
      ['M7', 'L8', 'L6', 'L7', 'K7', 'K6', 'K8', 'L5', 'L9'],
      ['J1', 'I1', 'J2', 'I2', 'I3', 'H1', 'H2', 'J3', 'K3'],
      ['D1', 'E1', 'C2', 'D2', 'E3', 'C3', 'D3', 'E2', 'F1'],
    ];
    table.forEach((row, seat) => expect(campOf(HEX6, seat)).toEqual(row));
    const all = table.flat();
    expect(new Set(all).size).toBe(54);
  });

  test('along every board edge the middle cell is empty, and the centre is empty to distance 3 (§4.2)', () => {
    const taken = new Set(Object.values(HEX6.layouts)[0]!.flatMap((camp) => camp.map((p) => p.cell)));
    const edgeMiddles = [
      [-6, 3],
      [-3, 6],
      [3, 3],
      [6, -3],
      [3, -6],
      [-3, -3],
    ].map(([q, r]) => cellAt(HEX6, q, r));
    expect(edgeMiddles.every((c) => c >= 0 && !taken.has(c))).toBe(true);
    for (const c of taken) {
      const [q, r] = HEX6.coords[c];
      expect(Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r))).toBeGreaterThan(3);
    }
  });
});

describe('one move generator on every board', () => {
  const rulesOf = (board: 'hex3' | 'hex6') => {
    const r = parseRules({ board });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  const hexRules = rulesOf('hex3');
  const setUp = (pieces: PieceSetup[], board: 'hex3' | 'hex6', toMove: 'R' | 'B' = 'R', active: ('R' | 'B' | 'Y')[] = ['R', 'B', 'Y']): Position => {
    const res = setupPosition({ pieces, active, toMove }, rulesOf(board));
    if (!res.ok) throw new Error(res.error.message);
    return res.value;
  };
  const piece = (colour: 'R' | 'B' | 'Y', kind: PieceSetup['kind'], square: string, alive = true): PieceSetup => ({ colour, kind, square, alive });

  test('a chief in power reaches every cell of its lines: 24 on hex3, 54 on the large board (two of them enemy chiefs in corners)', () => {
    const lone = (board: 'hex3' | 'hex6', maze: string, b: string, y: string) =>
      setUp([piece('R', 'chief', maze), piece('B', 'chief', b), piece('Y', 'chief', y)], board);
    const small = legalDestinations(lone('hex3', 'E5', 'G9', 'G1'), 'E5');
    expect(small).toHaveLength(24);
    expect(small).toEqual(expect.arrayContaining(['G9', 'G1', 'A5', 'I5', 'C1', 'C9']));
    const large = legalDestinations(lone('hex6', 'G7', 'J13', 'J1'), 'G7');
    expect(large).toHaveLength(54);
    expect(large).toEqual(expect.arrayContaining(['G1', 'G13', 'B4', 'K10', 'K4', 'B10'])); // the six corner lines' far ends
  });

  test('the militant of seat 1 kills seat 2 militant two edge steps away on its first move (§8.4)', () => {
    const camps = Object.values(HEX6.layouts)[0]!;
    const pieces = camps.slice(0, 2).flatMap((camp, seat) => camp.map((p) => piece(seat === 0 ? 'R' : 'B', p.kind, HEX6.names[p.cell])));
    const pos = setUp(pieces, 'hex6', 'R', ['R', 'B']);
    expect(legalDestinations(pos, 'B9')).toContain('C11');
    const kill = playTurn(pos, { from: 'B9', to: 'C11', placement: 'B9' });
    expect(kill.ok && kill.value.effects.map((e) => e.type)).toEqual(['move', 'kill', 'place']);
  });

  test('a hex3 chief whose six neighbours are corpses or off the board is encircled (§8.5)', () => {
    // Red's corner chief A5 has three neighbours; Blue's necromobile walls the last one with a corpse.
    const pos = setUp(
      [
        piece('R', 'chief', 'A5'),
        piece('R', 'militant', 'A4', false),
        piece('R', 'militant', 'A6', false),
        piece('R', 'militant', 'D5', false),
        piece('B', 'chief', 'G9'),
        piece('B', 'necromobile', 'G5'),
        piece('Y', 'chief', 'G1'),
      ],
      'hex3',
      'B',
    );
    const turn = playTurn(pos, { from: 'G5', to: 'D5', placement: 'B5' });
    if (!turn.ok) throw new Error(turn.error.message);
    expect(turn.value.effects).toContainEqual({ type: 'eliminated', colour: 'R', cause: 'encircled', by: 'B' });
  });

  test('hex positions and turns are written and read with the board’s own names', () => {
    const start = setUp(startPieces('hex3', hexRules.layout), 'hex3');
    const text = makeFen(start);
    expect(text).toBe('2YmYaYc/3YmYdYr/Rm3YnYmYm/RrRm6/RcRdRn6/RaRm6/Rm3BnBmBm/3BmBdBa/2BmBrBc RBY RBY R n R 0 0 *');
    const again = parseFen(text, hexRules);
    expect(again.ok && makeFen(again.value)).toBe(text);
    const bySquare = (pos: Position) =>
      pieces(pos)
        .map(({ colour, kind, square }) => `${colour}${kind}@${square}`)
        .sort();
    expect(again.ok && bySquare(again.value)).toEqual(bySquare(start));
    expect(parseFen(text, DEFAULT_RULES).ok).toBe(false); // not a square position
    const turn = parseTurn('C5-I5', 'hex3');
    expect(turn.ok && turn.value).toEqual({ from: 'C5', to: 'I5' });
    expect(turn.ok && makeTurn(turn.value, start)).toBe('C5-I5');
    expect(parseTurn('C5-I5').ok).toBe(false); // no such squares on the square board
    expect(parseTurn('c5-i5', 'hex3').ok).toBe(false);
    expect(playTurn(start, { from: 'C5', to: 'I5' }).ok).toBe(true);
    const bad = playTurn(start, { from: 'c5', to: 'i5' });
    expect(bad.ok ? null : bad.error.code).toBe('bad_square');
    // A count of thirteen empty cells is written as one number.
    const empty = setUp([piece('R', 'chief', 'A7'), piece('B', 'chief', 'M7'), piece('Y', 'chief', 'J1')], 'hex6');
    expect(makeFen(empty).split(' ')[0]).toBe('6Yc/8/9/10/11/12/Rc11Bc/12/11/10/9/8/7');
    expect(makeFen(empty).split(' ')[1]).toBe('RBY---');
    expect(parseFen(makeFen(empty), rulesOf('hex6')).ok).toBe(true);
  });

  test('perft from the hex3 start (3 players, rules otherwise default): 27, 1,071, 53,121', () => {
    // Counted as on the square board (conformance README "Perft"); a sanity figure: no other engine to check it against.
    const start = setUp(startPieces('hex3', hexRules.layout), 'hex3');
    expect([1, 2, 3].map((d) => perft(start, d))).toEqual([27, 1071, 53121]);
  });

  test('the large board seats six armies, R B Y G P W counter-clockwise from the W corner', () => {
    const start = startPieces('hex6', 'mirror');
    expect(start).toHaveLength(54);
    expect([...new Set(start.map((p) => p.colour))]).toEqual(['R', 'B', 'Y', 'G', 'P', 'W']);
    expect(start.filter((p) => p.kind === 'chief').map((p) => p.square)).toEqual(['A7', 'D13', 'J13', 'M7', 'J1', 'D1']);
  });
});
