/** The square vocabulary: `makeSquare`/`parseSquare` round-trip, file/rank helpers, and room codes. */
import {
  BOARD_SIZE,
  CODE_ALPHABET,
  CODE_LENGTH,
  DEFAULT_RULES,
  initialPosition,
  legalDestinations,
  MAZE,
  MAZE_SQ,
  FILES,
  fileOf,
  isSquare,
  isTurn,
  makeSquare,
  normaliseCode,
  parseRules,
  parseSquare,
  pieces,
  playTurn,
  RANKS,
  RULE_VALUES,
  rankOf,
  SQUARE_COUNT,
  type Square,
  type SquareName,
  type TurnInput,
  squareOf,
} from '@djambi/shared';

describe('squares', () => {
  test('every index round-trips through its name, a1 first and i9 last', () => {
    const names = new Set<SquareName>();
    for (let sq = 0; sq < SQUARE_COUNT; sq++) {
      const name = makeSquare(sq);
      expect(name).toMatch(/^[a-i][1-9]$/);
      expect(parseSquare(name)).toBe(sq);
      expect(isSquare(name)).toBe(true);
      expect(squareOf(fileOf(sq), rankOf(sq))).toBe(sq);
      names.add(name);
    }
    expect(names.size).toBe(81);
    expect(makeSquare(0)).toBe('a1');
    expect(makeSquare(80)).toBe('i9');
    expect(makeSquare(40)).toBe('e5');
  });

  test('every name a1..i9 parses', () => {
    for (const f of FILES) for (const r of RANKS) expect(makeSquare(parseSquare(`${f}${r}`)!)).toBe(`${f}${r}`);
    expect(FILES.length * RANKS.length).toBe(BOARD_SIZE * BOARD_SIZE);
  });

  test.each(['', 'a', 'a0', 'j1', 'A1', 'a10', ' a1', 'a1 ', 'e5e', '11', 'toString', '__proto__'])('%j is refused', (text) => {
    expect(parseSquare(text)).toBeUndefined();
    expect(isSquare(text)).toBe(false);
  });

  test.each([undefined, null, 0, 40, {}, ['a1']])('non-string %j is refused without a throw', (value) => {
    expect(parseSquare(value as string)).toBeUndefined();
    expect(isSquare(value)).toBe(false);
  });

  test('Square is the index and SquareName the name, as in chessops', () => {
    const sq: Square | undefined = parseSquare('e5');
    expect(sq).toBe(MAZE_SQ);
    const name: SquareName = makeSquare(MAZE_SQ);
    expect(name).toBe(MAZE);
    // @ts-expect-error an index is not a name
    const notName: SquareName = MAZE_SQ;
    // @ts-expect-error unchecked text is not a name
    const text: SquareName = String('e5');
    expect([notName, text]).toEqual([40, 'e5']);
  });

  test('the engine answers in square names', () => {
    const pos = initialPosition();
    for (const p of pieces(pos)) expect(isSquare(p.square)).toBe(true);
    const dests = legalDestinations(pos, 'c7');
    expect(dests.length).toBeGreaterThan(0);
    for (const d of dests) expect(isSquare(d)).toBe(true);
  });

  test('playTurn takes unchecked text and refuses what is no square', () => {
    const pos = initialPosition();
    const input: TurnInput = { from: 'c7', to: 'd6' };
    expect(playTurn(pos, input).ok).toBe(true);
    const bad = playTurn(pos, { from: 'c7', to: 'z9' });
    expect(bad.ok ? null : bad.error.code).toBe('bad_square');
  });

  test.each<[TurnInput, boolean]>([
    [{ from: 'c7', to: 'd6' }, true],
    [{ from: 'a1', to: 'i9', placement: 'e5', exit: 'b2', reporterTarget: 'h8' }, true],
    [{ pass: true }, true],
    [{ from: 'c7', to: 'z9' }, false],
    [{ from: 'C7', to: 'd6' }, false],
    [{ from: 'c7', to: 'd6', placement: '' }, false],
    [{ from: 'c7', to: 'd6', exit: 'e10' }, false],
    [{ from: 'c7', to: 'd6', reporterTarget: 'toString' }, false],
  ])('isTurn(%j) is %s: the squares are names, legal or not', (turn, expected) => {
    const checked: boolean = isTurn(turn);
    expect(checked).toBe(expected);
    if (isTurn(turn) && !('pass' in turn)) {
      const from: SquareName = turn.from;
      expect(isSquare(from)).toBe(true);
    }
  });

  test('squareOf refuses off-board coordinates', () => {
    expect(squareOf(-1, 1)).toBeUndefined();
    expect(squareOf(9, 1)).toBeUndefined();
    expect(squareOf(0, 0)).toBeUndefined();
    expect(squareOf(0, 10)).toBeUndefined();
    expect(squareOf(0.5, 1)).toBeUndefined();
    expect(squareOf(8, 9)).toBe(80);
  });
});

describe('rule values', () => {
  test('every listed value is accepted and the defaults are listed', () => {
    for (const [key, values] of Object.entries(RULE_VALUES)) {
      expect(values).toContain((DEFAULT_RULES as unknown as Record<string, unknown>)[key]);
      for (const value of values) expect(parseRules({ [key]: value }).ok).toBe(true);
    }
  });
});

describe('room codes', () => {
  test('the alphabet has no look-alikes', () => {
    expect(CODE_ALPHABET).toHaveLength(31);
    expect(CODE_ALPHABET).not.toMatch(/[01ILO]/);
    expect(new Set(CODE_ALPHABET).size).toBe(CODE_ALPHABET.length);
  });

  test('typed codes are normalised', () => {
    expect(normaliseCode('abc-def')).toBe('ABCDEF');
    expect(normaliseCode(' 23 45 67 ')).toBe('234567');
    expect(normaliseCode('ABCDE')).toBeNull();
    expect(normaliseCode('ABCDEFG')).toBeNull();
    expect(normaliseCode('ABCDE0')).toBeNull();
    expect(normaliseCode('ABCDEI')).toBeNull();
    expect(normaliseCode('A'.repeat(CODE_LENGTH))).toBe('AAAAAA');
  });
});
